/**
 * Runs from other trainers beside the lab's own: `loadRun(path)` reads a Hugging Face / TRL
 * `trainer_state.json` (its `log_history`), TensorBoard event files (scalars, both the `simple_value`
 * form torch's and tensorboardX's SummaryWriter write and the tensor form TensorBoard 2 writes), and a
 * lab run's `metrics.jsonl` into one long arquero table (run, source, step, metric, value, wall_time, tag),
 * metric names normalized so that TRL's `train/reward` and the lab's `reward_mean` are both `reward`.
 *
 * Event files are TFRecord streams (uint64 length, masked CRC32C of the length, data, masked CRC32C of
 * the data), each record a tensorflow.Event protobuf; both CRCs are checked. Errors name the file and the
 * record (with its byte offset) or the line and field.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import protobuf from "protobufjs";
import { z } from "zod";
import { describeIssues } from "../core/index.js";
import { aq, lineChart, seriesStyle, type Figure, type Series, type Table } from "../viz/index.js";
import { StepMetrics } from "./config.js";

// ---------------------------------------------------------------------------------------------
// CRC32C (Castagnoli), as TFRecord uses it

const CRC32C_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    t[i] = c >>> 0;
  }
  return t;
})();

/** CRC32C of `bytes` (check value: crc32c("123456789") = 0xe3069283). */
export function crc32c(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC32C_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** TFRecord's masked CRC: rotate right by 15 bits and add 0xa282ead8. */
export function maskedCrc32c(bytes: Uint8Array): number {
  const c = crc32c(bytes);
  return ((((c >>> 15) | (c << 17)) >>> 0) + 0xa282ead8) >>> 0;
}

const hex = (n: number) => `0x${n.toString(16).padStart(8, "0")}`;

/** The records of a TFRecord file, each with its byte offset; a bad CRC or a cut-off record throws, naming the file and record. */
export function readTfRecords(file: string, bytes: Uint8Array = readFileSync(file)): { offset: number; data: Uint8Array }[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: { offset: number; data: Uint8Array }[] = [];
  let off = 0;
  while (off < bytes.length) {
    const at = `${file}: record ${out.length} at byte ${off}`;
    if (bytes.length - off < 12) throw new Error(`${at}: truncated (a record header is 12 bytes, ${bytes.length - off} left)`);
    const len = view.getBigUint64(off, true);
    const lenCrc = view.getUint32(off + 8, true);
    const want = maskedCrc32c(bytes.subarray(off, off + 8));
    if (lenCrc !== want) throw new Error(`${at}: length CRC mismatch (stored ${hex(lenCrc)}, computed ${hex(want)}): not a TFRecord file, or corrupt`);
    const n = Number(len);
    if (bytes.length - off - 12 < n + 4) throw new Error(`${at}: truncated (the record says ${n} data bytes + 4 CRC bytes, ${bytes.length - off - 12} left)`);
    const data = bytes.subarray(off + 12, off + 12 + n);
    const dataCrc = view.getUint32(off + 12 + n, true);
    const wantData = maskedCrc32c(data);
    if (dataCrc !== wantData) throw new Error(`${at}: data CRC mismatch (stored ${hex(dataCrc)}, computed ${hex(wantData)}): corrupt`);
    out.push({ offset: off, data });
    off += 12 + n + 4;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// tensorflow.Event, the parts of it scalars live in (field numbers from tensorflow/core/util/event.proto,
// framework/summary.proto, tensor.proto, tensor_shape.proto, types.proto); other fields are skipped.

const EVENT_PROTO = `
syntax = "proto3";
package tensorflow;
message Event { double wall_time = 1; int64 step = 2; oneof what { string file_version = 3; bytes graph_def = 4; Summary summary = 5; } }
message Summary { repeated Value value = 1;
  message Value { string node_name = 7; string tag = 1; SummaryMetadata metadata = 9;
    oneof value { float simple_value = 2; bytes obsolete_old_style_histogram = 3; bytes image = 4; bytes histo = 5; bytes audio = 6; TensorProto tensor = 8; } } }
message SummaryMetadata { PluginData plugin_data = 1; string display_name = 2; string summary_description = 3; int32 data_class = 4;
  message PluginData { string plugin_name = 1; bytes content = 2; } }
message TensorShapeProto { repeated Dim dim = 2; bool unknown_rank = 3; message Dim { int64 size = 1; string name = 2; } }
message TensorProto { int32 dtype = 1; TensorShapeProto tensor_shape = 2; int32 version_number = 3; bytes tensor_content = 4;
  repeated int32 half_val = 13; repeated float float_val = 5; repeated double double_val = 6; repeated int32 int_val = 7;
  repeated int64 int64_val = 10; repeated bool bool_val = 11; }
`;
const EventType = protobuf.parse(EVENT_PROTO, { keepCase: true }).root.lookupType("tensorflow.Event");

interface TensorMsg { dtype?: number; tensor_shape?: { dim?: { size?: number }[] }; tensor_content?: Uint8Array; half_val?: number[]; float_val?: number[]; double_val?: number[]; int_val?: number[]; int64_val?: number[]; bool_val?: boolean[] }
interface ValueMsg { tag?: string; metadata?: { plugin_data?: { plugin_name?: string }; data_class?: number }; simple_value?: number; tensor?: TensorMsg }
interface EventMsg { wall_time?: number; step?: number; file_version?: string; summary?: { value?: ValueMsg[] } }

// tensorflow DataType codes a scalar may carry
const DT = { FLOAT: 1, DOUBLE: 2, INT32: 3, INT64: 9, BOOL: 10, HALF: 19 } as const;

function halfToNumber(h: number): number {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, f = h & 0x3ff;
  if (e === 0) return s * 2 ** -14 * (f / 1024);
  if (e === 31) return f ? NaN : s * Infinity;
  return s * 2 ** (e - 15) * (1 + f / 1024);
}

/** The one value of a rank-0 (or one-element) tensor, or an error message. */
function tensorScalar(t: TensorMsg): number | string {
  const dims = t.tensor_shape?.dim ?? [];
  const count = dims.reduce((a, d) => a * Number(d.size ?? 0), 1);
  if (count !== 1) return `a scalar summary with shape [${dims.map((d) => d.size).join(", ")}]`;
  const c = t.tensor_content;
  if (c && c.length) {
    const v = new DataView(c.buffer, c.byteOffset, c.byteLength);
    switch (t.dtype) {
      case DT.FLOAT: return v.getFloat32(0, true);
      case DT.DOUBLE: return v.getFloat64(0, true);
      case DT.INT32: return v.getInt32(0, true);
      case DT.INT64: return Number(v.getBigInt64(0, true));
      case DT.BOOL: return v.getUint8(0) ? 1 : 0;
      case DT.HALF: return halfToNumber(v.getUint16(0, true));
      default: return `tensor dtype ${t.dtype} is not a number type this reader knows`;
    }
  }
  const first = (xs: readonly (number | boolean)[] | undefined) => (xs && xs.length ? Number(xs[0]) : undefined);
  const val = t.dtype === DT.FLOAT ? first(t.float_val) : t.dtype === DT.DOUBLE ? first(t.double_val) : t.dtype === DT.INT32 ? first(t.int_val)
    : t.dtype === DT.INT64 ? first(t.int64_val) : t.dtype === DT.BOOL ? first(t.bool_val) : t.dtype === DT.HALF ? (t.half_val?.length ? halfToNumber(t.half_val[0]!) : undefined) : undefined;
  return val ?? `tensor dtype ${t.dtype} with no value`;
}

/** One scalar point of an event file: `form` says how it was written (simple_value or a TB2 tensor). */
export interface EventScalar {
  tag: string;
  step: number;
  wall_time: number;
  value: number;
  form: "simple_value" | "tensor";
}

/** An event file's scalars; `otherTags` are summaries that are not scalars (text, histograms, images), skipped. */
export interface EventFileScalars {
  file: string;
  records: number;
  fileVersion: string | null;
  scalars: EventScalar[];
  otherTags: string[];
}

/**
 * Reads the scalars of one TensorBoard event file. A value counts as a scalar when it is a
 * `simple_value`, or a tensor whose tag's metadata (on that value or an earlier one of the tag, as
 * TensorBoard remembers it) names the `scalars` plugin or the scalar data class.
 */
export function readEventFile(file: string): EventFileScalars {
  const records = readTfRecords(file);
  const plugin = new Map<string, string>();
  const scalars: EventScalar[] = [];
  const other = new Set<string>();
  let fileVersion: string | null = null;
  records.forEach(({ offset, data }, i) => {
    let ev: EventMsg;
    try {
      ev = EventType.toObject(EventType.decode(data), { longs: Number, defaults: false, oneofs: false }) as EventMsg;
    } catch (e) {
      throw new Error(`${file}: record ${i} at byte ${offset}: not a tensorflow.Event protobuf: ${(e as Error).message}`);
    }
    if (i === 0 && ev.file_version !== undefined) fileVersion = ev.file_version;
    for (const v of ev.summary?.value ?? []) {
      const tag = v.tag ?? "";
      const meta = v.metadata;
      if (meta?.plugin_data?.plugin_name) plugin.set(tag, meta.plugin_data.plugin_name);
      else if (meta?.data_class === 1) plugin.set(tag, "scalars"); // DATA_CLASS_SCALAR
      const base = { tag, step: ev.step ?? 0, wall_time: ev.wall_time ?? 0 };
      if (v.simple_value !== undefined) scalars.push({ ...base, value: v.simple_value, form: "simple_value" });
      else if (v.tensor && plugin.get(tag) === "scalars") {
        const x = tensorScalar(v.tensor);
        if (typeof x === "string") throw new Error(`${file}: record ${i} at byte ${offset}: tag ${JSON.stringify(tag)}: ${x}`);
        scalars.push({ ...base, value: x, form: "tensor" });
      } else other.add(tag);
    }
  });
  for (const s of scalars) other.delete(s.tag);
  return { file, records: records.length, fileVersion, scalars, otherTags: [...other].sort() };
}

// ---------------------------------------------------------------------------------------------
// trainer_state.json (transformers' TrainerState.save_to_json; TRL's trainers write the same)

const LogValue = z.union([z.number(), z.string(), z.boolean(), z.null()]);
/** One `log_history` entry: the step and what was logged at it (numbers are the metrics; epoch is one of them). */
export const LogHistoryEntry = z.object({ step: z.number().int().nonnegative() }).catchall(LogValue);
/** The parts of transformers' TrainerState the loader reads; its other fields pass through unchecked. */
export const TrainerState = z.object({
  log_history: z.array(LogHistoryEntry),
  global_step: z.number().int().nonnegative(),
  max_steps: z.number().int().optional(),
  logging_steps: z.number().optional(),
  epoch: z.number().nullable().optional(),
}).passthrough();
export type TrainerState = z.infer<typeof TrainerState>;

function jsonError(file: string, text: string, e: Error): Error {
  // Node 20: "… in JSON at position N"; later: "… (line L column C)"
  const pos = /position (\d+)/.exec(e.message);
  const line = pos ? text.slice(0, Number(pos[1])).split("\n").length : Number(/line (\d+)/.exec(e.message)?.[1] ?? 0) || null;
  return new Error(`${file}${line ? `:${line}` : ""}: not valid JSON: ${e.message}`);
}

/** Reads and validates a trainer_state.json; errors are `file:line: path: message`. */
export function readTrainerState(file: string): TrainerState {
  const text = readFileSync(file, "utf8");
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw jsonError(file, text, e as Error);
  }
  const r = TrainerState.safeParse(raw);
  if (!r.success) throw new Error(`${file} is not a trainer_state.json as transformers writes it:\n${describeIssues(file, text, r.error.issues)}`);
  return r.data;
}

// ---------------------------------------------------------------------------------------------
// names

/**
 * Default names: TRL's (GRPOTrainer, the experimental SDPOTrainer) and the lab's StepMetrics fields onto
 * one vocabulary. TensorBoard tags lose transformers' `train/` prefix first (`eval/x` becomes `eval_x`,
 * as in log_history); names not listed stay as they are.
 */
export const DEFAULT_METRIC_NAMES: Readonly<Record<string, string>> = {
  // reward
  "self_distillation/reward_mean": "reward",
  "self_distillation/reward_std": "reward_std",
  reward_mean: "reward", // lab
  // KL to the reference policy
  kl: "kl",
  // the total loss
  loss_total: "loss", // lab
  // SDPO / self-distillation loss
  "self_distillation/distillation_loss": "distillation_loss",
  loss_sdpo: "distillation_loss", // lab
  "self_distillation/policy_loss": "policy_loss",
  loss_grpo: "policy_loss", // lab
  loss_dpo: "dpo_loss", // lab
  loss_lm_ce: "lm_ce_loss", // lab
  // TRL's self_distillation/* fractions (the lab logs the same quantities under these names)
  "self_distillation/success_group_fraction": "success_group_fraction",
  "self_distillation/success_sample_fraction": "success_sample_fraction",
  "self_distillation/feedback_available_fraction": "feedback_available_fraction",
  "self_distillation/feedback_used_fraction": "feedback_used_fraction",
  "self_distillation/reprompt_sample_fraction": "reprompt_sample_fraction",
  "completions/mean_length": "completion_length",
};

function normalizeTag(tag: string): string {
  if (tag.startsWith("train/")) return tag.slice(6);
  if (tag.startsWith("eval/")) return `eval_${tag.slice(5)}`;
  if (tag.startsWith("test/")) return `test_${tag.slice(5)}`;
  return tag;
}

// ---------------------------------------------------------------------------------------------
// loadRun

export type RunSource = "trainer_state" | "tensorboard" | "lab";
/** One row of the long table loadRun returns. `tag` is the name as the file wrote it. */
export interface RunRow {
  run: string;
  source: RunSource;
  step: number;
  metric: string;
  value: number;
  wall_time: number | null;
  tag: string;
}

export interface LoadRunOptions {
  /** The run column (default: the folder's name, or the file's parent folder). */
  run?: string;
  /** Extra names (raw or normalized name → metric), applied over DEFAULT_METRIC_NAMES; `false` keeps every name as written. */
  names?: Record<string, string> | false;
  /** Which sources of a folder to read (default: all found). */
  sources?: readonly RunSource[];
}

const EVENT_FILE = /^events\.out\.tfevents\./;

/** The files loadRun reads from `path`: a file is taken for what its name says; a folder is searched (a few levels deep). */
export function findRunFiles(path: string): { source: RunSource; file: string }[] {
  if (!existsSync(path)) throw new Error(`${path}: no such file or folder`);
  const kind = (f: string): RunSource | null => {
    const b = basename(f);
    return b === "trainer_state.json" ? "trainer_state" : EVENT_FILE.test(b) ? "tensorboard" : b === "metrics.jsonl" ? "lab" : null;
  };
  if (!statSync(path).isDirectory()) {
    const k = kind(path) ?? (/\.jsonl$/.test(path) ? "lab" : /\.json$/.test(path) ? "trainer_state" : null);
    if (!k) throw new Error(`${path}: not a trainer_state.json, a TensorBoard event file (events.out.tfevents.*) or a metrics.jsonl`);
    return [{ source: k, file: path }];
  }
  const found: { source: RunSource; file: string }[] = [];
  const walk = (dir: string, depth: number) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) { if (depth < 4 && e.name !== "node_modules" && !e.name.startsWith(".")) walk(p, depth + 1); }
      else { const k = kind(p); if (k) found.push({ source: k, file: p }); }
    }
  };
  walk(path, 0);
  // HF checkpoints each hold a trainer_state.json with the history so far: keep the top-level one, else the longest
  const states = found.filter((f) => f.source === "trainer_state");
  if (states.length > 1) {
    const top = states.find((f) => f.file === join(path, "trainer_state.json"));
    const keep = top ?? states.map((f) => ({ f, n: readTrainerState(f.file).global_step })).sort((a, b) => b.n - a.n)[0]!.f;
    return found.filter((f) => f.source !== "trainer_state" || f === keep);
  }
  if (!found.length) throw new Error(`${path}: no trainer_state.json, TensorBoard event file or metrics.jsonl in this folder (searched 4 levels down)`);
  return found;
}

