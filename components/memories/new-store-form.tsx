"use client";

import { useId, useState, type FormEvent, type RefObject } from "react";
import { Button } from "@/components/ui/button";
import { Field, fieldDescribedBy, TextInput } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { ApiRequestError, errorMessage } from "@/lib/queries/fetch-json";
import { useCreateStore } from "@/lib/queries/use-stores";
import { CreateStoreBodySchema, STORE_DESCRIPTION_MAX, STORE_NAME_MAX } from "@/lib/stores/store-schemas";
import { parseForm } from "@/lib/validation/form-messages";
import { FormHead } from "./form-head";
import styles from "./memories.module.css";

const LABELS = { name: "Name", description: "Description" } as const;

interface Errors {
  name?: string;
  description?: string;
  general?: string;
}

/**
 * "New store": a name and an optional description, checked with the API's own schema
 * (`CreateStoreBodySchema`) before it is sent; the server's refusal (409 the name is taken, 422 a
 * bad name) is shown under the name in the envelope's words. Created, the page switches to it.
 */
export function NewStoreForm({
  nameRef,
  onCreated,
  onClose,
}: {
  nameRef: RefObject<HTMLInputElement | null>;
  onCreated: (name: string) => void;
  onClose: () => void;
}) {
  const id = useId();
  const create = useCreateStore();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [errors, setErrors] = useState<Errors>({});

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = parseForm(CreateStoreBodySchema, { name, ...(description.trim() ? { description } : {}) }, LABELS);
    if (!parsed.success) {
      setErrors({
        name: parsed.fields.name?.join(" "),
        description: parsed.fields.description?.join(" "),
        general: parsed.general.length ? parsed.general.join(" ") : undefined,
      });
      nameRef.current?.focus();
      return;
    }
    setErrors({});
    try {
      const store = await create.mutateAsync(parsed.data);
      onCreated(store.name);
    } catch (error) {
      // A taken or refused name belongs under the name; anything else (the server unreachable) below.
      const aboutName =
        error instanceof ApiRequestError && (error.code === "store_exists" || error.status === 409 || error.status === 422);
      setErrors(aboutName ? { name: errorMessage(error) } : { general: `Could not create the store: ${errorMessage(error)}` });
      if (aboutName) nameRef.current?.focus();
    }
  };

  const nameId = `${id}-name`;
  const descriptionId = `${id}-description`;
  const nameHint = `Up to ${STORE_NAME_MAX} characters, no / or \\. It names the store in links, History and the API.`;
  const descriptionHint = "Optional: what the store holds, shown under the picker.";

  return (
    <form
      className={styles.storeForm}
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={`${id}-title`}
      onKeyDown={(e) => {
        if (e.key === "Escape" && !create.isPending) {
          e.preventDefault();
          onClose();
        }
      }}
    >
      <FormHead title="New store" titleId={`${id}-title`} onClose={onClose} />
      <Field id={nameId} label="Name" required hint={nameHint} error={errors.name}>
        <TextInput
          ref={nameRef}
          id={nameId}
          value={name}
          maxLength={STORE_NAME_MAX + 20}
          aria-required="true"
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={fieldDescribedBy(nameId, { hint: nameHint, error: errors.name })}
          onChange={(e) => {
            setName(e.target.value);
            if (errors.name) setErrors((x) => ({ ...x, name: undefined }));
          }}
        />
      </Field>
      <Field id={descriptionId} label="Description" hint={descriptionHint} error={errors.description}>
        <TextInput
          id={descriptionId}
          // Prose, unlike an id or a name: spelling is checked.
          spellCheck
          value={description}
          maxLength={STORE_DESCRIPTION_MAX + 20}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={fieldDescribedBy(descriptionId, { hint: descriptionHint, error: errors.description })}
          onChange={(e) => setDescription(e.target.value)}
        />
      </Field>
      {errors.general ? <Notice tone="error">{errors.general}</Notice> : null}
      <div className={styles.formActions}>
        <Button type="submit" variant="primary" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create store"}
        </Button>
        <p className={styles.hint}>The store starts empty: import a file or add memories into it next.</p>
      </div>
    </form>
  );
}
