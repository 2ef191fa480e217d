"use client";

import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { fetchSession, postSignOut } from "@/lib/queries/use-auth";
import styles from "./auth.module.css";

/**
 * "Sign out", shown only when sign-in is on and this browser is signed in. The header sits
 * outside the query client, so it asks /api/auth/session once itself.
 */
export function SignOutButton() {
  const [signedIn, setSignedIn] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    fetchSession()
      .then((state) => live && setSignedIn(state.auth_enabled && state.signed_in))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, []);

  if (!signedIn) return null;
  const onClick = async () => {
    setBusy(true);
    try {
      await postSignOut();
    } finally {
      // A full load, so no page keeps showing data after the session ended.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full load on purpose: it drops every cached query of the ended session
      window.location.assign("/signin");
    }
  };
  return (
    <Button size="small" className={styles.signOut} onClick={onClick} disabled={busy}>
      {busy ? "Signing out…" : "Sign out"}
    </Button>
  );
}
