/** Ingestion entry points: paths (files or folders, recursive) → sessions → error sites → summary. */
import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { readClaudeSession } from "./claude.js";
import { readChatSessions } from "./chat.js";
import { open } from "node:fs/promises";
import { parseRecord } from "./lines.js";
import { findErrorSites } from "./sites.js";
import type { ErrorSite, IngestIssue, TraceFormat } from "./schema.js";
import { emptySummary, mergeSummary, type IngestOptions, type IngestedSession, type TraceSummary } from "./types.js";

/** All .jsonl files under the given paths (folders walked recursively, sorted; symbolic links
 *  followed, each real file and folder once). A missing path is an error that names it. */
export function listTraceFiles(paths: string[]): string[] {
  const out: string[] = [];
  const visited = new Set<string>();
  const once = (p: string): boolean => {
    const real = realpathSync(p);
    if (visited.has(real)) return false;
    visited.add(real);
    return true;
  };
  const walk = (dir: string) => {
    if (!once(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(dir, e.name);
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      if (e.isSymbolicLink()) {
        const st = statSync(p, { throwIfNoEntry: false });
        if (!st) continue; // a dangling link
        isDir = st.isDirectory();
        isFile = st.isFile();
      }
      if (isDir) walk(p);
      else if (isFile && e.name.endsWith(".jsonl") && once(p)) out.push(p);
    }
  };
  for (const p of paths) {
    const abs = resolve(p);
    if (!existsSync(abs)) throw new Error(`no such file or directory: ${p}`);
    if (statSync(abs).isDirectory()) walk(abs);
    else if (once(abs)) out.push(abs);
  }
  return out;
}

/** The first complete lines of a file: a 64 KB prefix, grown until it holds a whole line (a first
 *  record may well be megabytes) or the file ends. */
async function headLines(file: string): Promise<string[]> {
  const fh = await open(file, "r");
  try {
    const { size } = await fh.stat();
    let n = Math.min(size, 64 * 1024);
    for (;;) {
      const buf = Buffer.allocUnsafe(n);
      const { bytesRead } = await fh.read(buf, 0, n, 0);
      const head = buf.subarray(0, bytesRead);
      const lastNl = head.lastIndexOf(10);
      if (lastNl !== -1 || bytesRead >= size) {
        const text = head.toString("utf8", 0, bytesRead >= size ? bytesRead : lastNl).replace(/^\uFEFF/, "");
        return text.split("\n").slice(0, 50);
      }
      n = Math.min(size, n * 4);
    }
  } finally {
    await fh.close();
  }
}

/** Tells the two formats apart from the first parseable records of a file (at most 50 lines). */
export async function detectFormat(file: string): Promise<TraceFormat | null> {
  for (const text of await headLines(file)) {
    if (text.trim() === "") continue;
    const p = parseRecord(text);
    if (!p.ok) continue;
    const r = p.value;
    if (Array.isArray(r.messages) || Array.isArray(r.conversation) || Array.isArray(r.trajectory)) return "chat";
    if (typeof r.type === "string" && ("uuid" in r || "sessionId" in r || "message" in r || r.type === "summary")) return "claude";
  }
  return null;
}

/** Streams sessions with their error sites, one file at a time (memory bounded by a session). */
export async function* ingest(paths: string[], opts: IngestOptions = {}): AsyncGenerator<IngestedSession> {
  const files = listTraceFiles(paths);
  const issues: IngestIssue[] = [];
  const flush = () => {
    for (const i of issues.splice(0)) opts.onIssue?.(i);
  };
  for (const [n, file] of files.entries()) {
    const format = !opts.format || opts.format === "auto" ? await detectFormat(file) : opts.format;
    if (format === null) issues.push({ file, line: 0, reason: "could not tell the format (no Claude Code record or messages[] trajectory in the first lines)" });
    else if (format === "claude") {
      const s = await readClaudeSession(file, opts, issues);
      flush();
      if (s) yield { session: s, sites: findErrorSites(s, opts) };
    } else {
      for await (const s of readChatSessions(file, opts, issues)) {
        flush();
        yield { session: s, sites: findErrorSites(s, opts) };
      }
    }
    flush();
    opts.onFile?.(file, n + 1, files.length);
  }
}

const bump = (m: Record<string, number>, k: string, n = 1) => void (m[k] = (m[k] ?? 0) + n);

/** Counts of the given files in this thread (what each worker runs). */
export async function summarizeFiles(files: string[], opts: IngestOptions = {}): Promise<TraceSummary> {
  const sum = emptySummary(files.length);
  for await (const ingested of ingest(files, {
    ...opts,
    onIssue: (i) => {
      opts.onIssue?.(i);
      sum.issues++;
      if (i.reason.startsWith("malformed JSON")) sum.malformedLines++;
      bump(sum.issuesByReason, i.reason.replace(/\(.*\)$|\bid \S+\)?|[0-9a-f-]{36}|\[\d+\]/g, "").replace(/\s+/g, " ").trim());
      if (sum.issueSamples.length < 100) sum.issueSamples.push(i);
    },
  })) {
    opts.onSession?.(ingested);
    const { session, sites } = ingested;
    sum.sessions++;
    bump(sum.formats, session.format);
    for (const t of session.turns) {
      sum.turns++;
      if (t.role === "assistant") sum.assistantTurns++;
      if (t.role === "summary") sum.summaries++;
      if (t.chain === "sidechain") sum.sidechainTurns++;
      if (t.chain === "branch") sum.branchTurns++;
      sum.toolCalls += t.toolCalls.length;
    }
    sum.errorSites += sites.length;
    for (const s of sites) {
      bump(sum.errorKinds, s.error_kind);
      bump(sum.behaviorDims, s.behavior_dim);
    }
  }
  return sum;
}

/** Worker threads for a corpus this big: parsing dominates and files are independent. */
function defaultWorkers(files: string[]): number {
  if (files.length < 2) return 1;
  let bytes = 0;
  for (const f of files) bytes += statSync(f).size;
  return bytes < 32 * 1024 * 1024 ? 1 : Math.min(availableParallelism(), 8, files.length);
}

/**
 * Counts over everything under `paths`; keeps only counters (and 100 issue samples) in memory.
 * Large corpora are read by worker threads, a file at a time each (sessions never cross threads,
 * only each file's counts); `onSession` needs the sessions themselves and keeps it in this thread.
 */
export async function summarize(paths: string[], opts: IngestOptions = {}): Promise<TraceSummary> {
  const files = listTraceFiles(paths);
  const workers = opts.onSession ? 1 : (opts.workers ?? defaultWorkers(files));
  if (workers <= 1) return summarizeFiles(files, opts);
  const { summarizeInWorkers } = await import("./workers.js");
  const parts = await summarizeInWorkers(files, opts, workers);
  return parts.reduce(mergeSummary, emptySummary(files.length));
}

/** Everything under `paths` in memory at once, for notebooks and small corpora (use `ingest` or
 *  `summarize` to stream large ones). */
export async function collect(paths: string[], opts: IngestOptions = {}): Promise<{ sessions: IngestedSession[]; sites: ErrorSite[]; issues: IngestIssue[] }> {
  const sessions: IngestedSession[] = [];
  const issues: IngestIssue[] = [];
  for await (const s of ingest(paths, { ...opts, onIssue: (i) => (issues.push(i), opts.onIssue?.(i)) })) sessions.push(s);
  return { sessions, sites: sessions.flatMap((s) => s.sites), issues };
}