function readLabMetrics(file: string): StepMetrics[] {
  return readFileSync(file, "utf8").split("\n").flatMap((line, i) => {
    if (!line.trim()) return [];
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (e) {
      throw new Error(`${file}:${i + 1}: not valid JSON: ${(e as Error).message}`);
    }
    const r = StepMetrics.safeParse(raw);
    if (!r.success) throw new Error(`${file}:${i + 1}: ${r.error.issues[0]!.path.join(".")}: ${r.error.issues[0]!.message}`);
    return [r.data];
  });
}

/** The rows of one file, names as written (tag) and normalized (metric, before the name map). */
function rowsOf(source: RunSource, file: string): Omit<RunRow, "run">[] {
  if (source === "tensorboard") {
    return readEventFile(file).scalars.map((s) => ({ source, step: s.step, metric: normalizeTag(s.tag), value: s.value, wall_time: s.wall_time, tag: s.tag }));
  }
  if (source === "trainer_state") {
    return readTrainerState(file).log_history.flatMap((e) =>
      Object.entries(e).filter(([k, v]) => k !== "step" && typeof v === "number").map(([k, v]) => ({ source, step: e.step, metric: k, value: v as number, wall_time: null, tag: k })));
  }
  return readLabMetrics(file).flatMap((m) => {
    const flat: [string, unknown][] = Object.entries(m).filter(([k]) => k !== "step" && k !== "hint_layers" && k !== "curriculum" && k !== "heldout");
    if (m.heldout) flat.push(["heldout_greedy_reward", m.heldout.heldout], ["train_proxy_greedy_reward", m.heldout.proxy]);
    return flat.filter((kv): kv is [string, number] => typeof kv[1] === "number" && Number.isFinite(kv[1]))
      .map(([k, v]) => ({ source, step: m.step, metric: k, value: v, wall_time: null, tag: k }));
  });
}

