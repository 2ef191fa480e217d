import type { Metadata } from "next";
import Link from "next/link";
import styles from "@/components/auth/auth.module.css";
import { SignInForm } from "@/components/auth/sign-in-form";
import { buttonClassName } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { authConfig } from "@/lib/auth/server/config";

export const metadata: Metadata = { title: "Sign in" };
// Whether sign-in is on is this server's setting at run time, not the build's.
export const dynamic = "force-dynamic";

export default function SignInPage() {
  const signInOn = authConfig().enabled;
  return (
    <section className={`panel ${styles.signIn}`} aria-labelledby="signin-title">
      <h1 id="signin-title">Sign in</h1>
      {signInOn ? (
        <>
          <p className={styles.lead}>
            This dashboard is shared: enter the team&apos;s password (the server&apos;s AUTH_PASSWORD).
          </p>
          {/* The form reads ?next= (useSearchParams), which never suspends on this dynamic page. */}
          <SignInForm />
        </>
      ) : (
        <Notice tone="info" title="Sign-in is off on this server">
          <p>
            AUTH_PASSWORD is not set, so there is no password to enter: anyone who can reach this server may use it. Set
            AUTH_PASSWORD (see the README, Running it for a team) to require sign-in.
          </p>
          <p>
            <Link className={buttonClassName({ variant: "primary" })} href="/">
              Open the console
            </Link>
          </p>
        </Notice>
      )}
    </section>
  );
}
