import { createReadStream } from "node:fs";

/**
 * Streams a file's lines with their 1-based numbers, holding one chunk at a time. A UTF-8 byte
 * order mark at the start is dropped (else line 1 would not parse). A last line without a newline
 * (a truncated write) is still yielded.
 */
export async function* readLines(file: string): AsyncGenerator<{ line: number; text: string }> {
  let rest = "";
  let line = 0;
  let first = true;
  for await (const chunk of createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 20 })) {
    let buf = rest + (chunk as string);
    if (first) {
      first = false;
      if (buf.charCodeAt(0) === 0xfeff) buf = buf.slice(1);
    }
    let start = 0;
    for (let nl = buf.indexOf("\n", start); nl !== -1; nl = buf.indexOf("\n", start)) {
      line++;
      yield { line, text: buf.charCodeAt(nl - 1) === 13 ? buf.slice(start, nl - 1) : buf.slice(start, nl) };
      start = nl + 1;
    }
    rest = buf.slice(start);
  }
  if (rest.length > 0) yield { line: line + 1, text: rest };
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
