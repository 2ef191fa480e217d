import "server-only";
import type { Prisma, PrismaClient } from "@prisma/client";
import { packExamples, unpackExamples, type LabelFreeExamples, type StoreNull, type VerdictModel } from "@/lib/calibration/model";
import { processSingleton } from "@/lib/server/process-singleton";
import { DEMO_STORE } from "@/lib/stores/store-schemas";
import type { MemoryStore } from "@/lib/stores/types";
import { memoryQueries as memoryQueriesOf, runCalibration } from "./calibrate";
import type { PriorSource } from "./labeled";
import { probeQueries } from "./probes";

/**
 * Calibration without labels, per store (lib/profiles/README.md "Calibration without labels"): the bundled
 * probe queries are recalled against the store (not logged: they are not anyone's recalls) to
 * learn its null, and queries made from a sample of its own memories give the present side the
 * label-free estimate scores against the probes. Runs in the background, one store at a time per
 * process, with its progress in `app_state` under `calibration:<store>`; recalls never wait for
 * it. A store calibrates when it has none and holds enough memories, or when its size moved by
 * more than RECALIBRATE_CHANGE since.
 */

export type CalibrationState = "none" | "calibrating" | "ready";

export interface StoreCalibration {
  state: CalibrationState;
  method: "label_free" | "shipped" | null;
  /** Probe and memory-made recalls it ran. */
  examples: { probes: number; memories: number } | null;
  updated_at: string | null;
  /** Label-free estimate under the store's profile: probes (absent) vs memory-made queries (present). */
  estimate: { balanced_accuracy: number | null; auc: number | null; probes_worth_reading: number | null } | null;
  progress?: { done: number; total: number } | null;
  /** Memories the store held when it calibrated. */
  memories_at?: number | null;
  error?: string | null;
}

interface StoredCalibration extends StoreCalibration {
  null?: StoreNull | null;
}

/** Fewest memories a store needs before it calibrates itself. */
export const MIN_CALIBRATION_MEMORIES = 10;
/** Relative change in a store's size that makes it calibrate again. */
export const RECALIBRATE_CHANGE = 0.05;

const key = (store: string) => `calibration:${store}`;
/**
 * The signals of the calibration's recalls, kept apart from its state: every recall reads the
 * state (storeProfile), only a labeled fit reads these (lib/calibration/model/prior.ts).
 */
const examplesKey = (store: string) => `calibration-examples:${store}`;
const NONE: StoreCalibration = { state: "none", method: null, examples: null, updated_at: null, estimate: null };

function publicOf(value: StoredCalibration | null | undefined): StoreCalibration {
  if (!value) return { ...NONE };
  const { null: _null, ...rest } = value;
  return rest;
}

/** Each store's calibration as `GET /api/stores` shows it. */
export async function storeCalibrations(
  prisma: PrismaClient,
  stores: readonly string[],
): Promise<Record<string, StoreCalibration>> {
  const rows = await prisma.appState.findMany({ where: { key: { in: stores.map(key) } } });
  const byKey = new Map(rows.map((r) => [r.key, r.value as unknown as StoredCalibration]));
  return Object.fromEntries(stores.map((s) => [s, publicOf(byKey.get(key(s)))]));
}

/** The store's null once it calibrated itself (what the verdict measures a recall against). */
export function nullOf(value: unknown): StoreNull | null {
  const v = value as StoredCalibration | null | undefined;
  return v && v.state === "ready" && v.null ? v.null : null;
}

async function write(prisma: PrismaClient, store: string, value: StoredCalibration): Promise<void> {
  await put(prisma, key(store), value);
}

async function put(prisma: PrismaClient, k: string, value: unknown): Promise<void> {
  const json = value as Prisma.InputJsonValue;
  await prisma.appState.upsert({ where: { key: k }, create: { key: k, value: json }, update: { value: json } });
}

/** What a labeled fit leans on: the examples of the store's last calibration without labels, and its null. */
export interface LabelFreeCalibration {
  examples: LabelFreeExamples;
  null: StoreNull;
  updated_at: string | null;
}

/**
 * The store's label-free examples and null when it calibrated itself and kept them (a calibration
 * from before they were kept has none until the next one), else null.
 */
export async function labelFreeCalibration(prisma: PrismaClient, store: string): Promise<LabelFreeCalibration | null> {
  const rows = await prisma.appState.findMany({ where: { key: { in: [key(store), examplesKey(store)] } } });
  const state = rows.find((r) => r.key === key(store))?.value as unknown as StoredCalibration | undefined;
  const kept = rows.find((r) => r.key === examplesKey(store))?.value as { updated_at?: string } | undefined;
  const nul = nullOf(state);
  // Examples of another calibration than the state's (one that failed half-way) are not this null's.
  if (!nul || !kept || kept.updated_at !== state?.updated_at) return null;
  const examples = unpackExamples(kept);
  return examples ? { examples, null: nul, updated_at: state?.updated_at ?? null } : null;
}

const running = processSingleton("storeCalibrationsRunning", () => new Map<string, Promise<void>>());
/** Each running job's ticket: a job whose store was deleted (its ticket gone) writes nothing more. */
const tickets = processSingleton("storeCalibrationTickets", () => new Map<string, object>());

/** Whether the store should calibrate now (none yet, or its size moved by more than RECALIBRATE_CHANGE). */
export function needsCalibration(current: StoreCalibration, memories: number): boolean {
  if (memories < MIN_CALIBRATION_MEMORIES) return false;
  if (current.state === "calibrating") return false;
  if (current.state !== "ready" || !current.memories_at) return true;
  return Math.abs(memories - current.memories_at) / current.memories_at > RECALIBRATE_CHANGE;
}

