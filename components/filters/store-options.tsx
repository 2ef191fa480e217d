import type { StoreOption } from "@/lib/queries/use-recall";

/**
 * The `<option>`s of a store picker (the console's, the Memories page's): each store's label,
 * "(remote)" or "(remote, unreachable)", and its description (with why it is unreachable) as the
 * title.
 */
export function StoreOptions({ stores }: { stores: readonly StoreOption[] }) {
  return stores.map((s) => (
    <option
      key={s.name}
      value={s.name}
      title={s.health.ok ? s.description : `${s.description} Not reachable: ${s.health.message ?? "unknown error"}`}
    >
      {s.label}
      {s.kind === "remote" ? (s.health.ok ? " (remote)" : " (remote, unreachable)") : ""}
    </option>
  ));
}
