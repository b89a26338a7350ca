/**
 * The lab's data in the dataset formats TRL's trainers read as they are
 * (huggingface.co/docs/trl/dataset_formats), one dataset per kind, each as JSONL and Parquet with
 * a dataset card (README.md, whose `configs` front matter `datasets.load_dataset(DIR, name)` reads):
 *
 * | dataset | from | columns (TRL's names) | trainer |
 * |---|---|---|---|
 * | sft  | the run's sft_corpus (clean wins only) | `messages` (conversational) | SFTTrainer |
 * | dpo  | the run's dpo_pairs | `prompt`, `chosen`, `rejected` (conversational, explicit prompt) | DPOTrainer |
 * | grpo | the run's rl_task_pool, each task's prompt | `prompt` (conversational, prompt-only) + `task_id`, `pool_ref` for a reward function | GRPOTrainer |
 * | sdpo | a `collate` output's sdpo.jsonl | `prompt`, `completion`, `privileged_context` (the hint) | self-distillation trainers |
 *
 * Every row carries its provenance: where it came from (`source`), the OUTER round and node, the
 * models, and, where the lab knows it, the hack verdict (sft_corpus holds only rows that passed
 * every test and the hack monitor).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import type { DataType } from "apache-arrow";
import { z } from "zod";
import { FeatureDeletionEnvironment } from "../env/index.js";
import type { Sandbox } from "../sandbox/index.js";
import { openStore, RunLayout } from "../store/index.js";

/** The export renders prompts and never runs anything: a sandbox that refuses to. */
const NO_RUNS: Sandbox = {
  name: "none",
  run: () => Promise.reject(new Error("export trl renders prompts only: nothing runs")),
  check: async () => ({ ok: false, why: "export trl runs nothing" }),
};

/** A chat message as TRL's conversational format has it (tool calls in the OpenAI shape). */
export const TrlMessage = z.object({
  role: z.string(),
  content: z.string(),
  tool_calls: z.array(z.object({ id: z.string(), type: z.string(), function: z.object({ name: z.string(), arguments: z.string() }) })).optional(),
  tool_call_id: z.string().optional(),
  name: z.string().optional(),
});
export type TrlMessage = z.infer<typeof TrlMessage>;

const Provenance = {
  source: z.string(),
  round: z.number().int().nullable(),
  node_id: z.string().nullable(),
  models: z.array(z.string()),
  hack_verdict: z.string().nullable(),
};
export const TrlSftRow = z.object({ id: z.string(), messages: z.array(TrlMessage).min(1), task_id: z.string().nullable(), reward: z.number(), ...Provenance });
export const TrlDpoRow = z.object({ id: z.string(), prompt: z.array(TrlMessage), chosen: z.array(TrlMessage).length(1), rejected: z.array(TrlMessage).length(1), task_id: z.string().nullable(), ...Provenance });
export const TrlGrpoRow = z.object({ id: z.string(), prompt: z.array(TrlMessage).min(1), task_id: z.string(), pool_ref: z.string().nullable(), difficulty_prior: z.number(), ...Provenance });
export const TrlSdpoRow = z.object({ id: z.string(), prompt: z.array(TrlMessage).min(1), completion: z.array(TrlMessage).length(1), privileged_context: z.string(), hint_layer: z.string(), error_kind: z.string(), task_id: z.string().nullable(), session_id: z.string().nullable(), ...Provenance });

const require = createRequire(import.meta.url);
type Arrow = typeof import("apache-arrow");
type Parquet = typeof import("parquet-wasm");
/** Arrow and parquet-wasm (≈ 0.7 s of CPU to load) only when a Parquet file is written, not by every
 *  process that imports lib/export (the tasks and grade commands do). */
const parquetLibs = (): { arrow: Arrow; parquet: Parquet } => ({ arrow: require("apache-arrow") as Arrow, parquet: require("parquet-wasm") as Parquet });

