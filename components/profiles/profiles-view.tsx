"use client";

import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState, type FormEvent } from "react";
import { DEFAULT_PROFILE, type Profile } from "@/lib/calibration/profile";
import { errorMessage } from "@/lib/queries/fetch-json";
import { useAssignProfile, useProfiles, useSaveProfile } from "@/lib/queries/use-profiles";
import { useStores } from "@/lib/queries/use-recall";
import { THRESHOLD_KEYS, type ThresholdKey } from "@/lib/recall/thresholds";
import { FitPanel } from "./fit-panel";
import styles from "./profiles.module.css";

const pct = (x: number | null | undefined) => (x === null || x === undefined ? "—" : x.toFixed(3));

/** Profiles: which store uses which, every profile's constants beside the reference, a form to create or edit, and a fit from labels. */
export function ProfilesView() {
  const profiles = useProfiles();
  const stores = useStores();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const selectedName = params.get("profile") ?? "use-lite";
  const list = profiles.data ?? [];
  const selected = list.find((p) => p.name === selectedName) ?? null;

  return (
    <div className={styles.grid}>
      <StoresPanel profiles={list} stores={stores.data ?? []} />
      <section className="panel" aria-labelledby="profiles-title">
        <h2 id="profiles-title">Profiles</h2>
        {profiles.isPending ? <p role="status">Loading profiles…</p> : null}
        {profiles.error ? (
          <p className={styles.error} role="alert">
            {errorMessage(profiles.error)}
          </p>
        ) : null}
        {list.length ? (
          <table className={styles.table} data-testid="profiles-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Pool</th>
                <th scope="col" className={styles.num}>
                  Cosine guard (low / moderate)
                </th>
                <th scope="col" className={styles.num}>
                  Prominence (moderate / high)
                </th>
                <th scope="col" className={styles.num}>
                  CV estimate
                </th>
                <th scope="col">Source</th>
              </tr>
            </thead>
            <tbody>
              {list.map((p) => (
                <tr key={p.name} aria-selected={p.name === selectedName}>
                  <td>
                    <Link href={`${pathname}?profile=${encodeURIComponent(p.name)}`} scroll={false}>
                      {p.name}
                    </Link>
                    {p.builtin ? <span className={styles.muted}> (built in)</span> : null}
                  </td>
                  <td>{p.pool_size === null ? "the page (k)" : `first ${p.pool_size}`}</td>
                  <td className={styles.num}>
                    {p.thresholds.abs_low_cosine} / {p.thresholds.abs_moderate_cosine}
                  </td>
                  <td className={styles.num}>
                    {p.thresholds.moderate_prominence} / {p.thresholds.high_prominence}
                  </td>
                  <td className={styles.num}>{pct(p.source?.estimate?.balanced_accuracy)}</td>
                  <td>
                    {p.source?.kind === "fit"
                      ? `fit${p.source.dataset ? ` on ${p.source.dataset}` : p.source.run_id ? ` on run ${p.source.run_id.slice(0, 8)}` : ""}`
                      : (p.source?.kind ?? "—")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        <p className={styles.muted}>
          <Link href={`/what-if?profile=${encodeURIComponent(selectedName)}`}>What-if over history with {selectedName}</Link>
        </p>
      </section>
      {selected ? <ProfileDetail profile={selected} /> : null}
      <ProfileForm
        base={selected}
        onSaved={(name) => router.replace(`${pathname}?profile=${encodeURIComponent(name)}`, { scroll: false })}
      />
      <FitPanel />
    </div>
  );
}

function StoresPanel({ profiles, stores }: { profiles: Profile[]; stores: { name: string; label: string; profile?: string }[] }) {
  const assign = useAssignProfile();
  const [choice, setChoice] = useState<Record<string, string>>({});
  return (
    <section className="panel" aria-labelledby="stores-title">
      <h2 id="stores-title">Stores</h2>
      <p className={styles.muted}>
        Each store’s levels are judged by its profile too; the wire confidence block always stays the reference rules.
      </p>
      <table className={styles.table}>
        <tbody>
          {stores.map((s) => (
            <tr key={s.name}>
              <th scope="row">{s.label}</th>
              <td>
                <label>
                  <span className="visually-hidden">Profile for {s.label}</span>
                  <select
                    aria-label={`Profile for ${s.name}`}
                    value={choice[s.name] ?? s.profile ?? "default"}
                    onChange={(e) => setChoice((c) => ({ ...c, [s.name]: e.target.value }))}
                  >
                    {profiles.map((p) => (
                      <option key={p.name} value={p.name}>
                        {p.name}
                      </option>
                    ))}
                  </select>
                </label>{" "}
                <button
                  type="button"
                  disabled={assign.isPending || (choice[s.name] ?? s.profile) === s.profile}
                  onClick={() => assign.mutate({ store: s.name, profile: choice[s.name] ?? s.profile ?? "default" })}
                >
                  Assign
                </button>{" "}
                <span data-testid={`store-profile-${s.name}`}>uses {s.profile ?? "default"}</span>
                {s.profile !== "default" ? (
                  <>
                    {" · "}
                    <button type="button" onClick={() => assign.mutate({ store: s.name, profile: "default" })}>
                      Use the reference
                    </button>
                  </>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {assign.error ? (
        <p className={styles.error} role="alert">
          {errorMessage(assign.error)}
        </p>
      ) : null}
    </section>
  );
}

/** Constants of one profile next to the reference's. */
export function ConstantsTable({
  thresholds,
  poolSize,
  label,
}: {
  thresholds: Record<ThresholdKey, number>;
  poolSize: number | null;
  label: string;
}) {
  const ref = DEFAULT_PROFILE.thresholds;
  return (
    <table className={styles.table} data-testid="constants-table">
      <thead>
        <tr>
          <th scope="col">Constant</th>
          <th scope="col" className={styles.num}>
            {label}
          </th>
          <th scope="col" className={styles.num}>
            reference
          </th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row">pool_size</th>
          <td className={styles.num}>{poolSize ?? "k"}</td>
          <td className={styles.num}>k</td>
        </tr>
        {THRESHOLD_KEYS.map((key) => (
          <tr key={key}>
            <th scope="row">{key}</th>
            <td className={styles.num}>{thresholds[key]}</td>
            <td className={styles.num}>{ref[key]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ProfileDetail({ profile }: { profile: Profile }) {
  const e = profile.source?.estimate;
  return (
    <section className="panel" aria-labelledby="detail-title" data-testid="profile-detail">
      <h2 id="detail-title">{profile.name}</h2>
      {profile.description ? <p>{profile.description}</p> : null}
      {e ? (
        <p className={styles.muted}>
          Balanced triage accuracy: {pct(e.balanced_accuracy)} cross-validated ({e.folds} folds), {pct(e.train_balanced_accuracy)}{" "}
          on the data it was fitted on.
        </p>
      ) : null}
      {profile.source?.note ? <p className={styles.muted}>{profile.source.note}</p> : null}
      <ConstantsTable thresholds={profile.thresholds} poolSize={profile.pool_size} label={profile.name} />
    </section>
  );
}

function ProfileForm({ base, onSaved }: { base: Profile | null; onSaved: (name: string) => void }) {
  const save = useSaveProfile();
  const start = base ?? DEFAULT_PROFILE;
  const [name, setName] = useState("");
  const [pool, setPool] = useState("");
  const [description, setDescription] = useState("");
  const [values, setValues] = useState<Record<string, string>>({});
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- syncs local state from the URL or a query after render; a rewrite as derived state changes behaviour, left to the page's owner
    setName(start.builtin ? `${start.name}-copy` : start.name);
    setPool(start.pool_size === null ? "" : String(start.pool_size));
    setDescription(start.description ?? "");
    setValues(Object.fromEntries(THRESHOLD_KEYS.map((k) => [k, String(start.thresholds[k])])));
  }, [start]);
  function submit(event: FormEvent) {
    event.preventDefault();
    const thresholds = Object.fromEntries(THRESHOLD_KEYS.map((k) => [k, Number(values[k])]));
    save.mutate(
      { name: name.trim(), thresholds, pool_size: pool.trim() === "" ? null : Number(pool), description: description || null },
      { onSuccess: (p) => onSaved(p.name) },
    );
  }
  return (
    <section className="panel" aria-labelledby="form-title">
      <h2 id="form-title">Create or edit a profile</h2>
      <p className={styles.muted}>Starts from {start.name}; built-in profiles are read-only, so save under another name.</p>
      <form onSubmit={submit} className={styles.form} aria-label="Profile form">
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} required />
        </label>
        <label>
          Pool size (empty = the page)
          <input value={pool} inputMode="numeric" onChange={(e) => setPool(e.target.value)} />
        </label>
        {THRESHOLD_KEYS.map((key) => (
          <label key={key}>
            {key}
            <input
              value={values[key] ?? ""}
              inputMode="decimal"
              onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
            />
          </label>
        ))}
        <label style={{ gridColumn: "1 / -1" }}>
          Description
          <input value={description} onChange={(e) => setDescription(e.target.value)} />
        </label>
        <div className={styles.row}>
          <button type="submit" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save profile"}
          </button>
          {save.isSuccess ? <span role="status">Saved {save.data.name}.</span> : null}
        </div>
      </form>
      {save.error ? (
        <p className={styles.error} role="alert">
          {errorMessage(save.error)}
        </p>
      ) : null}
    </section>
  );
}
