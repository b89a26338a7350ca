/** Rows on disk as JSONL, validated by their schema on the way in (and optionally on the way out). */
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { z } from "zod";
import { parseRecord, readLines } from "../traces/index.js";

const where = (issue: z.ZodIssue) => (issue.path.length ? issue.path.join(".") : "(row)");

/** Writes one JSON row per line (via a temp file, so a reader never sees half a file); returns the
 *  row count. With a schema, a bad row fails the write naming its index and field. */
export async function writeRows<T>(path: string, rows: Iterable<T>, schema?: z.ZodType<T, z.ZodTypeDef, unknown>): Promise<number> {
  const lines: string[] = [];
  for (const r of rows) {
    if (schema) {
      const parsed = schema.safeParse(r);
      if (!parsed.success) throw new Error(`${path}: row ${lines.length}: ${where(parsed.error.issues[0]!)}: ${parsed.error.issues[0]!.message}`);
    }
    lines.push(JSON.stringify(r));
  }
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, lines.length ? lines.join("\n") + "\n" : "");
  await rename(tmp, path);
  return lines.length;
}

/** Reads and validates every row; the first bad line fails with "file:line: field: message". */
export async function readRows<S extends z.ZodTypeAny>(path: string, schema: S): Promise<z.output<S>[]> {
  const out: z.output<S>[] = [];
  for await (const { line, text } of readLines(path)) {
    if (!text.trim()) continue;
    const rec = parseRecord(text);
    if (!rec.ok) throw new Error(`${path}:${line}: ${rec.reason}`);
    const parsed = schema.safeParse(rec.value);
    if (!parsed.success) throw new Error(`${path}:${line}: ${where(parsed.error.issues[0]!)}: ${parsed.error.issues[0]!.message}`);
    out.push(parsed.data);
  }
  return out;
}

/**
 * Rows appended one at a time to a JSONL file (for output larger than memory): written to a temp
 * file that replaces `path` on close(), so a reader never sees half a file; with a schema, a bad
 * row fails naming its index and field.
 */
export class RowWriter<T> {
  private out: WriteStream | null = null;
  private readonly tmp: string;
  count = 0;
  constructor(readonly path: string, readonly schema?: z.ZodType<T, z.ZodTypeDef, unknown>) {
    this.tmp = `${path}.${process.pid}.tmp`;
  }
  async write(row: T): Promise<void> {
    if (this.schema) {
      const parsed = this.schema.safeParse(row);
      if (!parsed.success) throw new Error(`${this.path}: row ${this.count}: ${where(parsed.error.issues[0]!)}: ${parsed.error.issues[0]!.message}`);
    }
    if (!this.out) {
      await mkdir(dirname(this.path), { recursive: true });
      this.out = createWriteStream(this.tmp);
    }
    this.count++;
    // Respect backpressure: the rows of one session are held, never the whole output.
    if (!this.out.write(JSON.stringify(row) + "\n")) await new Promise<void>((res) => this.out!.once("drain", res));
  }
  async close(): Promise<number> {
    if (!this.out) await writeFile(this.tmp, "");
    else await new Promise<void>((res, rej) => this.out!.end((e?: Error | null) => (e ? rej(e) : res())));
    await rename(this.tmp, this.path);
    return this.count;
  }
  /** Drops the temp file (after a failure). */
  async abort(): Promise<void> {
    this.out?.destroy();
    await rm(this.tmp, { force: true });
  }
}
