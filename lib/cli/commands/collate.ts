/** `composer-lab collate`: traces + the hint generator → SDPO rows, DPO pairs and SFT rows (JSONL). */
import type { Command } from "commander";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { collateToFiles } from "../../collate/index.js";
import { loadConfigFile, progress } from "../../core/index.js";
import { buildFromConfig, defaultLayered, loadHintsConfig } from "../../hints/index.js";
import { ingest, TextErrorConfig } from "../../traces/index.js";
import { BOS, decode, encode } from "../../train/index.js";
import { fromRows, tableText } from "../../viz/index.js";
import { jsonOpt } from "../options.js";
import { wholeNumber } from "../args.js";
import { emit } from "../output.js";

/** The trainer's byte tokenizer, as the collator's Tokenizer. */
const byteTokenizer = { encode: (t: string) => encode(t), decode, bos: BOS };

export function registerCollate(program: Command): void {
  program
    .command("collate")
    .description("trace files → sdpo.jsonl (hint-conditioned teacher rows), dpo.jsonl (failed action vs recovery) and sft.jsonl (assistant-masked) for `train` (sft.data / dpo.data)")
    .argument("<traces...>", "trace files or folders")
    .requiredOption("--out <dir>", "output folder")
    .option("--config <file>", "hints config (JSON or YAML); default: templates → raw error → sibling")
    .option("--max-len <n>", "SFT window length in tokens", wholeNumber(16), 512)
    .option("--only-clean", "SFT rows only from chains without an unrecovered error")
    .option("--text-errors <file>", "error rules for trace results without an is_error flag (as for `traces summarize`)")
    .option("--no-subagents", "leave out subagent turns (Claude Code transcripts folded into their parent session)")
    .addOption(jsonOpt())
    .action(async (paths: string[], o: { out: string; config?: string; maxLen: number; onlyClean?: boolean; textErrors?: string; json?: boolean; subagents: boolean }) => {
      const generator = o.config ? buildFromConfig(loadHintsConfig(o.config)) : defaultLayered();
      // Streams: one session at a time from the traces to the three files (memory bounded by the
      // largest session, not the corpus).
      let bar: ReturnType<typeof progress> | undefined; // sized by the first source read
      let issues = 0;
      mkdirSync(o.out, { recursive: true });
      const files = { sdpo: join(o.out, "sdpo.jsonl"), dpo: join(o.out, "dpo.jsonl"), sft: join(o.out, "sft.jsonl") };
      const c = await collateToFiles(
        ingest(paths, { textErrors: o.textErrors ? loadConfigFile(o.textErrors, TextErrorConfig) : undefined, subagents: o.subagents ? "include" : "exclude", onIssue: () => void issues++, onFile: (f, _done, total) => (bar ??= progress(total, "collate")).tick(1, f.split("/").pop()) }),
        generator, byteTokenizer, files, { sft: { maxLen: o.maxLen, onlyClean: !!o.onlyClean } },
      );
      bar?.stop();
      const counts = { sessions: c.sessions, sites: c.sites, sdpo_rows: c.sdpo_rows, dpo_pairs: c.dpo_pairs, sft_rows: c.sft_rows };
      const sdpo = { skipped: c.skipped, byLayer: c.by_layer };
      emit(!!o.json, { ok: true, ...counts, skipped: sdpo.skipped, by_layer: sdpo.byLayer, ingest_issues: issues, files }, () =>
        [tableText(fromRows([counts])), `SDPO skipped: ${JSON.stringify(sdpo.skipped)}; by layer: ${JSON.stringify(sdpo.byLayer)}`, `wrote ${Object.values(files).join(", ")}`].join("\n"),
      );
    });
}