/** Arrow types of the columns (Parquet): messages as list<struct>, optional fields nullable. */
function columnTypes({ Field, List, Struct, Utf8, Float64, Int32 }: Arrow): Record<string, () => DataType> {
  const messageType = new Struct([
    new Field("role", new Utf8(), false),
    new Field("content", new Utf8(), false),
    new Field("tool_calls", new List(new Field("item", new Struct([
      new Field("id", new Utf8(), false), new Field("type", new Utf8(), false),
      new Field("function", new Struct([new Field("name", new Utf8(), false), new Field("arguments", new Utf8(), false)]), false),
    ]), false)), true),
    new Field("tool_call_id", new Utf8(), true),
    new Field("name", new Utf8(), true),
  ]);
  const messages = () => new List(new Field("item", messageType, false));
  const str = () => new Utf8();
  return {
    id: str, messages, prompt: messages, chosen: messages, rejected: messages, completion: messages,
    task_id: str, session_id: str, pool_ref: str, privileged_context: str, hint_layer: str, error_kind: str,
    reward: () => new Float64(), difficulty_prior: () => new Float64(), round: () => new Int32(), node_id: str,
    models: () => new List(new Field("item", new Utf8(), false)), source: str, hack_verdict: str,
  };
}

/** A Parquet file of rows (snappy), through Arrow: nested columns stay nested. */
export function toParquet(rows: Record<string, unknown>[], columns: string[]): Uint8Array {
  const { arrow, parquet } = parquetLibs();
  const COLUMN_TYPES = columnTypes(arrow);
  const fill = (m: TrlMessage) => ({ role: m.role, content: m.content, tool_calls: m.tool_calls ?? null, tool_call_id: m.tool_call_id ?? null, name: m.name ?? null });
  const vectors = Object.fromEntries(columns.map((c) => {
    const type = COLUMN_TYPES[c];
    if (!type) throw new Error(`toParquet: no column type for "${c}"`);
    const values = rows.map((r) => (Array.isArray(r[c]) && typeof (r[c] as unknown[])[0] === "object" ? (r[c] as TrlMessage[]).map(fill) : (r[c] ?? null)));
    return [c, arrow.vectorFromArray(values, type())];
  }));
  const table = parquet.Table.fromIPCStream(arrow.tableToIPC(new arrow.Table(vectors), "stream"));
  return parquet.writeParquet(table, new parquet.WriterPropertiesBuilder().setCompression(parquet.Compression.SNAPPY).build());
}

/** JSONL as TRL's loaders read it: absent optional message fields are left out, not null. */
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + (rows.length ? "\n" : "");

type StoreMessage = { role: string; content: string; tool_calls?: { id: string; type?: string; function: { name: string; arguments: string } }[]; tool_call_id?: string; name?: string };
const trlMessage = (m: StoreMessage): TrlMessage => {
  const t = m.tool_calls?.map((c) => ({ id: c.id, type: c.type ?? "function", function: c.function }));
  return { role: m.role, content: m.content, ...(t?.length ? { tool_calls: t } : {}), ...(m.tool_call_id ? { tool_call_id: m.tool_call_id } : {}), ...(m.name ? { name: m.name } : {}) };
};

/** The sdpo.jsonl rows of `composer-lab collate` (read loosely: the fields the export needs). */
const CollatedSdpo = z.object({ id: z.string(), session_id: z.string(), error_kind: z.string(), layer: z.string(), hint: z.string().min(1), student_prompt: z.string(), completion: z.string().min(1), task_id: z.string().nullable().optional() }).passthrough();

export interface TrlExportOptions {
  /** Store URI (folder or s3://bucket/prefix) and run id: sft, dpo and grpo come from the run. */
  store?: string;
  run?: string;
  /** A `collate` output folder: sdpo comes from its sdpo.jsonl. */
  collated?: string;
  out: string;
  /** The GRPO prompt's completion form (the lab's FD environment): a unified diff or a function body. */
  completion?: "diff" | "body";
  /** A task pool folder for the GRPO prompts, when the entries' own pool refs do not resolve. */
  pool?: string;
}

