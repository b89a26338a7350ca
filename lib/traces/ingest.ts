/** Ingestion entry points: paths (files or folders, recursive) → sessions → error sites → summary. */
import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { planSources, readSource, type TraceSource } from "./formats.js";
import { findErrorSites } from "./sites.js";
import { textErrorMatcher } from "./text-errors.js";
import type { ErrorSite, IngestIssue, Session } from "./schema.js";
import { emptySummary, mergeSummary, type IngestOptions, type IngestedSession, type TraceSummary } from "./types.js";

/** Every readable input file under the given paths (folders walked recursively, sorted; symbolic
 *  links followed, each real file once). A missing path is an error that names it. What is not
 *  read (and why) comes from planSources. */
export function listTraceFiles(paths: string[]): string[] {
  return planSources(paths, { group: false }).sources.flatMap((s) => s.files);
}

/** A session's subagent turns dropped (IngestOptions.subagents = "exclude"), indices renumbered. */
function withoutSubagents(s: Session): Session {
  const turns = s.turns.filter((t) => !t.agentId && t.chain !== "sidechain").map((t, index) => ({ ...t, index }));
  return { ...s, turns, subagents: undefined };
}

/** Reads planned sources, one at a time (memory bounded by a source), as sessions with their sites. */
export async function* ingestSources(sources: TraceSource[], opts: IngestOptions = {}, skipped: IngestIssue[] = []): AsyncGenerator<IngestedSession> {
  textErrorMatcher("", "chat", opts.textErrors); // a bad rule is the caller's error, before anything is read
  const issues: IngestIssue[] = [...skipped];
  const flush = () => {
    for (const i of issues.splice(0)) opts.onIssue?.(i);
  };
  flush();
  for (const [n, source] of sources.entries()) {
    let read = 0;
    try {
      for await (let s of readSource(source, opts.format, opts, issues)) {
        read++;
        if (opts.subagents === "exclude") s = withoutSubagents(s);
        flush();
        yield { session: s, sites: findErrorSites(s, opts) };
      }
      if (read === 0 && !issues.some((i) => source.files.includes(i.file) || i.file === source.path)) issues.push({ file: source.path, line: 0, reason: "no session in it (no conversation records)" });
    } catch (e) {
      // one unreadable source never costs the others
      issues.push({ file: source.path, line: 0, reason: `could not be read: ${(e as Error).message}` });
    }
    flush();
    opts.onFile?.(source.path, n + 1, sources.length);
  }
}

/** Streams sessions with their error sites, a source at a time (memory bounded by a source).
 *  Every file under `paths` is read or reported through onIssue with the reason. */
export async function* ingest(paths: string[], opts: IngestOptions = {}): AsyncGenerator<IngestedSession> {
  const { sources, skipped } = planSources(paths, { group: opts.format === undefined || opts.format === "auto" || opts.format === "claude" });
  yield* ingestSources(sources, opts, skipped);
}

const bump = (m: Record<string, number>, k: string, n = 1) => void (m[k] = (m[k] ?? 0) + n);

/** Counts of the given sources in this thread (what each worker runs). */
export async function summarizeSources(sources: TraceSource[], opts: IngestOptions = {}, skipped: IngestIssue[] = []): Promise<TraceSummary> {
  const sum = emptySummary(sources.reduce((a, s) => a + s.files.length, 0) + skipped.length);
  for await (const ingested of ingestSources(sources, {
    ...opts,
    onIssue: (i) => {
      opts.onIssue?.(i);
      sum.issues++;
      if (i.reason.startsWith("malformed JSON")) sum.malformedLines++;
      if (i.line === 0) sum.filesSkipped++;
      bump(sum.issuesByReason, i.reason.replace(/\(.*\)$|\bid \S+\)?|[0-9a-f-]{36}|\[\d+\]/g, "").replace(/\s+/g, " ").trim());
      if (sum.issueSamples.length < 100) sum.issueSamples.push(i);
    },
  }, skipped)) {
    opts.onSession?.(ingested);
    countSession(sum, ingested);
  }
  return sum;
}

/** Adds one session's counts to a summary. */
export function countSession(sum: TraceSummary, { session, sites }: IngestedSession): void {
  sum.sessions++;
  bump(sum.formats, session.format);
  for (const t of session.turns) {
    sum.turns++;
    if (t.role === "assistant") sum.assistantTurns++;
    if (t.role === "summary") sum.summaries++;
    if (t.chain === "sidechain") sum.sidechainTurns++;
    if (t.chain === "branch") sum.branchTurns++;
    if (t.agentId) sum.subagentTurns++;
    sum.toolCalls += t.toolCalls.length;
  }
  for (const a of session.subagents ?? []) {
    sum.subagentTranscripts++;
    if (a.parentCallId) sum.subagentsLinked++;
    bump(sum.subagentKinds, a.kind);
  }
  sum.errorSites += sites.length;
  for (const s of sites) {
    bump(sum.errorKinds, s.error_kind);
    bump(sum.behaviorDims, s.behavior_dim);
  }
}

/** Worker threads for a corpus this big: parsing dominates and sources are independent. */
function defaultWorkers(sources: TraceSource[]): number {
  if (sources.length < 2) return 1;
  let bytes = 0;
  for (const s of sources) for (const f of s.files) bytes += statSync(f).size;
  return bytes < 32 * 1024 * 1024 ? 1 : Math.min(availableParallelism(), 8, sources.length);
}

/**
 * Counts over everything under `paths`; keeps only counters (and 100 issue samples) in memory.
 * Large corpora are read by worker threads, a source at a time each (sessions never cross threads,
 * only each source's counts); `onSession` needs the sessions themselves and keeps it in this thread.
 */
export async function summarize(paths: string[], opts: IngestOptions = {}): Promise<TraceSummary> {
  const { sources, skipped } = planSources(paths, { group: opts.format === undefined || opts.format === "auto" || opts.format === "claude" });
  const workers = opts.onSession ? 1 : (opts.workers ?? defaultWorkers(sources));
  if (workers <= 1) return summarizeSources(sources, opts, skipped);
  const { summarizeInWorkers } = await import("./workers.js");
  const head = await summarizeSources([], opts, skipped);
  const parts = await summarizeInWorkers(sources, opts, workers);
  return parts.reduce(mergeSummary, head);
}

/** Everything under `paths` in memory at once, for notebooks and small corpora (use `ingest` or
 *  `summarize` to stream large ones). */
export async function collect(paths: string[], opts: IngestOptions = {}): Promise<{ sessions: IngestedSession[]; sites: ErrorSite[]; issues: IngestIssue[] }> {
  const sessions: IngestedSession[] = [];
  const issues: IngestIssue[] = [];
  for await (const s of ingest(paths, { ...opts, onIssue: (i) => (issues.push(i), opts.onIssue?.(i)) })) sessions.push(s);
  return { sessions, sites: sessions.flatMap((s) => s.sites), issues };
}
