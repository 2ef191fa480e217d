/**
 * The four confidence levels, their order, and what each tells an agent to do
 * (docs/reference-rules.md, its opening).
 */
export type Level = "high" | "moderate" | "low" | "none";

/** Levels from weakest to strongest. */
export const LEVELS: readonly Level[] = ["none", "low", "moderate", "high"];

/** 0 (none) … 3 (high), for comparisons. */
export function levelRank(level: Level): number {
  return LEVELS.indexOf(level);
}

export type TriageVerdict = "worth_reading" | "go_external";

export interface TriageAdvice {
  verdict: TriageVerdict;
  text: string;
}

const WORTH_READING: TriageAdvice = Object.freeze({ verdict: "worth_reading", text: "worth reading" });
const GO_EXTERNAL: TriageAdvice = Object.freeze({
  verdict: "go_external",
  text: "likely nothing relevant, go external",
});

/** Whether a level says "worth reading" (high, moderate); any other level, or none, says "go external". */
export function isWorthReading(level: string | null): boolean {
  return level === "high" || level === "moderate";
}

/** docs/reference-rules.md (its opening): high/moderate → "worth reading"; low/none → "likely nothing relevant, go external". */
export function triageAdvice(level: Level): TriageAdvice {
  return isWorthReading(level) ? WORTH_READING : GO_EXTERNAL;
}
