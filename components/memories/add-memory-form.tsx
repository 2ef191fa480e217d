"use client";

import { useId, useRef, useState, type FormEvent, type RefObject } from "react";
import { Button } from "@/components/ui/button";
import { controlClassName, Field as FormField, fieldDescribedBy } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { errorMessage } from "@/lib/queries/fetch-json";
import { useAddMemory } from "@/lib/queries/use-memories";
import { MEMORY_LIMITS, MemoryInputSchema, type MemoryInput } from "@/lib/stores/memory-schemas";
import { parseForm } from "@/lib/validation/form-messages";
import { FormHead } from "./form-head";
import styles from "./memories.module.css";

const FIELDS = ["summary", "content", "type", "tags", "importance"] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;
type FieldErrors = Partial<Record<Field, string[]>>;

const EMPTY: Values = { summary: "", content: "", type: "", tags: "", importance: "" };

function isField(key: unknown): key is Field {
  return typeof key === "string" && (FIELDS as readonly string[]).includes(key);
}

function sentence(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1);
}

/** The form's strings as the API's item: blank optional fields are left out (the server fills defaults). */
function toInput(values: Values): Record<string, unknown> {
  const input: Record<string, unknown> = { summary: values.summary };
  if (values.content.trim()) input.content = values.content;
  if (values.type.trim()) input.type = values.type;
  const tags = values.tags
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "");
  if (tags.length > 0) input.tags = tags;
  if (values.importance.trim()) input.importance = Number(values.importance.trim());
  return input;
}

/** How the form's messages name its fields. */
const LABELS = { summary: "Summary", content: "Content", type: "Type", tags: "Tag", importance: "Importance" } as const;

/** Sorts the server's issues ({path, message}) by the field they belong to; the rest are general. */
function sortIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): {
  fields: FieldErrors;
  general: string[];
} {
  const fields: FieldErrors = {};
  const general: string[] = [];
  for (const issue of issues) {
    const key = issue.path[0];
    if (isField(key)) {
      let message = sentence(issue.message);
      if (key === "importance") message = "Importance must be a number from 0 to 1";
      if (key === "tags" && typeof issue.path[1] === "number") message = `Tag ${issue.path[1] + 1}: ${issue.message}`;
      const list = (fields[key] ??= []);
      if (!list.includes(message)) list.push(message);
    } else {
      general.push(issue.path.length ? `${issue.path.map(String).join(".")}: ${issue.message}` : sentence(issue.message));
    }
  }
  return { fields, general };
}

