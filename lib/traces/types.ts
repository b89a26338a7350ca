/** The shapes ingestion passes around, also between worker threads: options, streamed sessions,
 *  and the summary counts (with their merge, so per-worker parts add up in file order). */
import type { ReadOptions } from "./claude.js";
import type { SiteOptions } from "./sites.js";
import type { ErrorSite, IngestIssue, Session, TraceFormat } from "./schema.js";

export type FormatOption = TraceFormat | "auto";

export interface IngestOptions extends ReadOptions, SiteOptions {
  format?: FormatOption;
  /** Receives each issue as it is found (they are also counted in the summary). */
  onIssue?: (issue: IngestIssue) => void;
  /** Called after each file (for progress bars). */
  onFile?: (file: string, done: number, total: number) => void;
  /** summarize(): sees each session as it streams past (to collect more than counters in one pass). */
  onSession?: (s: IngestedSession) => void;
  /** summarize(): worker threads (default: one per core, up to 8, for corpora over 32 MB; 1 = this thread). */
  workers?: number;
  /** Subagent turns (Claude Code transcripts folded into their parent session): kept (default) or dropped. */
  subagents?: "include" | "exclude";
}

export interface IngestedSession {
  session: Session;
  sites: ErrorSite[];
}

export interface TraceSummary {
  /** Input files seen under the paths (read or not). */
  files: number;
  /** Files (or sources) not read, each an issue with line 0 saying why (unsupported, empty, unknown format…). */
  filesSkipped: number;
  sessions: number;
  turns: number;
  assistantTurns: number;
  sidechainTurns: number;
  branchTurns: number;
  summaries: number;
  toolCalls: number;
  errorSites: number;
  errorKinds: Record<string, number>;
  behaviorDims: Record<string, number>;
  malformedLines: number;
  issues: number;
  issuesByReason: Record<string, number>;
  /** The first 100 issues with file and line. */
  issueSamples: IngestIssue[];
  /** Sessions read per format. */
  formats: Record<string, number>;
  /** Subagent transcripts folded into their parent sessions, and how many were tied to the spawning call. */
  subagentTranscripts: number;
  subagentsLinked: number;
  subagentTurns: number;
  /** Subagent transcripts by kind (task, compaction, warmup). */
  subagentKinds: Record<string, number>;
}

const bump = (m: Record<string, number>, k: string, n = 1) => void (m[k] = (m[k] ?? 0) + n);

export const emptySummary = (files: number): TraceSummary => ({
  files, filesSkipped: 0, subagentTranscripts: 0, subagentsLinked: 0, subagentTurns: 0, subagentKinds: {}, sessions: 0, turns: 0, assistantTurns: 0, sidechainTurns: 0, branchTurns: 0, summaries: 0, toolCalls: 0,
  errorSites: 0, errorKinds: {}, behaviorDims: {}, malformedLines: 0, issues: 0, issuesByReason: {}, issueSamples: [], formats: {},
});

/** Adds `part` (the counts of later files) into `sum` (files too: start from emptySummary(0)). */
export function mergeSummary(sum: TraceSummary, part: TraceSummary): TraceSummary {
  for (const k of ["files", "filesSkipped", "sessions", "turns", "assistantTurns", "sidechainTurns", "branchTurns", "summaries", "toolCalls", "errorSites", "malformedLines", "issues", "subagentTranscripts", "subagentsLinked", "subagentTurns"] as const) sum[k] += part[k];
  for (const k of ["errorKinds", "behaviorDims", "issuesByReason", "formats", "subagentKinds"] as const) for (const [key, n] of Object.entries(part[k])) bump(sum[k], key, n);
  for (const i of part.issueSamples) if (sum.issueSamples.length < 100) sum.issueSamples.push(i);
  return sum;
}
