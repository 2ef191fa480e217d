"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { panelClassName } from "@/components/ui/panel";
import type { LoggedRecall } from "@/lib/recall-log/types";
import styles from "./inspect.module.css";

type Tab = "request" | "answer";

/**
 * The recall as stored, for copying into a bug report or a test: the request as logged and the
 * answer as `GET /api/recalls/{id}` returns it. Closed by default; the JSON is built only when
 * opened (a recall with a large pool is a few hundred kilobytes).
 */
export function RawJsonPanel({ view }: { view: LoggedRecall }) {
  const [open, setOpen] = useState(false);
  const [tab, setTab] = useState<Tab>("request");
  const panelId = useId();
  const text = open ? JSON.stringify(tab === "request" ? view.request : view, null, 2) : "";
  return (
    <details
      className={panelClassName}
      data-testid="raw-json"
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
    >
      <summary className={styles.summary}>Raw JSON (request and answer as stored)</summary>
      {open ? (
        <div className={styles.rawBody}>
          <div className={styles.tabs} role="group" aria-label="Which JSON">
            {(["request", "answer"] as const).map((t) => (
              <Button
                key={t}
                type="button"
                variant={tab === t ? "primary" : "secondary"}
                size="small"
                aria-pressed={tab === t}
                aria-controls={panelId}
                onClick={() => setTab(t)}
              >
                {t === "request" ? "Request" : "Answer"}
              </Button>
            ))}
            <CopyButton value={text} label={tab === "request" ? "request JSON" : "answer JSON"} nameValue={false} />
          </div>
          <p className={styles.hint}>
            {tab === "request"
              ? "What the recall asked, as logged."
              : `The whole logged recall, as GET /api/recalls/${view.id} returns it.`}
          </p>
          <pre id={panelId} className={styles.json} data-testid="raw-json-text" tabIndex={0}>
            {text}
          </pre>
        </div>
      ) : null}
    </details>
  );
}