/**
 * A run as one long arquero table: columns run, source ("trainer_state" | "tensorboard" | "lab"), step,
 * metric (normalized), value, wall_time (seconds since the epoch; null where the source has none), tag
 * (the name as written). `path` is a file or a run folder (TRL output_dir, a TensorBoard log dir, a lab
 * run dir); a folder with both trainer_state.json and event files gives both, told apart by `source`.
 * Event files in several folders (or several metrics.jsonl) are several runs, `run/<relative folder>`.
 */
export function loadRun(path: string, opts: LoadRunOptions = {}): Table {
  const files = findRunFiles(path).filter((f) => !opts.sources || opts.sources.includes(f.source));
  const run = opts.run ?? (statSync(path).isDirectory() ? basename(path) : basename(join(path, "..")));
  const names = opts.names === false ? {} : { ...DEFAULT_METRIC_NAMES, ...(opts.names ?? {}) };
  // As TensorBoard does: each folder holding event files is a run. One such folder (or one lab
  // metrics.jsonl) is this run; several are `run/<folder relative to path>` each.
  const runOf = new Map<string, string>();
  if (statSync(path).isDirectory()) {
    for (const source of ["tensorboard", "lab"] as const) {
      const dirs = [...new Set(files.filter((f) => f.source === source).map((f) => dirname(f.file)))];
      if (dirs.length > 1) for (const d of dirs) runOf.set(`${source}:${d}`, `${run}/${relative(path, d) || "."}`);
    }
  }
  const rows: RunRow[] = files.flatMap(({ source, file }) => rowsOf(source, file).map((r) => ({
    ...r, run: runOf.get(`${source}:${dirname(file)}`) ?? run, metric: (Object.hasOwn(names, r.tag) ? names[r.tag] : Object.hasOwn(names, r.metric) ? names[r.metric] : undefined) ?? r.metric,
  })));
  const cols = ["run", "source", "step", "metric", "value", "wall_time", "tag"] as const;
  return aq.table(Object.fromEntries(cols.map((c) => [c, rows.map((r) => r[c])])));
}

