import type { Metadata } from "next";
import { Suspense } from "react";
import { SignInForm } from "@/components/auth/sign-in-form";
import styles from "@/components/auth/auth.module.css";
import { LoadingState } from "@/components/ui/states";

export const metadata: Metadata = { title: "Sign in" };

export default function SignInPage() {
  return (
    <section className={`panel ${styles.signIn}`} aria-labelledby="signin-title">
      <h1 id="signin-title">Sign in</h1>
      <p className={styles.lead}>This dashboard is shared: enter the team&apos;s password (the server&apos;s AUTH_PASSWORD).</p>
      {/* The form reads ?next= (useSearchParams), which needs a Suspense boundary. */}
      <Suspense fallback={<LoadingState />}>
        <SignInForm />
      </Suspense>
    </section>
  );
}
