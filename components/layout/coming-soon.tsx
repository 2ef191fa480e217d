import type { ReactNode } from "react";

/** Marks a section whose feature has not landed yet, saying what will be there. */
export function ComingSoon({ children }: { children: ReactNode }) {
  return (
    <section className="panel coming-soon" aria-label="Not built yet">
      <p className="eyebrow">Not built yet</p>
      {children}
    </section>
  );
}