export function AddMemoryForm({
  store,
  knownTypes,
  summaryRef,
  onClose,
}: {
  /** The store it saves into, the one chosen in the switcher ("" for the default store). */
  store: string;
  knownTypes: readonly string[];
  summaryRef: RefObject<HTMLTextAreaElement | null>;
  onClose: () => void;
}) {
  const id = useId();
  const add = useAddMemory(store);
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [general, setGeneral] = useState<string[]>([]);
  const [added, setAdded] = useState<{ id: string; summary: string } | null>(null);
  const contentRef = useRef<HTMLTextAreaElement>(null);
  const typeRef = useRef<HTMLInputElement>(null);
  const tagsRef = useRef<HTMLInputElement>(null);
  const importanceRef = useRef<HTMLInputElement>(null);
  // Looked up only in event handlers (never during render), where reading a ref is allowed.
  const focusField = (field: Field) =>
    ({ summary: summaryRef, content: contentRef, type: typeRef, tags: tagsRef, importance: importanceRef })[
      field
    ].current?.focus();

  const set = (field: Field) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((v) => ({ ...v, [field]: value }));
    // A field the person is fixing stops shouting; the rest stay until the next submit.
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const showErrors = (fields: FieldErrors, generalErrors: string[]) => {
    setErrors(fields);
    setGeneral(generalErrors);
    const first = FIELDS.find((f) => fields[f]?.length);
    if (first) focusField(first);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setAdded(null);
    const input = toInput(values);
    // The same schema the API validates with, so the form refuses exactly what the server would;
    // its problems in words (lib/validation/form-messages.ts).
    const parsed = parseForm(MemoryInputSchema, input, LABELS);
    if (!parsed.success) {
      const fields: FieldErrors = {};
      for (const [key, messages] of Object.entries(parsed.fields)) if (isField(key)) fields[key] = messages;
      const other = Object.entries(parsed.fields)
        .filter(([key]) => !isField(key))
        .flatMap(([, messages]) => messages);
      showErrors(fields, [...other, ...parsed.general]);
      return;
    }
    setErrors({});
    setGeneral([]);
    try {
      const result = await add.mutateAsync(input as MemoryInput);
      if (result.status === "created") {
        setAdded({ id: result.id, summary: parsed.data.summary });
        setValues(EMPTY);
        summaryRef.current?.focus();
      } else {
        const sorted = sortIssues(result.errors);
        showErrors(
          sorted.fields,
          sorted.general.length || Object.keys(sorted.fields).length ? sorted.general : ["The server refused the memory."],
        );
      }
    } catch (error) {
      setGeneral([`Could not add the memory: ${errorMessage(error)}`]);
    }
  };

  const fieldId = (field: Field) => `${id}-${field}`;
  const errorText = (field: Field) => (errors[field]?.length ? errors[field]!.join(". ") : undefined);
  const hints: Record<Field, string> = {
    summary: `What recall matches and embeds; up to ${MEMORY_LIMITS.summaryChars.toLocaleString("en-US")} characters.`,
    content: "Optional details; keyword search reads them too.",
    type: "Blank means “note”.",
    tags: "Comma-separated, e.g. “billing, oncall”.",
    importance: "0 to 1; blank means 0.5.",
  };
  /** The props every control shares: its id, value, change handler and the error wiring. */
  const control = (field: Field) => ({
    id: fieldId(field),
    className: controlClassName,
    value: values[field],
    onChange: set(field),
    "aria-invalid": errors[field]?.length ? true : undefined,
    "aria-describedby": fieldDescribedBy(fieldId(field), { hint: hints[field], error: errorText(field) }),
  });

  return (
    <form className={styles.memoryForm} onSubmit={onSubmit} noValidate aria-labelledby={`${id}-title`}>
      <FormHead title="Add a memory" titleId={`${id}-title`} onClose={onClose} />
      {store ? (
        <p className={`${styles.hint} ${styles.wide}`} data-testid="add-memory-store">
          Saved into store {store}.
        </p>
      ) : null}

      <FormField
        id={fieldId("summary")}
        label="Summary"
        required
        hint={hints.summary}
        error={errorText("summary")}
        className={styles.wide}
      >
        <textarea ref={summaryRef} rows={2} aria-required="true" {...control("summary")} />
      </FormField>

      <FormField
        id={fieldId("content")}
        label="Content"
        hint={hints.content}
        error={errorText("content")}
        className={styles.wide}
      >
        <textarea ref={contentRef} rows={3} {...control("content")} />
      </FormField>

      <FormField id={fieldId("type")} label="Type" hint={hints.type} error={errorText("type")}>
        <input ref={typeRef} type="text" list={`${id}-types`} placeholder="note" autoComplete="off" {...control("type")} />
      </FormField>
      <datalist id={`${id}-types`}>
        {knownTypes.map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>

      <FormField id={fieldId("tags")} label="Tags" hint={hints.tags} error={errorText("tags")}>
        <input ref={tagsRef} type="text" autoComplete="off" {...control("tags")} />
      </FormField>

      <FormField id={fieldId("importance")} label="Importance" hint={hints.importance} error={errorText("importance")}>
        <input
          ref={importanceRef}
          type="text"
          inputMode="decimal"
          placeholder="0.50"
          autoComplete="off"
          {...control("importance")}
        />
      </FormField>

      {general.length > 0 ? (
        <Notice tone="error" className={styles.wide}>
          {general.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </Notice>
      ) : null}

      <div className={`${styles.formActions} ${styles.wide}`}>
        <Button type="submit" variant="primary" disabled={add.isPending}>
          {add.isPending ? "Saving…" : "Save memory"}
        </Button>
        <p className={styles.formStatus} role="status">
          {added ? (
            <>
              Added “{added.summary.length > 80 ? `${added.summary.slice(0, 79)}…` : added.summary}” as <code>{added.id}</code>
              {store ? ` to store ${store}` : ""}.
            </>
          ) : null}
        </p>
      </div>
    </form>
  );
}
