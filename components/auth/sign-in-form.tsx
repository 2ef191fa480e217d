"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { useId, useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { controlClassName, Field, fieldDescribedBy } from "@/components/ui/field";
import { safeNextPath } from "@/lib/auth/access";
import { SignInBodySchema } from "@/lib/auth/schemas";
import { ApiRequestError, errorMessage } from "@/lib/queries/fetch-json";
import { postSignIn } from "@/lib/queries/use-auth";
import { parseForm } from "@/lib/validation/form-messages";
import styles from "./auth.module.css";

/** The password form; on success it goes where the visitor was sent from (`?next=`, this site only). */
export function SignInForm() {
  const id = useId();
  const router = useRouter();
  const next = safeNextPath(useSearchParams().get("next"));
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = parseForm(SignInBodySchema, { password }, { password: "Password" });
    if (!parsed.success) {
      setError(parsed.messages[0] ?? "Enter the password.");
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await postSignIn(parsed.data.password);
      router.replace(next);
      router.refresh();
    } catch (caught) {
      setBusy(false);
      setError(
        caught instanceof ApiRequestError && caught.code === "wrong_password"
          ? "That password is not right."
          : errorMessage(caught),
      );
      setPassword("");
      input.current?.focus();
    }
  };

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate>
      <Field id={`${id}-password`} label="Password" error={error}>
        <input
          ref={input}
          id={`${id}-password`}
          className={controlClassName}
          type="password"
          name="password"
          autoComplete="current-password"
          autoFocus
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={fieldDescribedBy(`${id}-password`, { error })}
        />
      </Field>
      <div>
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </Button>
      </div>
    </form>
  );
}
