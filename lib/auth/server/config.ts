import { scryptSync } from "node:crypto";
// The variables read: a plain record, so tests can pass just the ones they set.
import type { Env } from "@/lib/env-values";

/**
 * Sign-in settings from the environment (lib/auth/README.md "Security"):
 *   AUTH_PASSWORD  the team's password; set, it turns sign-in and API keys on
 *   AUTH_SECRET    optional, 32+ characters: seals the session cookie; unset, derived from AUTH_PASSWORD
 *   AUTH_DISABLED  "true": no sign-in even where it would be required (a warning on every start)
 * Read on each call, not cached, so the proxy and the route handlers (separate bundles of one
 * process) always agree, and tests can change them.
 */
export interface AuthConfig {
  /** Sign-in is required for pages and the API. */
  enabled: boolean;
  /** AUTH_DISABLED=true was said explicitly. */
  disabled: boolean;
  password: string | null;
  /** The iron-session password (32+ characters). Empty when sign-in is off. */
  sessionSecret: string;
}

export const MIN_PASSWORD_LENGTH = 12;
export const MIN_SECRET_LENGTH = 32;

export class AuthConfigError extends Error {
  override readonly name = "AuthConfigError";
}

const derived = new Map<string, string>();

/**
 * A fixed-salt scrypt of the password: stable across restarts and instances (sessions survive
 * both), changes with the password (changing it signs everyone out), and slow to brute-force from
 * a stolen cookie. AUTH_SECRET replaces it when the password should rotate without that.
 */
function deriveSecret(password: string): string {
  let secret = derived.get(password);
  if (!secret) {
    secret = scryptSync(password, "recall-inspector session cookie v1", 32).toString("hex");
    derived.clear();
    derived.set(password, secret);
  }
  return secret;
}

export function authConfig(env: Env = process.env): AuthConfig {
  const disabled = (env.AUTH_DISABLED ?? "").trim().toLowerCase() === "true";
  const password = env.AUTH_PASSWORD ? env.AUTH_PASSWORD : null;
  if (disabled || !password) return { enabled: false, disabled, password: disabled ? null : password, sessionSecret: "" };
  const secret = env.AUTH_SECRET?.trim();
  return { enabled: true, disabled, password, sessionSecret: secret ? secret : deriveSecret(password) };
}

/** Problems with the settings themselves, named so startup can refuse with one line. */
export function authConfigProblem(env: Env = process.env): string | null {
  const disabled = (env.AUTH_DISABLED ?? "").trim().toLowerCase();
  if (disabled !== "" && disabled !== "true" && disabled !== "false") {
    return `AUTH_DISABLED must be "true" or "false", not "${env.AUTH_DISABLED}".`;
  }
  if (disabled === "true") return null;
  if (env.AUTH_PASSWORD !== undefined && env.AUTH_PASSWORD !== "" && env.AUTH_PASSWORD.length < MIN_PASSWORD_LENGTH) {
    return `AUTH_PASSWORD is too short: use at least ${MIN_PASSWORD_LENGTH} characters.`;
  }
  const secret = env.AUTH_SECRET?.trim();
  if (secret && secret.length < MIN_SECRET_LENGTH) {
    return `AUTH_SECRET is too short: use at least ${MIN_SECRET_LENGTH} random characters (e.g. openssl rand -hex 32), or unset it.`;
  }
  return null;
}
