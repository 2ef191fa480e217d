"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { TextInput } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { panelClassName, panelTitleClassName } from "@/components/ui/panel";
import { formatBm25, formatScore } from "@/lib/format";
import { errorMessage } from "@/lib/queries/fetch-json";
import { storeParam, useMemoryList } from "@/lib/queries/use-memories";
import { useWhyNotHere } from "@/lib/queries/use-recall";
import type { LoggedRecall, WhyNotHereAnswer } from "@/lib/recall-log/types";
import styles from "./inspect.module.css";
import { revealAndFocus } from "./reveal";

/** The URL parameter that carries the asked memory, so the answer is shareable. */
export const WHY_PARAM = "why";

const PICK_LIMIT = 8;

/** The id of the panel, so "why?" elsewhere on the page can bring it into view. */
export const WHY_PANEL_ID = "why-not-here";

/** Sent to the panel on every question (the same memory asked twice leaves the URL as it was). */
const WHY_ASKED_EVENT = "recall:why-asked";

/**
 * Asks the panel about a memory: the question goes into the URL (`?why=`), where the panel reads
 * it, and the panel is told, so it brings its explanation into view and focuses it once shown.
 */
export function useAskWhy(): (memoryId: string) => void {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  return (memoryId: string) => {
    const id = memoryId.trim();
    const next = new URLSearchParams(params.toString());
    if (id === "") next.delete(WHY_PARAM);
    else next.set(WHY_PARAM, id);
    const query = next.toString();
    router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    if (id !== "") document.getElementById(WHY_PANEL_ID)?.dispatchEvent(new Event(WHY_ASKED_EVENT));
  };
}

function rankText(rank: number | null): string {
  return rank === null ? "not fetched" : `#${rank}`;
}

/**
 * "Why isn't X here?" on a logged recall: paste a memory id, or pick one of the store's memories,
 * and get its raw cosine, BM25, its rank in each arm and in the merge, and the rule that kept it
 * off the page. The asked id lives in the URL (`?why=<id>`).
 */
export function WhyNotHerePanel({ view }: { view: LoggedRecall }) {
  const params = useSearchParams();
  const asked = params.get(WHY_PARAM);
  const askWhy = useAskWhy();
  const [draft, setDraft] = useState(asked ?? "");
  const [picking, setPicking] = useState(false);
  const why = useWhyNotHere(view.id, asked);
  const inputId = useId();
  const titleId = useId();
  const panelRef = useRef<HTMLElement>(null);
  const answerRef = useRef<HTMLDivElement>(null);
  // Counts the questions asked on this page (not one arriving in a shared link): each brings the
  // explanation into view and focuses it, and the view follows it from "Looking up…" to the answer.
  const [asks, setAsks] = useState(0);
  const focusedFor = useRef(0);
  const shown = asked === null ? "none" : why.isPending ? "pending" : why.error ? "error" : "answer";

  useEffect(() => {
    const panel = panelRef.current;
    if (!panel) return;
    const onAsked = () => setAsks((n) => n + 1);
    panel.addEventListener(WHY_ASKED_EVENT, onAsked);
    return () => panel.removeEventListener(WHY_ASKED_EVENT, onAsked);
  }, []);

  useEffect(() => {
    const answer = answerRef.current;
    if (asks === 0 || !answer) return;
    // The focus moves once a question, so a reader who tabs on while it loads keeps their place.
    revealAndFocus(answer, answer, { moveFocus: focusedFor.current !== asks });
    focusedFor.current = asks;
  }, [asks, asked, shown]);

  function ask(memoryId: string) {
    setDraft(memoryId.trim());
    askWhy(memoryId);
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    ask(draft);
  }

  return (
    <section ref={panelRef} id={WHY_PANEL_ID} className={panelClassName} data-testid="why-not-here" aria-labelledby={titleId}>
      <h2 className={panelTitleClassName} id={titleId}>
        Why isn&apos;t this memory here?
      </h2>
      <form className={styles.whyForm} onSubmit={onSubmit} role="search" aria-label="Explain a memory's place">
        <label htmlFor={inputId}>Memory id</label>
        <TextInput
          id={inputId}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          placeholder="paste a memory id"
          maxLength={200}
        />
        <Button type="submit" disabled={draft.trim() === ""}>
          Explain
        </Button>
        <Button variant="ghost" aria-expanded={picking} onClick={() => setPicking((p) => !p)}>
          {picking ? "Close the picker" : "Pick from the store's memories"}
        </Button>
      </form>
      {picking ? (
        <MemoryPicker
          store={view.store}
          onPick={(id) => {
            setPicking(false);
            ask(id);
          }}
        />
      ) : null}
      <div
        ref={answerRef}
        tabIndex={-1}
        role="group"
        className={styles.whyRegion}
        data-testid="why-explanation"
        aria-label="Explanation"
      >
        {asked ? (
          why.isPending ? (
            <p className={styles.hint} role="status">
              Looking up {asked}…
            </p>
          ) : why.error ? (
            <Notice tone="error" data-testid="why-error">
              {errorMessage(why.error)}
            </Notice>
          ) : why.data ? (
            <WhyAnswer answer={why.data} />
          ) : null
        ) : (
          <p className={styles.hint}>
            Ask about any memory of the store: one on the page, one the chart shows outside the pool, or one you expected and do
            not see.
          </p>
        )}
      </div>
    </section>
  );
}

