import { readFileSync, statSync } from "node:fs";
import { open } from "node:fs/promises";

/** Files up to this size are read and decoded in one native call (far faster than a decoding
 *  stream); larger ones are read in chunks of raw bytes and decoded a line at a time. */
const WHOLE_FILE_BYTES = 64 * 1024 * 1024;
const CHUNK_BYTES = 1 << 20;

function* linesOf(text: string, from = 1): Generator<{ line: number; text: string }> {
  let line = from - 1;
  let start = 0;
  for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
    line++;
    yield { line, text: text.charCodeAt(nl - 1) === 13 ? text.slice(start, nl - 1) : text.slice(start, nl) };
    start = nl + 1;
  }
  if (start < text.length) yield { line: line + 1, text: text.slice(start) };
}

/**
 * Streams a file's lines with their 1-based numbers. A UTF-8 byte order mark at the start is
 * dropped (else line 1 would not parse). A last line without a newline (a truncated write) is
 * still yielded. Memory: the file when it is at most 64 MB, else one chunk and one line.
 */
export async function* readLines(file: string): AsyncGenerator<{ line: number; text: string }> {
  // the size decides the path: a synchronous stat (no thread-pool round trip per file)
  if (statSync(file).size <= WHOLE_FILE_BYTES) {
    let text = readFileSync(file, "utf8");
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    yield* linesOf(text);
    return;
  }
  const fh = await open(file, "r");
  try {
    const { size } = await fh.stat();
    if (size <= WHOLE_FILE_BYTES) {
      // readFileSync with an encoding decodes natively (simdutf): several times faster than a
      // Buffer's toString on non-ASCII text; a session file blocks the thread for a millisecond or two
      let text = readFileSync(file, "utf8");
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      yield* linesOf(text);
      return;
    }
    let line = 0;
    let pending: Buffer[] = [];
    let first = true;
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    for (;;) {
      const { bytesRead } = await fh.read(chunk, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      let buf = chunk.subarray(0, bytesRead);
      if (first) {
        first = false;
        if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) buf = buf.subarray(3);
      }
      let start = 0;
      for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10, start)) {
        const bytes = pending.length ? Buffer.concat([...pending, buf.subarray(start, nl)]) : buf.subarray(start, nl);
        pending = [];
        const end = bytes.length > 0 && bytes[bytes.length - 1] === 13 ? bytes.length - 1 : bytes.length;
        line++;
        yield { line, text: bytes.toString("utf8", 0, end) };
        start = nl + 1;
      }
      // the chunk buffer is reused: keep a copy of the unfinished line
      if (start < buf.length) pending.push(Buffer.from(buf.subarray(start)));
    }
    if (pending.length) yield { line: line + 1, text: Buffer.concat(pending).toString("utf8") };
  } finally {
    await fh.close();
  }
}

/** Parses one JSONL line; returns the object or the reason it is not one. */
export function parseRecord(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; reason: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, reason: `malformed JSON (${(e as Error).message})` };
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) return { ok: false, reason: `not a JSON object (${v === null ? "null" : Array.isArray(v) ? "array" : typeof v})` };
  return { ok: true, value: v as Record<string, unknown> };
}

/** Text of a message content that is a string or a list of blocks ({type:"text", text}). */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content == null ? "" : JSON.stringify(content);
  const parts: string[] = [];
  for (const b of content) {
    if (typeof b === "string") parts.push(b);
    else if (b && typeof b === "object" && typeof (b as { text?: unknown }).text === "string") parts.push((b as { text: string }).text);
  }
  return parts.join("\n");
}

/**
 * A JSON-lines file's records with their line numbers: blank lines skipped, a line that is not a
 * JSON object reported to `issues` (file, line, reason) and skipped. `shortcut` may read a line
 * without parsing it (returning null to parse it as usual).
 */
export async function* readRecords(file: string, issues: { file: string; line: number; reason: string }[], shortcut?: (text: string) => Record<string, unknown> | null): AsyncGenerator<{ line: number; value: Record<string, unknown> }> {
  for await (const { line, text } of readLines(file)) {
    if (text.length === 0 || /^\s*$/.test(text)) continue;
    const fast = shortcut?.(text);
    if (fast) {
      yield { line, value: fast };
      continue;
    }
    const p = parseRecord(text);
    if (!p.ok) issues.push({ file, line, reason: p.reason });
    else yield { line, value: p.value };
  }
}
