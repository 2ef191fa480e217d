"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { TextInput } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { panelClassName } from "@/components/ui/panel";
import styles from "../inspect.module.css";

/** Asks for the two recall ids when the URL does not name two logged recalls. */
export function ComparePicker({ a, b, problem }: { a: string; b: string; problem: string | null }) {
  const router = useRouter();
  const [ids, setIds] = useState({ a, b });
  const idA = useId();
  const idB = useId();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const x = ids.a.trim();
    const y = ids.b.trim();
    if (x && y) router.push(`/recalls/compare?a=${encodeURIComponent(x)}&b=${encodeURIComponent(y)}`);
  }

  return (
    <section className={panelClassName} data-testid="compare-picker">
      {problem ? (
        <Notice tone="error">{problem}</Notice>
      ) : (
        <p className={styles.hint}>
          Paste the ids of two logged recalls (a recall&apos;s page shows its id; its Compare panel also runs it again with k=20
          or in the other mode and opens the comparison), or tick two recalls in <Link href="/recalls">History</Link> and choose
          &ldquo;Compare these two&rdquo;.
        </p>
      )}
      <form className={styles.actionRow} onSubmit={onSubmit}>
        <label htmlFor={idA} className={styles.hint}>
          Recall A
        </label>
        <TextInput id={idA} value={ids.a} onChange={(e) => setIds({ ...ids, a: e.target.value })} />
        <label htmlFor={idB} className={styles.hint}>
          Recall B
        </label>
        <TextInput id={idB} value={ids.b} onChange={(e) => setIds({ ...ids, b: e.target.value })} />
        <Button type="submit" disabled={!ids.a.trim() || !ids.b.trim()}>
          Compare
        </Button>
      </form>
    </section>
  );
}
