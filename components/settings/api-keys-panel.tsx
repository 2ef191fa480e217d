"use client";

import { useId, useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { controlClassName, Field, fieldDescribedBy } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { DataTable } from "@/components/ui/table";
import { VisuallyHidden } from "@/components/ui/visually-hidden";
import { CreateApiKeyBodySchema } from "@/lib/auth/schemas";
import { API_KEY_SCOPES, SCOPE_DESCRIPTIONS, type ApiKeyScope } from "@/lib/auth/scopes";
import { errorMessage } from "@/lib/queries/fetch-json";
import { useApiKeys, useCreateApiKey, useRevokeApiKey, useSessionState, type ApiKeyView } from "@/lib/queries/use-auth";
import { parseForm } from "@/lib/validation/form-messages";
import { SessionsPanel } from "./sessions-panel";
import styles from "./settings.module.css";

function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : "never";
}

/** The Settings page: whether sign-in is on, and the API keys (create, list, revoke). */
export function ApiKeysPanel() {
  const session = useSessionState();
  return (
    <div className={styles.settings}>
      <section className="panel" aria-labelledby="signin-state">
        <h2 id="signin-state">Sign-in</h2>
        {session.isPending ? (
          <LoadingState>Checking…</LoadingState>
        ) : session.isError ? (
          <ErrorState title="Could not read the sign-in state." error={session.error} onRetry={() => void session.refetch()} />
        ) : session.data.auth_enabled ? (
          <>
            <p>
              Sign-in is <strong>on</strong>: pages need the team password, and API clients an API key sent as{" "}
              <code>Authorization: Bearer &lt;key&gt;</code>.
            </p>
            {session.data.signed_in ? <SessionsPanel /> : null}
          </>
        ) : (
          <Notice tone="warning">
            <p>
              Sign-in is <strong>off</strong> (AUTH_PASSWORD is not set): anyone who can reach this server may use it, and keys
              are not checked. Keys created now start counting once AUTH_PASSWORD is set.
            </p>
          </Notice>
        )}
      </section>
      <CreateKey />
      <KeyList />
    </div>
  );
}

function CreateKey() {
  const id = useId();
  const create = useCreateApiKey();
  const [name, setName] = useState("");
  const [scope, setScope] = useState<ApiKeyScope>("ingest");
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ key: string; item: ApiKeyView } | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setCreated(null);
    const parsed = parseForm(CreateApiKeyBodySchema, { name, scope }, { name: "Name", scope: "Scope" });
    if (!parsed.success) {
      setError(parsed.messages[0] ?? "Check the form.");
      nameRef.current?.focus();
      return;
    }
    setError(null);
    try {
      setCreated(await create.mutateAsync(parsed.data));
      setName("");
    } catch (caught) {
      setError(`Could not create the key: ${errorMessage(caught)}`);
    }
  };

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Create an API key</h2>
      <form className={styles.form} onSubmit={onSubmit} noValidate>
        <div className={styles.createRow}>
          <Field id={`${id}-name`} label="Name" error={error} className={styles.grow}>
            <input
              ref={nameRef}
              id={`${id}-name`}
              className={controlClassName}
              type="text"
              value={name}
              maxLength={80}
              placeholder="e.g. support-agent ingest"
              onChange={(event) => setName(event.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={fieldDescribedBy(`${id}-name`, { error })}
            />
          </Field>
          <Field id={`${id}-scope`} label="Scope" className={styles.grow}>
            <select
              id={`${id}-scope`}
              className={controlClassName}
              value={scope}
              onChange={(event) => setScope(event.target.value as ApiKeyScope)}
            >
              {API_KEY_SCOPES.map((s) => (
                <option key={s} value={s}>
                  {s}: {SCOPE_DESCRIPTIONS[s]}
                </option>
              ))}
            </select>
          </Field>
          <Button type="submit" variant="primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create key"}
          </Button>
        </div>
      </form>
      {created ? (
        <Notice tone="success" className={styles.newKey}>
          <p>
            Key <strong>{created.item.name}</strong> ({created.item.scope}) created. Copy it now: it is not stored and will not be
            shown again.
          </p>
          <code className={styles.keyValue} data-testid="new-api-key">
            {created.key}
          </code>
          <div>
            <CopyButton value={created.key} label="API key" />
          </div>
        </Notice>
      ) : null}
    </section>
  );
}

function KeyList() {
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();
  const [confirming, setConfirming] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const onRevoke = async (key: ApiKeyView) => {
    setError(null);
    try {
      await revoke.mutateAsync(key.id);
      setConfirming(null);
    } catch (caught) {
      setError(`Could not revoke ${key.name}: ${errorMessage(caught)}`);
    }
  };

  return (
    <section className="panel" aria-labelledby="api-keys-title">
      <h2 id="api-keys-title">API keys</h2>
      {error ? <Notice tone="error">{error}</Notice> : null}
      {keys.isPending ? (
        <LoadingState>Loading keys…</LoadingState>
      ) : keys.isError ? (
        <ErrorState title="Could not load the keys." error={keys.error} onRetry={() => void keys.refetch()} />
      ) : keys.data.items.length === 0 ? (
        <EmptyState title="No API keys yet.">
          <p>
            Agents that send their recalls here need an <code>ingest</code> key; scripts that only read, a <code>read</code> key.
            Also: <code>npm run apikey -- create --scope ingest</code>.
          </p>
        </EmptyState>
      ) : (
        <DataTable columns={["Name", "Scope", "Key", "Created", "Last used", { label: "Actions", hidden: true }]}>
          <tbody>
            {keys.data.items.map((key) => (
              <tr key={key.id} className={key.revoked_at ? styles.revoked : undefined}>
                <td>{key.name}</td>
                <td>{key.scope}</td>
                <td>
                  <code>{key.prefix}…</code>
                </td>
                <td>{when(key.created_at)}</td>
                <td>{when(key.last_used_at)}</td>
                <td>
                  {key.revoked_at ? (
                    <span>revoked {when(key.revoked_at)}</span>
                  ) : confirming === key.id ? (
                    <span>
                      <Button size="small" variant="danger" onClick={() => onRevoke(key)} disabled={revoke.isPending}>
                        Yes, revoke {key.name}
                      </Button>{" "}
                      <Button size="small" onClick={() => setConfirming(null)}>
                        Cancel
                      </Button>
                    </span>
                  ) : (
                    <Button size="small" onClick={() => setConfirming(key.id)}>
                      Revoke<VisuallyHidden> {key.name}</VisuallyHidden>
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
    </section>
  );
}