export const TRL_DATASETS = ["sft", "dpo", "grpo", "sdpo"] as const;
export type TrlDataset = (typeof TRL_DATASETS)[number];
export interface TrlExportResult {
  out: string;
  datasets: Record<TrlDataset, { rows: number; jsonl: string | null; parquet: string | null; columns: string[]; trainer: string; source: string }>;
  card: string;
}

const TRAINER: Record<TrlDataset, string> = { sft: "SFTTrainer", dpo: "DPOTrainer", grpo: "GRPOTrainer", sdpo: "self-distillation (prompt + privileged_context)" };
const SCHEMA: Record<TrlDataset, z.ZodObject<z.ZodRawShape>> = { sft: TrlSftRow, dpo: TrlDpoRow, grpo: TrlGrpoRow, sdpo: TrlSdpoRow };

/** Exports what the run (and the collate output) hold; a dataset with no rows is listed with 0 rows and no files. */
export async function exportTrl(opts: TrlExportOptions): Promise<TrlExportResult> {
  if (!opts.collated && !(opts.store && opts.run)) throw new Error("export trl: give --store and --run (sft, dpo, grpo) and/or --collated DIR (sdpo)");
  const rows: Record<TrlDataset, Record<string, unknown>[]> = { sft: [], dpo: [], grpo: [], sdpo: [] };
  const sources: Record<TrlDataset, string> = { sft: "", dpo: "", grpo: "", sdpo: "" };
  if (opts.store && opts.run) {
    const run = new RunLayout(openStore(opts.store), opts.run);
    const where = `${run.store.uri}/${run.prefix}`;
    const counts = await run.counts();
    if (Object.values(counts).every((n) => n === 0)) throw new Error(`export trl: ${where} has no items in any section (is the run id right?)`);
    const prov = (x: { round?: number; node_id?: string; models?: string[] }, source: string, verdict: string | null) => ({ source, round: x.round ?? null, node_id: x.node_id ?? null, models: x.models ?? [], hack_verdict: verdict });
    sources.sft = `${where}/sft_corpus`;
    rows.sft = (await run.read("sft_corpus")).map((x) => ({ id: x.id, messages: x.messages.map(trlMessage), task_id: x.task_id ?? null, reward: x.reward, ...prov(x, sources.sft, "clean") }));
    sources.dpo = `${where}/dpo_pairs`;
    rows.dpo = (await run.read("dpo_pairs")).map((x) => ({
      id: x.id, prompt: x.state_messages.map(trlMessage), chosen: [{ role: "assistant", content: x.chosen }], rejected: [{ role: "assistant", content: x.rejected }],
      task_id: x.task_id ?? null, ...prov(x, `${sources.dpo}${x.source ? ` (${x.source})` : ""}`, null),
    }));
    const pool = await run.read("rl_task_pool");
    sources.grpo = `${where}/rl_task_pool`;
    if (pool.length) {
      const env = await FeatureDeletionEnvironment.open({ sandbox: NO_RUNS, store: opts.store, run_id: opts.run, completion: opts.completion ?? "diff", pool: opts.pool });
      const byId = new Map(env.splits().train.map((t) => [t.task_id, t]));
      rows.grpo = pool.map((e) => {
        const task = byId.get(e.task_id);
        if (!task) throw new Error(`export trl: ${sources.grpo} entry ${e.id}: task ${e.task_id} did not load`);
        return { id: e.id, prompt: env.prompt(task).map(trlMessage), task_id: e.task_id, pool_ref: typeof e.pool === "string" ? e.pool : null, difficulty_prior: e.difficulty_prior, ...prov(e as { round?: number }, sources.grpo, null) };
      });
    }
  }
  if (opts.collated) {
    const file = join(opts.collated, "sdpo.jsonl");
    if (!existsSync(file)) throw new Error(`export trl: ${file} does not exist (write it with \`composer-lab collate TRACES --out ${opts.collated}\`)`);
    sources.sdpo = file;
    rows.sdpo = readFileSync(file, "utf8").split("\n").flatMap((line, i) => {
      if (!line.trim()) return [];
      const r = CollatedSdpo.safeParse(JSON.parse(line));
      if (!r.success) throw new Error(`${file}:${i + 1}: ${r.error.issues[0]!.path.join(".")}: ${r.error.issues[0]!.message}`);
      const x = r.data;
      return [{
        id: x.id, prompt: [{ role: "user", content: x.student_prompt }], completion: [{ role: "assistant", content: x.completion }], privileged_context: x.hint,
        hint_layer: x.layer, error_kind: x.error_kind, task_id: x.task_id ?? null, session_id: x.session_id, source: file, round: null, node_id: null, models: [], hack_verdict: null,
      }];
    });
  }

  mkdirSync(opts.out, { recursive: true });
  const datasets = {} as TrlExportResult["datasets"];
  for (const name of TRL_DATASETS) {
    const list = rows[name];
    const columns = Object.keys(SCHEMA[name].shape);
    for (const [i, r] of list.entries()) {
      const p = SCHEMA[name].safeParse(r);
      if (!p.success) throw new Error(`export trl: ${name} row ${i} (${String(r.id)}): ${p.error.issues[0]!.path.join(".")}: ${p.error.issues[0]!.message}`);
    }
    let jsonlPath: string | null = null;
    let parquetPath: string | null = null;
    if (list.length) {
      mkdirSync(join(opts.out, name), { recursive: true });
      jsonlPath = join(opts.out, name, "train.jsonl");
      parquetPath = join(opts.out, name, "train.parquet");
      writeFileSync(jsonlPath, jsonl(list));
      writeFileSync(parquetPath, toParquet(list, columns));
    }
    datasets[name] = { rows: list.length, jsonl: jsonlPath, parquet: parquetPath, columns, trainer: TRAINER[name], source: sources[name] };
  }
  const card = join(opts.out, "README.md");
  writeFileSync(card, datasetCard(datasets, opts));
  return { out: opts.out, datasets, card };
}

