/**
 * `collate` over corpora larger than memory: sessions stream in from lib/traces' ingest(), each is
 * turned into its SDPO rows, DPO pairs and SFT rows, and those are appended to their files before
 * the next sessions are read. Memory is bounded by the few sessions in flight (hint requests of the
 * next sessions overlap the writing of the current one), not by the corpus.
 */
import type { IngestedSession } from "../traces/index.js";
import { dpoPairsFromTraces, type TracePairOptions } from "./dpo.js";
import { RowWriter } from "./jsonl.js";
import { DpoPair, SdpoRow, SftRow, type Tokenizer } from "./schema.js";
import { collateSdpo, SKIP_REASONS, type HintSource, type SdpoOptions, type SdpoResult, type SkipReason } from "./sdpo.js";
import { sftRows, type SftOptions } from "./sft.js";

export interface CollateFiles {
  sdpo: string;
  dpo: string;
  sft: string;
}

export interface CollateStreamOptions {
  sdpo?: SdpoOptions;
  dpo?: TracePairOptions;
  sft?: SftOptions;
  /** Sessions whose hints are being generated while earlier ones are written (default 2). */
  lookahead?: number;
  /** Called after each session is written (for progress). */
  onSession?: (done: number) => void;
}

export interface CollateCounts {
  sessions: number;
  sites: number;
  sdpo_rows: number;
  dpo_pairs: number;
  sft_rows: number;
  skipped: Record<SkipReason, number>;
  by_layer: SdpoResult["byLayer"];
  errors: SdpoResult["errors"];
}

/** Streams sessions into sdpo.jsonl, dpo.jsonl and sft.jsonl (each validated by its schema). */
export async function collateToFiles(
  sessions: AsyncIterable<IngestedSession> | Iterable<IngestedSession>,
  generator: HintSource,
  tokenizer: Tokenizer,
  files: CollateFiles,
  opts: CollateStreamOptions = {},
): Promise<CollateCounts> {
  const writers = { sdpo: new RowWriter(files.sdpo, SdpoRow), dpo: new RowWriter(files.dpo, DpoPair), sft: new RowWriter(files.sft, SftRow) };
  const counts: CollateCounts = {
    sessions: 0, sites: 0, sdpo_rows: 0, dpo_pairs: 0, sft_rows: 0, by_layer: {}, errors: [],
    skipped: Object.fromEntries(SKIP_REASONS.map((r) => [r, 0])) as Record<SkipReason, number>,
  };
  const lookahead = Math.max(1, opts.lookahead ?? 2);
  const inFlight: { s: IngestedSession; sdpo: Promise<SdpoResult> }[] = [];
  const drain = async () => {
    const { s, sdpo } = inFlight.shift()!;
    const r = await sdpo;
    for (const row of r.rows) await writers.sdpo.write(row);
    for (const pair of dpoPairsFromTraces([s], tokenizer, opts.dpo)) await writers.dpo.write(pair);
    for (const row of sftRows([s], tokenizer, opts.sft)) await writers.sft.write(row);
    counts.sessions++;
    counts.sites += r.sites;
    for (const k of SKIP_REASONS) counts.skipped[k] += r.skipped[k];
    for (const [layer, n] of Object.entries(r.byLayer)) counts.by_layer[layer as keyof SdpoResult["byLayer"]] = (counts.by_layer[layer as keyof SdpoResult["byLayer"]] ?? 0) + n;
    counts.errors.push(...r.errors);
    opts.onSession?.(counts.sessions);
  };
  try {
    for await (const s of sessions) {
      inFlight.push({ s, sdpo: collateSdpo([s], generator, tokenizer, opts.sdpo) });
      if (inFlight.length >= lookahead) await drain();
    }
    while (inFlight.length) await drain();
    counts.sdpo_rows = await writers.sdpo.close();
    counts.dpo_pairs = await writers.dpo.close();
    counts.sft_rows = await writers.sft.close();
  } catch (e) {
    await Promise.all(Object.values(writers).map((w) => w.abort()));
    throw e;
  }
  return counts;
}
