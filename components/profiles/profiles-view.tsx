"use client";

import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { controlClassName, TextField } from "@/components/ui/field";
import { NamedLabel } from "@/components/ui/named-label";
import { Notice } from "@/components/ui/notice";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { DataTable, numericCellClassName } from "@/components/ui/table";
import { VisuallyHidden } from "@/components/ui/visually-hidden";
import { DEFAULT_PROFILE, type Profile } from "@/lib/calibration/profile";
import { useAssignProfile, useProfiles, useSaveProfile } from "@/lib/queries/use-profiles";
import { useStores } from "@/lib/queries/use-recall";
import { THRESHOLD_KEYS, type ThresholdKey } from "@/lib/recall/thresholds";
import { CONSTANT_WORDS } from "./constant-words";
import { FitPanel } from "./fit-panel";
import styles from "./profiles.module.css";
import { StoreCalibration } from "./store-calibration";

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
        {profiles.isPending ? <LoadingState>Loading profiles…</LoadingState> : null}
        {profiles.error ? (
          <ErrorState error={profiles.error} title="Could not load the profiles." onRetry={() => void profiles.refetch()} />
        ) : null}
        {list.length ? (
          <DataTable data-testid="profiles-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Pool</th>
                {/* abs_low_cosine guards moderate and abs_moderate_cosine guards high: the pair reads as the prominence pair beside it. */}
                <th scope="col" className={numericCellClassName} title="abs_low_cosine / abs_moderate_cosine">
                  Cosine guards (moderate / high)
                </th>
                <th scope="col" className={numericCellClassName} title="moderate_prominence / high_prominence">
                  Prominence (moderate / high)
                </th>
                <th scope="col" className={numericCellClassName}>
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
                  <td className={numericCellClassName}>
                    {p.thresholds.abs_low_cosine} / {p.thresholds.abs_moderate_cosine}
                  </td>
                  <td className={numericCellClassName}>
                    {p.thresholds.moderate_prominence} / {p.thresholds.high_prominence}
                  </td>
                  <td className={numericCellClassName}>{pct(p.source?.estimate?.balanced_accuracy)}</td>
                  <td>
                    {p.source?.kind === "fit"
                      ? `fit${p.source.dataset ? ` on ${p.source.dataset}` : p.source.run_id ? ` on run ${p.source.run_id.slice(0, 8)}` : ""}`
                      : (p.source?.kind ?? "—")}
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        ) : null}
        <p className={styles.muted}>
          <Link href={`/what-if?profile=${encodeURIComponent(selectedName)}`}>What-if over history with {selectedName}</Link>
        </p>
      </section>
      {selected ? <ProfileDetail profile={selected} /> : null}
      <ProfileForm
        // A new base starts the form afresh (its fields are the base's values until edited).
        key={selected?.name ?? DEFAULT_PROFILE.name}
        base={selected}
        onSaved={(name) => router.replace(`${pathname}?profile=${encodeURIComponent(name)}`, { scroll: false })}
      />
      <FitPanel />
    </div>
  );
}

