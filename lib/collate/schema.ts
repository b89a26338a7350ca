/** Row schemas the collator hands to the trainer: the schema is the type (z.infer). Every row carries
 *  token ids and the readable text they came from, plus where it came from. */
import { z } from "zod";
import { LAYERS } from "../hints/index.js";
import { BehaviorDim, Chain, ErrorKind, ErrorSite } from "../traces/index.js";

/** What the collator needs from a tokenizer (lib/train's byte tokenizer fits; lib/collate does not
 *  import lib/train, which consumes these rows). */
export interface Tokenizer {
  encode(text: string): number[];
  decode(ids: number[]): string;
  /** Prepended to every prompt / sequence when set. */
  bos?: number;
}

const Ids = z.array(z.number().int());

/**
 * One SDPO distillation site. Student and teacher see the same prompt except for the hint spliced
 * right before the recovery turn; the loss covers the completion tokens only (see sdpoSequences).
 */
export const SdpoRow = z.object({
  id: z.string(),
  /** Where the site is (lib/traces ErrorSite's own fields; turn_index is the recovery turn, the completion). */
  ...ErrorSite.pick({ session_id: true, file: true, chain: true, turn_index: true, error_kind: true, behavior_dim: true }).shape,
  layer: z.enum(LAYERS),
  hint: z.string().min(1),
  student_prompt: z.string(),
  teacher_prompt: z.string(),
  completion: z.string().min(1),
  /** Both prompts start with `bos` when it is not null (truncation keeps it). */
  bos: z.number().int().nullable(),
  student_prompt_ids: Ids,
  teacher_prompt_ids: Ids,
  completion_ids: Ids.min(1),
});
export type SdpoRow = z.infer<typeof SdpoRow>;

export const DpoSource = z.enum(["group", "trace"]);
export type DpoSource = z.infer<typeof DpoSource>;

/** A preference pair: chosen = a sibling winner / the recovery that worked; rejected = the loser. */
export const DpoPair = z.object({
  id: z.string(),
  source: DpoSource,
  prompt: z.string(),
  chosen: z.string(),
  rejected: z.string(),
  /** prompt_ids start with `bos` when it is not null. */
  bos: z.number().int().nullable(),
  prompt_ids: Ids,
  chosen_ids: Ids.min(1),
  rejected_ids: Ids.min(1),
  chosen_reward: z.number().nullable(),
  rejected_reward: z.number().nullable(),
  /** Trace pairs: where they came from (null for rollout groups; session_id holds the group id). */
  session_id: z.string().nullable(),
  file: z.string().nullable(),
  /** The erroring (rejected) turn; the prompt is the context before it. */
  turn_index: z.number().int().nullable(),
  recovery_turn_index: z.number().int().nullable(),
  error_kind: ErrorKind.nullable(),
  behavior_dim: BehaviorDim.nullable(),
});
export type DpoPair = z.infer<typeof DpoPair>;

/** A supervised sequence: loss_mask = 1 exactly on assistant-response tokens. */
export const SftRow = z
  .object({
    id: z.string(),
    source: z.enum(["trace", "pairs"]),
    session_id: z.string().nullable(),
    file: z.string().nullable(),
    chain: Chain.nullable(),
    /** Window number within the chain (0 when it fit in one). */
    window: z.number().int(),
    text: z.string(),
    ids: Ids,
    loss_mask: z.array(z.number().int().min(0).max(1)),
  })
  .refine((r) => r.ids.length === r.loss_mask.length, { message: "ids and loss_mask differ in length", path: ["loss_mask"] });
export type SftRow = z.infer<typeof SftRow>;

/** Token ids with a loss mask of the same length (1 = a position whose token is trained on). */
export interface Seq {
  ids: number[];
  mask: number[];
}