/** The dataset card: `configs` front matter (one config per dataset, its Parquet file), counts,
 *  columns, provenance. */
function datasetCard(d: TrlExportResult["datasets"], opts: TrlExportOptions): string {
  const present = TRL_DATASETS.filter((n) => d[n].rows > 0);
  const front = ["---", "configs:", ...present.flatMap((n) => [`- config_name: ${n}`, "  data_files:", "  - split: train", `    path: ${n}/train.parquet`]), "tags:", "- composer-lab", "- trl", "---"];
  const rows = TRL_DATASETS.map((n) => `| ${n} | ${d[n].rows} | ${d[n].trainer} | ${d[n].columns.map((c) => `\`${c}\``).join(", ")} | ${d[n].source || "(not exported)"} |`);
  return [
    ...front, "",
    `# composer-lab export${opts.run ? ` of run \`${opts.run}\`` : ""}`, "",
    "Datasets in the formats TRL's trainers read as they are (conversational messages: `role`, `content`,",
    "and `tool_calls` / `tool_call_id` / `name` where a message has them). Each folder holds `train.jsonl` and",
    "`train.parquet` with the same rows. Load one with `datasets.load_dataset(\"<this folder>\", \"<config>\")`.", "",
    "| config | rows | trainer | columns | from |", "|---|---|---|---|---|", ...rows, "",
    "## Provenance", "",
    "- `source`: the store section (or the collate file) each row came from; `round`, `node_id`, `models`: the OUTER",
    "  round, tree node and policies that produced it, where the store recorded them.",
    "- `hack_verdict`: `clean` for sft rows (the store's sft_corpus only takes rollouts that passed every test and",
    "  the hack monitor); null where the lab does not know it per row (a DPO pair's rejected side may have failed",
    "  for any reason).",
    "- grpo rows: `task_id` and `pool_ref` name the task a reward function grades (`composer-lab env serve`'s",
    "  reward endpoint, or the lab's `makeRewardFn`); the prompt is the lab's feature-deletion prompt",
    `  (completion form: ${opts.completion ?? "diff"}).`,
    "- sdpo rows: `privileged_context` is the hint the teacher sees (`hint_layer`: which hint layer gave it), the",
    "  student sees `prompt` only; `completion` is the recovery that followed the error.",
    "",
  ].join("\n");
}
