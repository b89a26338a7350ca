/** `composer-lab collate`: traces + the hint generator → SDPO rows, DPO pairs and SFT rows (JSONL). */
import type { Command } from "commander";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { collateSdpo, dpoPairsFromTraces, sftRows, writeRows, DpoPair, SdpoRow, SftRow } from "../../collate/index.js";
import { buildFromConfig, defaultLayered, loadHintsConfig } from "../../hints/index.js";
import { collect } from "../../traces/index.js";
import { BOS, decode, encode } from "../../train/index.js";
import { fromRows, tableText } from "../../viz/index.js";
import { jsonOpt } from "../options.js";
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
    .option("--max-len <n>", "SFT window length in tokens", "512")
    .option("--only-clean", "SFT rows only from chains without an unrecovered error")
    .addOption(jsonOpt())
    .action(async (paths: string[], o: { out: string; config?: string; maxLen: string; onlyClean?: boolean; json?: boolean }) => {
      const maxLen = Number(o.maxLen);
      if (!Number.isInteger(maxLen) || maxLen < 16) throw new Error(`--max-len ${o.maxLen}: a whole number ≥ 16`);
      const generator = o.config ? buildFromConfig(loadHintsConfig(o.config)) : defaultLayered();
      const { sessions, issues } = await collect(paths);
      const sdpo = await collateSdpo(sessions, generator, byteTokenizer);
      const dpo = dpoPairsFromTraces(sessions, byteTokenizer);
      const sft = sftRows(sessions, byteTokenizer, { maxLen, onlyClean: !!o.onlyClean });
      mkdirSync(o.out, { recursive: true });
      const files = { sdpo: join(o.out, "sdpo.jsonl"), dpo: join(o.out, "dpo.jsonl"), sft: join(o.out, "sft.jsonl") };
      await writeRows(files.sdpo, sdpo.rows, SdpoRow);
      await writeRows(files.dpo, dpo, DpoPair);
      await writeRows(files.sft, sft, SftRow);
      const counts = { sessions: sessions.length, sites: sdpo.sites, sdpo_rows: sdpo.rows.length, dpo_pairs: dpo.length, sft_rows: sft.length };
      emit(!!o.json, { ok: true, ...counts, skipped: sdpo.skipped, by_layer: sdpo.byLayer, ingest_issues: issues.length, files }, () =>
        [tableText(fromRows([counts])), `SDPO skipped: ${JSON.stringify(sdpo.skipped)}; by layer: ${JSON.stringify(sdpo.byLayer)}`, `wrote ${Object.values(files).join(", ")}`].join("\n"),
      );
    });
}
