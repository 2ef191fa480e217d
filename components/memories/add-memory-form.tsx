"use client";

import { useId, useRef, useState, type FormEvent, type RefObject } from "react";
import { errorMessage } from "@/lib/queries/fetch-json";
import { useAddMemory } from "@/lib/queries/use-memories";
import { MEMORY_LIMITS, MemoryInputSchema, type MemoryInput } from "@/lib/stores/memory-schemas";
import { parseForm } from "@/lib/validation/form-messages";

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
  knownTypes,
  summaryRef,
  onClose,
}: {
  knownTypes: readonly string[];
  summaryRef: RefObject<HTMLTextAreaElement | null>;
  onClose: () => void;
}) {
  const id = useId();
  const add = useAddMemory();
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [general, setGeneral] = useState<string[]>([]);
  const [added, setAdded] = useState<{ id: string; summary: string } | null>(null);
  const refs = {
    summary: summaryRef,
    content: useRef<HTMLTextAreaElement>(null),
    type: useRef<HTMLInputElement>(null),
    tags: useRef<HTMLInputElement>(null),
    importance: useRef<HTMLInputElement>(null),
  };

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
    if (first) refs[first].current?.focus();
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
        refs.summary.current?.focus();
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

  const describedBy = (field: Field, hint?: boolean) =>
    [hint ? `${id}-${field}-hint` : null, errors[field]?.length ? `${id}-${field}-error` : null].filter(Boolean).join(" ") ||
    undefined;

  const fieldError = (field: Field) =>
    errors[field]?.length ? (
      <p className="field-error" id={`${id}-${field}-error`}>
        {errors[field]!.join(". ")}
      </p>
    ) : null;

  return (
    <form className="memory-form" onSubmit={onSubmit} noValidate aria-labelledby={`${id}-title`}>
      <div className="memories-panel-head">
        <h2 id={`${id}-title`} className="memories-panel-title">
          Add a memory
        </h2>
        <button type="button" className="button button-ghost" onClick={onClose}>
          Close
        </button>
      </div>

      <div className="field field-wide">
        <label htmlFor={`${id}-summary`}>
          Summary <span className="field-required">(required)</span>
        </label>
        <textarea
          id={`${id}-summary`}
          ref={refs.summary}
          rows={2}
          value={values.summary}
          onChange={set("summary")}
          aria-required="true"
          aria-invalid={errors.summary?.length ? true : undefined}
          aria-describedby={describedBy("summary", true)}
        />
        <p className="field-hint" id={`${id}-summary-hint`}>
          What recall matches and embeds; up to {MEMORY_LIMITS.summaryChars.toLocaleString("en-US")} characters.
        </p>
        {fieldError("summary")}
      </div>

      <div className="field field-wide">
        <label htmlFor={`${id}-content`}>Content</label>
        <textarea
          id={`${id}-content`}
          // eslint-disable-next-line react-hooks/refs -- reads the latest value through a ref on purpose (stable callbacks, form ids); not a render dependency
          ref={refs.content}
          rows={3}
          value={values.content}
          onChange={set("content")}
          aria-invalid={errors.content?.length ? true : undefined}
          aria-describedby={describedBy("content", true)}
        />
        <p className="field-hint" id={`${id}-content-hint`}>
          Optional details; keyword search reads them too.
        </p>
        {fieldError("content")}
      </div>

      <div className="field">
        <label htmlFor={`${id}-type`}>Type</label>
        <input
          id={`${id}-type`}
          // eslint-disable-next-line react-hooks/refs -- reads the latest value through a ref on purpose (stable callbacks, form ids); not a render dependency
          ref={refs.type}
          type="text"
          list={`${id}-types`}
          placeholder="note"
          value={values.type}
          onChange={set("type")}
          aria-invalid={errors.type?.length ? true : undefined}
          aria-describedby={describedBy("type", true)}
          autoComplete="off"
        />
        <datalist id={`${id}-types`}>
          {knownTypes.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
        <p className="field-hint" id={`${id}-type-hint`}>
          Blank means “note”.
        </p>
        {fieldError("type")}
      </div>

      <div className="field">
        <label htmlFor={`${id}-tags`}>Tags</label>
        <input
          id={`${id}-tags`}
          // eslint-disable-next-line react-hooks/refs -- reads the latest value through a ref on purpose (stable callbacks, form ids); not a render dependency
          ref={refs.tags}
          type="text"
          value={values.tags}
          onChange={set("tags")}
          aria-invalid={errors.tags?.length ? true : undefined}
          aria-describedby={describedBy("tags", true)}
          autoComplete="off"
        />
        <p className="field-hint" id={`${id}-tags-hint`}>
          Comma-separated, e.g. “billing, oncall”.
        </p>
        {fieldError("tags")}
      </div>

      <div className="field">
        <label htmlFor={`${id}-importance`}>Importance</label>
        <input
          id={`${id}-importance`}
          // eslint-disable-next-line react-hooks/refs -- reads the latest value through a ref on purpose (stable callbacks, form ids); not a render dependency
          ref={refs.importance}
          type="text"
          inputMode="decimal"
          placeholder="0.50"
          value={values.importance}
          onChange={set("importance")}
          aria-invalid={errors.importance?.length ? true : undefined}
          aria-describedby={describedBy("importance", true)}
          autoComplete="off"
        />
        <p className="field-hint" id={`${id}-importance-hint`}>
          0 to 1; blank means 0.5.
        </p>
        {fieldError("importance")}
      </div>

      {general.length > 0 ? (
        <div className="form-alert" role="alert">
          {general.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      ) : null}

      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={add.isPending}>
          {add.isPending ? "Saving…" : "Save memory"}
        </button>
        <p className="form-status" role="status">
          {added ? (
            <>
              Added “{added.summary.length > 80 ? `${added.summary.slice(0, 79)}…` : added.summary}” as <code>{added.id}</code>.
            </>
          ) : null}
        </p>
      </div>
    </form>
  );
}
