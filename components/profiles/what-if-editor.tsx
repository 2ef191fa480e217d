"use client";

import { Button } from "@/components/ui/button";
import { controlClassName, Field, fieldDescribedBy } from "@/components/ui/field";
import { NamedLabel } from "@/components/ui/named-label";
import type { Profile } from "@/lib/calibration/profile";
import { parseConstant, parsePoolSize, poolSizeText, type WhatIfParams } from "@/lib/calibration/what-if-params";
import { THRESHOLD_KEYS, type ThresholdKey } from "@/lib/recall/thresholds";
import { CONSTANT_WORDS } from "./constant-words";
import styles from "./profiles.module.css";

export type Drafts = Partial<Record<ThresholdKey | "pool_size", string>>;

/**
 * The profile's constants and pool size as fields, edited in place over the chosen profile
 * (unsaved). A field shows what was typed; a value that parses goes into the URL at once, one
 * that does not stays in its field with the reason. `errors` are the band-order and range
 * problems of the edited set, by constant.
 */
export function ConstantsEditor({
  params,
  base,
  drafts,
  errors,
  onDraft,
  onReset,
}: {
  params: WhatIfParams;
  base: Profile | null;
  drafts: Drafts;
  errors: Partial<Record<ThresholdKey | "pool_size", string>>;
  onDraft: (key: ThresholdKey | "pool_size", text: string) => void;
  onReset: () => void;
}) {
  const edited = Object.keys(params.edits).length > 0 || params.pool_size !== undefined;
  const poolText = drafts.pool_size ?? poolSizeText(params.pool_size);
  const poolProblem = drafts.pool_size !== undefined && !parsePoolSize(drafts.pool_size).ok;
  const poolError = poolProblem
    ? `Pool size: ${(parsePoolSize(drafts.pool_size!) as { message: string }).message}.`
    : errors.pool_size;
  const poolHint = `${CONSTANT_WORDS.pool_size.hint}: empty = ${base ? (base.pool_size === null ? "the profile’s: the page (k)" : `the profile’s: first ${base.pool_size}`) : "the profile’s"}; k = the page; N = the first N merged candidates`;
  return (
    <fieldset className={styles.editor} aria-describedby="editor-note">
      <legend>Constants {edited ? <span className={styles.edited}>(edited, not saved)</span> : null}</legend>
      <p id="editor-note" className={styles.muted}>
        Edit any value: the what-if reruns with it at once, without saving a profile, and the link keeps the edits.
      </p>
      <div className={styles.form}>
        <Field
          id="edit-pool_size"
          label={<NamedLabel name="pool_size">{CONSTANT_WORDS.pool_size.label}</NamedLabel>}
          hint={poolHint}
          error={poolError}
        >
          <input
            id="edit-pool_size"
            className={controlClassName}
            value={poolText}
            inputMode="numeric"
            placeholder={base ? poolSizeText(base.pool_size) : ""}
            aria-invalid={poolError ? true : undefined}
            aria-describedby={fieldDescribedBy("edit-pool_size", { hint: poolHint, error: poolError })}
            data-edited={params.pool_size !== undefined || undefined}
            onChange={(e) => onDraft("pool_size", e.target.value)}
          />
        </Field>
        {THRESHOLD_KEYS.map((key) => {
          const id = `edit-${key}`;
          const shown = drafts[key] ?? String(params.edits[key] ?? base?.thresholds[key] ?? "");
          const typedBad = drafts[key] !== undefined && drafts[key]!.trim() !== "" && parseConstant(drafts[key]!) === null;
          const words = CONSTANT_WORDS[key];
          const error = typedBad ? `${words.label}: not a number.` : errors[key];
          const hint = base ? `${words.hint}; ${base.name}: ${base.thresholds[key]}` : words.hint;
          const isEdited = params.edits[key] !== undefined && (!base || params.edits[key] !== base.thresholds[key]);
          return (
            <Field key={key} id={id} label={<NamedLabel name={key}>{words.label}</NamedLabel>} hint={hint} error={error}>
              <input
                id={id}
                className={controlClassName}
                value={shown}
                inputMode="decimal"
                placeholder={base ? String(base.thresholds[key]) : undefined}
                aria-invalid={error ? true : undefined}
                aria-describedby={fieldDescribedBy(id, { hint, error })}
                data-edited={isEdited || undefined}
                onChange={(e) => onDraft(key, e.target.value)}
              />
            </Field>
          );
        })}
      </div>
      <div className={styles.row}>
        <Button size="small" onClick={onReset} disabled={!edited && Object.keys(drafts).length === 0}>
          Reset to {params.profile}
        </Button>
      </div>
    </fieldset>
  );
}