function StoresPanel({
  profiles,
  stores,
}: {
  profiles: Profile[];
  stores: { name: string; label: string; profile?: string; kind?: string }[];
}) {
  const assign = useAssignProfile();
  const [choice, setChoice] = useState<Record<string, string>>({});
  return (
    <section className="panel" aria-labelledby="stores-title">
      <h2 id="stores-title">Stores</h2>
      <p className={styles.muted}>
        Each store’s levels are judged by its profile too; the wire confidence block always stays the reference rules.
      </p>
      <DataTable>
        <tbody>
          {stores.map((s) => (
            <tr key={s.name}>
              <th scope="row">{s.label}</th>
              <td>
                <label>
                  <VisuallyHidden>Profile for {s.label}</VisuallyHidden>
                  <select
                    className={controlClassName}
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
                <Button
                  size="small"
                  disabled={assign.isPending || (choice[s.name] ?? s.profile) === s.profile}
                  onClick={() => assign.mutate({ store: s.name, profile: choice[s.name] ?? s.profile ?? "default" })}
                >
                  Assign
                </Button>{" "}
                <span data-testid={`store-profile-${s.name}`}>uses {s.profile ?? "default"}</span>
                {s.profile !== "default" ? (
                  <>
                    {" · "}
                    <Button size="small" variant="ghost" onClick={() => assign.mutate({ store: s.name, profile: "default" })}>
                      Use the reference
                    </Button>
                  </>
                ) : null}
                <StoreCalibration store={s.name} remote={s.kind === "remote"} />
              </td>
            </tr>
          ))}
        </tbody>
      </DataTable>
      {assign.error ? <ErrorState error={assign.error} title="The profile was not assigned." /> : null}
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
    <DataTable data-testid="constants-table">
      <thead>
        <tr>
          <th scope="col">Constant</th>
          <th scope="col" className={numericCellClassName}>
            {label}
          </th>
          <th scope="col" className={numericCellClassName}>
            reference
          </th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row">
            <NamedLabel name="pool_size">{CONSTANT_WORDS.pool_size.label}</NamedLabel>
          </th>
          <td className={numericCellClassName}>{poolSize ?? "k"}</td>
          <td className={numericCellClassName}>k</td>
        </tr>
        {THRESHOLD_KEYS.map((key) => (
          <tr key={key}>
            <th scope="row" title={CONSTANT_WORDS[key].hint}>
              <NamedLabel name={key}>{CONSTANT_WORDS[key].label}</NamedLabel>
            </th>
            <td className={numericCellClassName}>{thresholds[key]}</td>
            <td className={numericCellClassName}>{ref[key]}</td>
          </tr>
        ))}
      </tbody>
    </DataTable>
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
  // The parent keys this form on its base, so these start values are read once per base.
  const [name, setName] = useState(start.builtin ? `${start.name}-copy` : start.name);
  const [pool, setPool] = useState(start.pool_size === null ? "" : String(start.pool_size));
  const [description, setDescription] = useState(start.description ?? "");
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(THRESHOLD_KEYS.map((k) => [k, String(start.thresholds[k])])),
  );
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
      <p className={styles.muted}>
        Starts from {start.name}; built-in profiles are read-only, so save under another name. To try values on logged recalls
        before saving, edit them on the <Link href={`/what-if?profile=${encodeURIComponent(start.name)}`}>What-if page</Link>.
      </p>
      <form onSubmit={submit} className={styles.form} aria-label="Profile form">
        <TextField id="profile-name" label="Name" required value={name} onChange={(e) => setName(e.target.value)} />
        <TextField
          id="profile-pool"
          label={<NamedLabel name="pool_size">{CONSTANT_WORDS.pool_size.label}</NamedLabel>}
          hint={`${CONSTANT_WORDS.pool_size.hint}: empty = the page (k); N = the first N merged candidates`}
          value={pool}
          inputMode="numeric"
          onChange={(e) => setPool(e.target.value)}
        />
        {THRESHOLD_KEYS.map((key) => (
          <TextField
            key={key}
            id={`profile-${key}`}
            label={<NamedLabel name={key}>{CONSTANT_WORDS[key].label}</NamedLabel>}
            hint={CONSTANT_WORDS[key].hint}
            value={values[key] ?? ""}
            inputMode="decimal"
            onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
          />
        ))}
        <TextField
          id="profile-description"
          label="Description"
          className={styles.wide}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
        <div className={styles.row}>
          <Button type="submit" variant="primary" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save profile"}
          </Button>
          {save.isSuccess ? <Notice tone="success">{`Saved ${save.data.name}.`}</Notice> : null}
        </div>
      </form>
      {save.error ? <ErrorState error={save.error} title="The profile was not saved." /> : null}
    </section>
  );
}
