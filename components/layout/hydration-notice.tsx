"use client";

import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * Says so when the page's scripts never ran: the server renders this notice, hydration removes
 * it, and CSS keeps it invisible for its first seconds so a normal load never shows it. A page
 * that stays unhydrated looks whole but ignores Enter and every button — typically a dev server
 * opened at a host it does not serve its scripts to (next.config.js `allowedDevOrigins`), a
 * blocked script, or JavaScript turned off.
 */
export function HydrationNotice() {
  // false on the server and while hydrating, true once React runs in the browser.
  const hydrated = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  if (hydrated) return null;
  return (
    <div className="hydration-notice" role="alert" data-testid="hydration-notice">
      <strong>This page has not started.</strong> Its scripts did not load or run, so buttons and Enter do nothing. Reload it; if
      this is a development server, open it at the address it printed (<code>http://127.0.0.1:3000</code> or{" "}
      <code>http://localhost:3000</code>; its log says “Blocked cross-origin request” when this is why), and check that JavaScript
      is on and nothing blocks the page&apos;s scripts.
    </div>
  );
}
