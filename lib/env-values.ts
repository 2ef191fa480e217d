/**
 * Reading one setting from an env record: what lib/env.ts's checks and the area parsers that read
 * their own variables (the reranker, the LLM selector) share, so a value is read and refused the
 * same way everywhere (lib/server/README.md "Configuration"). Pure: the record is passed in.
 */
export type Env = Readonly<Record<string, string | undefined>>;

/** The variable's value, trimmed; undefined when unset or blank (blank counts as unset). */
export function envValue(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/** `value` as a whole number in min…max (digits only: no sign, no decimals), or undefined. */
export function wholeNumberIn(value: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : undefined;
}

/**
 * What is wrong with an http(s) URL, in words that follow the variable's name ("is not a valid
 * URL"), or undefined. With `keyVariable`, credentials in the URL are refused too: the URL shows
 * up in messages and details, and the key has its own variable.
 */
export function httpUrlProblem(value: string, keyVariable?: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "is not a valid URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `must be an http(s) URL, got "${url.protocol}"`;
  if (keyVariable !== undefined && (url.username || url.password)) {
    return `must not contain credentials; put the key in ${keyVariable}`;
  }
  return undefined;
}
