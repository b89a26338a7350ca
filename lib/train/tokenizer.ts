/** A byte-level tokenizer: every UTF-8 byte is a token (0–255), plus BOS (256). No vocabulary file,
 *  nothing to download, any text round-trips. */
export const BOS = 256;
export const VOCAB_SIZE = 257;

const enc = new TextEncoder();
const dec = new TextDecoder();

export function encode(text: string, opts: { bos?: boolean } = {}): number[] {
  const bytes = Array.from(enc.encode(text));
  return opts.bos ? [BOS, ...bytes] : bytes;
}

export function decode(ids: number[]): string {
  return dec.decode(Uint8Array.from(ids.filter((i) => i >= 0 && i < 256)));
}
