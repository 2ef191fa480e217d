"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { errorMessage } from "@/lib/queries/fetch-json";
import { postSignOutEverywhere, useLiveSessions } from "@/lib/queries/use-auth";

/**
 * Signed-in browsers and "Sign out everywhere" (lib/auth/README.md "Security"): every session
 * ends at once, this one included, e.g. after a laptop is lost or the password was shared too
 * widely. Shown only when sign-in is on and this browser is signed in.
 */
export function SessionsPanel() {
  const live = useLiveSessions();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onConfirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await postSignOutEverywhere();
      // A full load, so no page keeps showing data after the sessions ended.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full load on purpose: it drops every cached query of the ended session
      window.location.assign("/signin");
    } catch (caught) {
      setError(`Could not sign out everywhere: ${errorMessage(caught)}`);
      setBusy(false);
    }
  };

  const count = live.data?.live;
  return (
    <div>
      <p>
        Sessions last 7 days from sign-in and end after 24 hours without use; signing out ends one at once.
        {count !== undefined ? (
          <>
            {" "}
            Signed in now: <strong data-testid="live-sessions">{count}</strong> {count === 1 ? "browser" : "browsers"}.
          </>
        ) : null}
      </p>
      {error ? <Notice tone="error">{error}</Notice> : null}
      {confirming ? (
        <span>
          <Button size="small" variant="danger" onClick={onConfirm} disabled={busy}>
            {busy ? "Signing out…" : "Yes, sign out every browser"}
          </Button>{" "}
          <Button size="small" onClick={() => setConfirming(false)} disabled={busy}>
            Cancel
          </Button>
        </span>
      ) : (
        <Button size="small" onClick={() => setConfirming(true)}>
          Sign out everywhere
        </Button>
      )}
    </div>
  );
}
