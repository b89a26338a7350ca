/**
 * lib/collate: trace sessions + a hint generator → token rows for the trainer (lib/train): SDPO rows
 * (student/teacher prompts differing by the spliced hint), DPO pairs, SFT rows masked to assistant
 * tokens, batching and JSONL. It takes a Tokenizer rather than importing lib/train (no cycle).
 */
export { SdpoRow, DpoPair, DpoSource, SftRow, type Tokenizer, type Seq } from "./schema.js";
export { collateSdpo, sdpoSequences, SKIP_REASONS, type SdpoOptions, type SdpoResult, type SkipReason, type HintSource } from "./sdpo.js";
export { dpoPairsFromGroup, dpoPairsFromTraces, ACTION_ERROR_KINDS, type GroupOptions, type TracePairOptions } from "./dpo.js";
export { sftRows, sftRowsFromPairs, type SftOptions } from "./sft.js";
export { padBatch, promptCompletion, leftTruncate, completionBudget, type Batch } from "./batch.js";
export { writeRows, readRows, RowWriter } from "./jsonl.js";
export { collateToFiles, type CollateFiles, type CollateStreamOptions, type CollateCounts } from "./stream.js";
export { assistantBody, conversationSegments, erroringTurn, failedTurns, chainIsClean, type Segment } from "./turns.js";
