"use client";

/**
 * Saved views of a filtered page (History, Insights): pick one to open it (its link is the page
 * with its filters), save the filters in effect under a name, delete the one open. The views live
 * in the database (`/api/views`); a view's own link is `/views/{id}`.
 */
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useState, type FormEvent } from "react";
import { Button, buttonClassName } from "@/components/ui/button";
import { errorMessage } from "@/lib/queries/fetch-json";
import { useDeleteView, useSavedViews, useSaveView } from "@/lib/queries/use-saved-views";
import { SAVED_VIEW_NAME_MAX, type SavedView, type SavedViewPage } from "@/lib/saved-views/schema";
import styles from "./filters.module.css";

/** Query strings compared as sets of pairs (the order parameters were written in does not matter). */
export function sameParams(a: string, b: string): boolean {
  const norm = (text: string) => [...new URLSearchParams(text).entries()].map(([k, v]) => `${k}=${v}`).sort();
  const x = norm(a);
  const y = norm(b);
  return x.length === y.length && x.every((pair, i) => pair === y[i]);
}

/** The view whose filters are the ones in effect, if any. */
export function activeView(views: readonly SavedView[], params: string): SavedView | null {
  return views.find((v) => sameParams(v.params, params)) ?? null;
}

export function SavedViews({ page, params }: { page: SavedViewPage; params: string }) {
  const ids = useId();
  const router = useRouter();
  const views = useSavedViews(page);
  const save = useSaveView(page);
  const remove = useDeleteView(page);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState("");
  const list = views.data ?? [];
  const active = activeView(list, params);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    save.mutate(
      { name: name.trim(), params },
      {
        onSuccess: () => {
          setNaming(false);
          setName("");
        },
      },
    );
  };

  return (
    <div className={styles.group} data-testid="saved-views">
      <div className={styles.field}>
        <label htmlFor={`${ids}-views`}>Saved views</label>
        <select
          id={`${ids}-views`}
          value={active?.id ?? ""}
          disabled={views.isPending || list.length === 0}
          onChange={(e) => {
            const view = list.find((v) => v.id === e.target.value);
            if (view) router.push(view.href);
          }}
        >
          <option value="">{views.isPending ? "Loading…" : list.length === 0 ? "None saved yet" : "Choose a view…"}</option>
          {list.map((view) => (
            <option key={view.id} value={view.id}>
              {view.name}
            </option>
          ))}
        </select>
      </div>
      {active ? (
        <>
          <Link className={buttonClassName()} href={`/views/${active.id}`} title="This view's own link, to share">
            Link
          </Link>
          <Button
            onClick={() => remove.mutate(active.id)}
            disabled={remove.isPending}
            aria-label={`Delete the saved view ${active.name}`}
          >
            Delete view
          </Button>
        </>
      ) : null}
      {naming ? (
        <form className={styles.group} onSubmit={submit} aria-label="Save these filters as a view">
          <div className={styles.field}>
            <label htmlFor={`${ids}-name`}>View name</label>
            <input
              id={`${ids}-name`}
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={SAVED_VIEW_NAME_MAX}
              autoFocus
              required
            />
          </div>
          <Button type="submit" disabled={!name.trim() || save.isPending}>
            {save.isPending ? "Saving…" : "Save"}
          </Button>
          <Button onClick={() => setNaming(false)}>Cancel</Button>
        </form>
      ) : (
        <Button onClick={() => setNaming(true)}>Save view…</Button>
      )}
      {save.isError || remove.isError || views.isError ? (
        <p className={styles.fieldError} role="alert">
          {errorMessage(save.error ?? remove.error ?? views.error)}
        </p>
      ) : null}
    </div>
  );
}
