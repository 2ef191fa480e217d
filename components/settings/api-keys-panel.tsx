"use client";

import { useId, useRef, useState, type FormEvent } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import styles from "@/components/auth/auth.module.css";
import { CreateApiKeyBodySchema } from "@/lib/auth/schemas";
import { API_KEY_SCOPES, SCOPE_DESCRIPTIONS, type ApiKeyScope } from "@/lib/auth/scopes";
import { errorMessage } from "@/lib/queries/fetch-json";
import { useApiKeys, useCreateApiKey, useRevokeApiKey, useSessionState, type ApiKeyView } from "@/lib/queries/use-auth";

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
          <p role="status">Checking…</p>
        ) : session.isError ? (
          <p className={styles.error} role="alert">
            Could not read the sign-in state: {errorMessage(session.error)}
          </p>
        ) : session.data.auth_enabled ? (
          <p>
            Sign-in is <strong>on</strong>: pages need the team password, and API clients an API key sent as{" "}
            <code className={styles.mono}>Authorization: Bearer &lt;key&gt;</code>.
          </p>
        ) : (
          <p className={styles.notice}>
            Sign-in is <strong>off</strong> (AUTH_PASSWORD is not set): anyone who can reach this server may use it, and keys are
            not checked. Keys created now start counting once AUTH_PASSWORD is set.
          </p>
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
    const parsed = CreateApiKeyBodySchema.safeParse({ name, scope });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "Check the form.");
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
          <div className={styles.field}>
            <label htmlFor={`${id}-name`}>Name</label>
            <input
              ref={nameRef}
              id={`${id}-name`}
              className={styles.input}
              type="text"
              value={name}
              maxLength={80}
              placeholder="e.g. support-agent ingest"
              onChange={(event) => setName(event.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
            />
          </div>
          <div className={styles.field}>
            <label htmlFor={`${id}-scope`}>Scope</label>
            <select
              id={`${id}-scope`}
              className={styles.select}
              value={scope}
              onChange={(event) => setScope(event.target.value as ApiKeyScope)}
            >
              {API_KEY_SCOPES.map((s) => (
                <option key={s} value={s}>
                  {s}: {SCOPE_DESCRIPTIONS[s]}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className={`${styles.button} ${styles.primary}`} disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create key"}
          </button>
        </div>
        {error ? (
          <p id={`${id}-error`} className={styles.error} role="alert">
            {error}
          </p>
        ) : null}
      </form>
      {created ? (
        <div className={`${styles.success} ${styles.newKey}`} role="status">
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
        </div>
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
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
      {keys.isPending ? (
        <p role="status">Loading keys…</p>
      ) : keys.isError ? (
        <p className={styles.error} role="alert">
          Could not load the keys: {errorMessage(keys.error)}
        </p>
      ) : keys.data.items.length === 0 ? (
        <p className={styles.hint}>
          No API keys yet. Agents that send their recalls here need an <code>ingest</code> key; scripts that only read, a{" "}
          <code>read</code> key. Also: <code>npm run apikey -- create --scope ingest</code>.
        </p>
      ) : (
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Scope</th>
              <th scope="col">Key</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className={styles.visuallyHidden}>Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.data.items.map((key) => (
              <tr key={key.id} className={key.revoked_at ? styles.revoked : undefined}>
                <td>{key.name}</td>
                <td>{key.scope}</td>
                <td className={styles.mono}>{key.prefix}…</td>
                <td>{when(key.created_at)}</td>
                <td>{when(key.last_used_at)}</td>
                <td>
                  {key.revoked_at ? (
                    <span>revoked {when(key.revoked_at)}</span>
                  ) : confirming === key.id ? (
                    <span>
                      <button
                        type="button"
                        className={`${styles.button} ${styles.small} ${styles.danger}`}
                        onClick={() => onRevoke(key)}
                        disabled={revoke.isPending}
                      >
                        Yes, revoke {key.name}
                      </button>{" "}
                      <button type="button" className={`${styles.button} ${styles.small}`} onClick={() => setConfirming(null)}>
                        Cancel
                      </button>
                    </span>
                  ) : (
                    <button type="button" className={`${styles.button} ${styles.small}`} onClick={() => setConfirming(key.id)}>
                      Revoke<span className={styles.visuallyHidden}> {key.name}</span>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