/**
 * Starts the store's calibration in the background unless one runs; resolves once it started
 * (its state is `calibrating`). `model` scores the label-free estimate.
 */
export async function startCalibration(
  prisma: PrismaClient,
  store: MemoryStore,
  memories: number,
  model: VerdictModel | null,
): Promise<StoreCalibration> {
  const current = running.get(store.name);
  const previous = (await prisma.appState.findUnique({ where: { key: key(store.name) } }))?.value as unknown as
    StoredCalibration | undefined;
  if (current) return publicOf(previous);
  const probes = probeQueries();
  const sample = await prisma.memory.findMany({
    where: { store: store.name },
    select: { summary: true },
    orderBy: { id: "asc" },
    take: 2_000,
  });
  const memoryQueries = memoryQueriesOf(sample.map((m) => m.summary));
  const total = probes.length + memoryQueries.length;
  const state: StoredCalibration = {
    ...(previous ?? NONE),
    state: "calibrating",
    progress: { done: 0, total },
    error: null,
  };
  await write(prisma, store.name, state);
  const ticket = {};
  tickets.set(store.name, ticket);
  const job = run(prisma, store, ticket, { probes, memoryQueries, memories, model, previous: previous ?? null }).finally(() =>
    running.delete(store.name),
  );
  running.set(store.name, job);
  job.catch(() => {}); // its failure is written as the state
  return publicOf(state);
}

/** Waits for a running calibration (tests and scripts). */
export async function calibrationIdle(store: string): Promise<void> {
  await running.get(store);
}

async function run(
  prisma: PrismaClient,
  store: MemoryStore,
  ticket: object,
  input: {
    probes: string[];
    memoryQueries: string[];
    memories: number;
    model: VerdictModel | null;
    previous: StoredCalibration | null;
  },
): Promise<void> {
  const current = () => tickets.get(store.name) === ticket;
  const write = async (k: string, value: unknown) => {
    if (current()) await put(prisma, k, value);
  };
  try {
    const done = await runCalibration(store, input, (progress, total) =>
      write(key(store.name), { ...(input.previous ?? NONE), state: "calibrating", progress: { done: progress, total } }),
    );
    const updatedAt = new Date().toISOString();
    await write(examplesKey(store.name), { ...packExamples(done.signals), updated_at: updatedAt });
    await write(key(store.name), {
      state: "ready",
      method: "label_free",
      examples: done.examples,
      updated_at: updatedAt,
      estimate: done.estimate,
      progress: null,
      memories_at: input.memories,
      null: done.null,
      error: null,
    });
  } catch (error) {
    await write(key(store.name), {
      ...(input.previous ?? NONE),
      state: input.previous?.state === "ready" ? "ready" : "none",
      progress: null,
      error: error instanceof Error ? error.message : String(error),
    }).catch(() => {});
  }
}

/**
 * Each store's calibration for `GET /api/stores`, starting it in the background for an embedded
 * store that needs one (none yet, or its size moved by more than RECALIBRATE_CHANGE). A store that
 * never calibrated, the demo store within RECALIBRATE_CHANGE of the size the shipped model's null
 * was learnt on, is shown as calibrated by the shipped fit: running the probes
 * there would learn the same null.
 */
export async function calibrationsForStores(
  prisma: PrismaClient,
  stores: readonly { name: string; kind: "embedded" | "remote"; memories?: number }[],
  context: {
    model: (store: string) => VerdictModel | null;
    resolve: (store: string) => Promise<MemoryStore>;
    /** Start a calibration where one is needed (STORE_CALIBRATION=auto). */
    auto: boolean;
  },
): Promise<Record<string, StoreCalibration>> {
  const out = await storeCalibrations(
    prisma,
    stores.map((s) => s.name),
  );
  for (const s of stores) {
    if (s.kind !== "embedded" || s.memories === undefined) continue;
    const model = context.model(s.name);
    const shippedOn = model?.method === "shipped" ? model.relative_to?.memories : undefined;
    if (
      out[s.name]!.state === "none" &&
      s.name === DEMO_STORE &&
      shippedOn !== undefined &&
      shippedOn > 0 &&
      Math.abs(s.memories - shippedOn) / shippedOn <= RECALIBRATE_CHANGE
    ) {
      out[s.name] = {
        state: "ready",
        method: "shipped",
        examples: { probes: model!.relative_to!.probes, memories: 0 },
        updated_at: null,
        estimate: model!.estimate
          ? { balanced_accuracy: model!.estimate.balanced_accuracy, auc: model!.estimate.auc, probes_worth_reading: null }
          : null,
        memories_at: shippedOn,
      };
      continue;
    }
    if (!context.auto || !needsCalibration(out[s.name]!, s.memories)) continue;
    try {
      out[s.name] = await startCalibration(prisma, await context.resolve(s.name), s.memories, model);
    } catch {
      // A store that cannot be opened now is shown as it was; the next listing tries again.
    }
  }
  return out;
}

/** The prior's source for labels recalled from these stores: one store's label-free calibration, else none. */
export async function priorSource(prisma: PrismaClient, stores: readonly string[]): Promise<PriorSource> {
  if (stores.length !== 1) return { store: null, calibration: null };
  return { store: stores[0]!, calibration: await labelFreeCalibration(prisma, stores[0]!) };
}

/**
 * Forgets a deleted store's calibration, so a store created later under the same name starts
 * uncalibrated instead of judging its recalls by the null of memories it never had.
 */
export async function forgetCalibration(prisma: PrismaClient, store: string): Promise<void> {
  tickets.delete(store);
  await prisma.appState.deleteMany({ where: { key: { in: [key(store), examplesKey(store)] } } });
}