function WhyAnswer({ answer }: { answer: WhyNotHereAnswer }) {
  // A score the merge did not use was computed now, for display only (the merge counted BM25 as 0).
  const bm25DisplayOnly = answer.keyword_score !== null && !answer.keyword_score_used_by_merge;
  const cosineDisplayOnly = answer.raw_cosine !== null && !answer.raw_cosine_used_by_merge;
  return (
    <div className={styles.whyAnswer} data-testid="why-answer" data-reason={answer.reason} role="status">
      <p className={styles.whyMessage}>
        <code className="mono">{answer.memory_id}</code>{" "}
        <span className={styles.reason}>{answer.reason.replaceAll("_", " ")}</span>
      </p>
      <p data-testid="why-message">{answer.message}</p>
      <dl className={styles.whyFigures}>
        <div>
          <dt>Raw cosine</dt>
          <dd data-testid="why-cosine">
            {answer.raw_cosine === null ? "not fetched" : formatScore(answer.raw_cosine)}
            {cosineDisplayOnly ? <span className={styles.figureNote}> computed for display; not used by the merge</span> : null}
          </dd>
        </div>
        <div>
          <dt>BM25</dt>
          <dd data-testid="why-bm25">
            {answer.keyword_score === null ? "not fetched" : formatBm25(answer.keyword_score)}
            {bm25DisplayOnly ? (
              <span className={styles.figureNote}> computed for display; not used by the merge (counted as 0)</span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>Rank, semantic arm</dt>
          <dd data-testid="why-rank-semantic">{rankText(answer.ranks.semantic)}</dd>
        </div>
        <div>
          <dt>Rank, keyword arm</dt>
          <dd data-testid="why-rank-keyword">{rankText(answer.ranks.keyword)}</dd>
        </div>
        <div>
          <dt>Rank, merged</dt>
          <dd data-testid="why-rank-merged">{rankText(answer.ranks.merged)}</dd>
        </div>
      </dl>
    </div>
  );
}

/** A search over the store's memories (summary or id), to pick one without copying its id. */
function MemoryPicker({ store, onPick }: { store: string; onPick: (id: string) => void }) {
  const [q, setQ] = useState("");
  const inputId = useId();
  return (
    <div className={styles.picker} data-testid="why-picker">
      <label htmlFor={inputId}>Search the memories of {store}</label>
      <TextInput
        id={inputId}
        type="search"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        placeholder="words of its summary"
        autoFocus
      />
      {q.trim().length >= 2 ? <PickerResults store={store} q={q.trim()} onPick={onPick} /> : null}
    </div>
  );
}

function PickerResults({ store, q, onPick }: { store: string; q: string; onPick: (id: string) => void }) {
  const list = useMemoryList({ store: storeParam(store), q, type: "", tag: "" });
  if (list.isPending) return <p className={styles.hint}>Searching…</p>;
  if (list.error) return <Notice tone="error">{errorMessage(list.error)}</Notice>;
  const items = (list.data?.pages ?? []).flatMap((p) => p.items).slice(0, PICK_LIMIT);
  if (items.length === 0)
    return (
      <p className={styles.hint}>
        No memory of {store} matches “{q}”.
      </p>
    );
  return (
    <ul className={styles.pickList}>
      {items.map((m) => (
        <li key={m.id}>
          <Button onClick={() => onPick(m.id)} data-testid="why-pick">
            <code className="mono">{m.id}</code> <span>{m.summary}</span>
          </Button>
        </li>
      ))}
    </ul>
  );
}
