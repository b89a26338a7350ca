/** `composer-lab export …`: the lab's data in other trainers' formats. */
import { Option, type Command } from "commander";
import { exportTrl } from "../../export/index.js";
import { emit, jsonOpt } from "../output.js";

export function registerExport(program: Command): void {
  const ex = program.command("export").description("the lab's data in the formats other trainers read: TRL datasets (JSONL + Parquet, a dataset card)");
  ex.command("trl")
    .description("a store run (sft_corpus → sft, dpo_pairs → dpo, rl_task_pool → grpo prompts) and a collate output (sdpo.jsonl → sdpo) as TRL datasets: JSONL + Parquet per dataset, and a dataset card")
    .option("--store <uri>", "store (folder or s3://bucket/prefix) holding the run")
    .option("--run <id>", "run id")
    .option("--collated <dir>", "a `composer-lab collate` output folder (its sdpo.jsonl becomes the sdpo dataset)")
    .requiredOption("--out <dir>", "output folder")
    .addOption(new Option("--completion <form>", "the GRPO prompt's completion form").choices(["diff", "body"]).default("diff"))
    .option("--pool <dir>", "task pool for the GRPO prompts (default: each rl_task_pool entry's own pool)")
    .addOption(jsonOpt())
    .action(async (o: { store?: string; run?: string; collated?: string; out: string; completion: "diff" | "body"; pool?: string; json?: boolean }) => {
      const r = await exportTrl(o);
      const counts = Object.fromEntries(Object.entries(r.datasets).map(([k, v]) => [k, v.rows]));
      emit(!!o.json, { ok: true, out: r.out, card: r.card, rows: counts, datasets: r.datasets }, () =>
        [`wrote ${r.out}: ${Object.entries(counts).map(([k, n]) => `${k} ${n}`).join(", ")} rows (JSONL + Parquet), card ${r.card}`].join("\n"),
      );
    });
}
