import type { StoreOption } from "@/lib/queries/use-recall";
import { storeOptionLabel } from "./store-label";

/**
 * The `<option>`s of a store picker (the console's, the Memories page's, Evaluate's): each store
 * named with what it holds ("demo · 345 memories", "a · empty") or as remote with its
 * reachability (components/filters/store-label.ts), and its description (with why it is
 * unreachable) as the title.
 */
export function StoreOptions({ stores }: { stores: readonly StoreOption[] }) {
  return stores.map((s) => (
    <option
      key={s.name}
      value={s.name}
      title={s.health.ok ? s.description : `${s.description} Not reachable: ${s.health.message ?? "unknown error"}`}
    >
      {storeOptionLabel(s)}
    </option>
  ));
}
