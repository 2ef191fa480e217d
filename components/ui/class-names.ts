/** Joins the truthy class names: the one helper the primitives use to take a caller's `className`. */
export function classNames(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(" ");
}