/** Several runs in one table (each loadRun'd; `runs` maps a run name to its path). */
export function loadRuns(runs: Record<string, string>, opts: Omit<LoadRunOptions, "run"> = {}): Table {
  const tables = Object.entries(runs).map(([run, path]) => loadRun(path, { ...opts, run }));
  return tables.slice(1).reduce((a, t) => a.concat(t), tables[0]!);
}

/**
 * One line chart per metric, one line per (run, source) that has it, in the order the table lists them;
 * a metric no run has is left out. x is the step.
 */
export function runFigures(table: Table, metrics: readonly string[], opts: { titles?: Record<string, string> } = {}): Figure[] {
  const rows = table.objects() as unknown as RunRow[];
  // one look per (run, source) across all the figures, in table order
  const keys = [...new Set(rows.map((r) => `${r.run} (${r.source})`))];
  return metrics.flatMap((metric) => {
    const series: Record<string, Series> = {};
    for (const r of rows.filter((x) => x.metric === metric)) {
      const key = `${r.run} (${r.source})`;
      (series[key] ??= { x: [], y: [] }).x.push(r.step);
      series[key]!.y.push(r.value);
    }
    if (!Object.keys(series).length) return [];
    for (const s of Object.values(series)) {
      const order = s.x.map((_, i) => i).sort((a, b) => s.x[a]! - s.x[b]!);
      s.x = order.map((i) => s.x[i]!);
      s.y = order.map((i) => s.y[i]!);
    }
    const fig = lineChart(series, { title: opts.titles?.[metric] ?? metric, xTitle: "step", yTitle: metric });
    fig.layout.showlegend = true; // which run and source, also when only one has the metric
    for (const d of fig.data) {
      const st = seriesStyle(keys.indexOf(String(d.name)));
      d.line = { ...(d.line as object), color: st.color, dash: st.dash };
      d.marker = { ...(d.marker as object), color: st.color, symbol: st.symbol };
    }
    return [fig];
  });
}
