"use client";

import { useRouter } from "next/navigation";
import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { TextInput } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { panelClassName, panelTitleClassName } from "@/components/ui/panel";
import { errorMessage } from "@/lib/queries/fetch-json";
import { useRunRecall, useStores } from "@/lib/queries/use-recall";
import { rerunBody, type FormState } from "@/lib/recall-log/request-form";
import type { LoggedRecall } from "@/lib/recall-log/types";
import styles from "./inspect.module.css";

/** The comparison page of two logged recalls (shareable: both ids in the URL). */
export function compareHref(a: string, b: string): string {
  return `/recalls/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;
}

type Change = Partial<Pick<FormState, "k" | "search_mode">>;

/** The two re-runs the issue names: a bigger pool, and the other retrieval mode. */
function rerunsOf(view: LoggedRecall): { label: string; change: Change }[] {
  const out: { label: string; change: Change }[] = [];
  if (view.request.k !== 20) out.push({ label: "Run again with k=20", change: { k: 20 } });
  out.push(
    view.request.search_mode === "semantic"
      ? { label: "Run again hybrid", change: { search_mode: "hybrid" } }
      : { label: "Run again semantic", change: { search_mode: "semantic" } },
  );
  return out;
}

/**
 * From a recall to a comparison: run it again with one setting changed and open both side by
 * side, or compare it with another logged recall by id.
 */
export function CompareActions({ view }: { view: LoggedRecall }) {
  const router = useRouter();
  const run = useRunRecall();
  const stores = useStores();
  const [other, setOther] = useState("");
  const [pending, setPending] = useState<string | null>(null);
  const inputId = useId();
  const titleId = useId();
  const configured = stores.data === undefined || stores.data.some((s) => s.name === view.store);

  function rerun(label: string, change: Change) {
    setPending(label);
    run.mutate(rerunBody(view.request, change), {
      onSuccess: (next) => router.push(compareHref(view.id, next.id)),
      onSettled: () => setPending(null),
    });
  }

  function onCompare(event: FormEvent) {
    event.preventDefault();
    const id = other.trim();
    if (id) router.push(compareHref(view.id, id));
  }

  return (
    <section className={panelClassName} data-testid="compare-actions" aria-labelledby={titleId}>
      <h2 className={panelTitleClassName} id={titleId}>
        Compare
      </h2>
      <div className={styles.actionRow}>
        {rerunsOf(view).map(({ label, change }) => (
          <Button
            key={label}
            type="button"
            onClick={() => rerun(label, change)}
            disabled={run.isPending || !configured}
            title={configured ? undefined : `The store “${view.store}” is not configured here.`}
          >
            {pending === label ? "Running…" : label}
          </Button>
        ))}
        <form className={styles.inlineForm} onSubmit={onCompare}>
          <label htmlFor={inputId}>or with recall</label>
          <TextInput
            id={inputId}
            value={other}
            onChange={(e) => setOther(e.target.value)}
            placeholder="recall id"
            maxLength={64}
          />
          <Button type="submit" disabled={other.trim() === ""}>
            Compare
          </Button>
        </form>
      </div>
      {!configured ? (
        <p className={styles.hint}>The store “{view.store}” is not configured here, so this recall cannot be run again on it.</p>
      ) : null}
      {run.error ? <Notice tone="error">The re-run failed: {errorMessage(run.error)}</Notice> : null}
    </section>
  );
}
