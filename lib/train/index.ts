/** lib/train: the TensorFlow.js policy (a byte-level decoder-only transformer). Trainers land with
 *  the training issue. */
export { Policy, PolicyConfig, scoreContinuation, generate, type ContinuationScore } from "./model.js";
export { encode, decode, BOS, VOCAB_SIZE } from "./tokenizer.js";
