/**
 * summarize() over worker threads: each worker takes the next source (a file, or a session with its
 * subagent transcripts), ingests it and sends back that
 * file's counts (and its issues when the caller listens for them). Results merge in file order, so
 * the summary is the same as a single thread's.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { TraceSource } from "./formats.js";
import type { IngestIssue } from "./schema.js";
import type { IngestOptions, TraceSummary } from "./types.js";

/** What a worker needs: the serializable options (callbacks stay in this thread). */
export type WorkerOptions = Pick<IngestOptions, "format" | "strip_thinking" | "textErrors" | "k" | "stateTokens" | "repeatThreshold" | "subagents"> & { forwardIssues: boolean };

export type WorkerReply = { index: number; summary: TraceSummary; issues: IngestIssue[] } | { index: number; error: string };

/** The worker's entry: worker.js next to this file, or (running from the TypeScript sources, under
 *  tsx or vitest) a bootstrap that registers tsx in the worker and imports worker.ts. */
function workerEntry(): URL {
  if (!import.meta.url.endsWith(".ts")) return new URL("./worker.js", import.meta.url);
  // tsx's ESM entry (its CommonJS one resolves its hooks relative to itself and fails from a data: URL)
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm/api").replace(/\.cjs$/, ".mjs")).href;
  const entry = new URL("./worker.ts", import.meta.url).href;
  return new URL(`data:text/javascript,${encodeURIComponent(`const { register } = await import(${JSON.stringify(tsx)}); register(); await import(${JSON.stringify(entry)});`)}`);
}

export async function summarizeInWorkers(files: TraceSource[], opts: IngestOptions, n: number): Promise<TraceSummary[]> {
  const url = workerEntry();
  const options: WorkerOptions = {
    format: opts.format, strip_thinking: opts.strip_thinking, textErrors: opts.textErrors, k: opts.k, stateTokens: opts.stateTokens,
    repeatThreshold: opts.repeatThreshold, subagents: opts.subagents, forwardIssues: !!opts.onIssue,
  };
  const results: TraceSummary[] = new Array(files.length);
  /** Issues arrive per file; they are handed on in file order. */
  const pendingIssues = new Map<number, IngestIssue[]>();
  let nextIssueFile = 0;
  const flushIssues = () => {
    while (pendingIssues.has(nextIssueFile)) {
      for (const i of pendingIssues.get(nextIssueFile)!) opts.onIssue?.(i);
      pendingIssues.delete(nextIssueFile++);
    }
  };
  let next = 0;
  let done = 0;
  const run = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const w = new Worker(url, { workerData: options });
      const give = () => {
        if (next < files.length) w.postMessage({ index: next, source: files[next++] });
        else void w.terminate().then(() => resolve());
      };
      w.on("message", (m: WorkerReply) => {
        if ("error" in m) {
          void w.terminate();
          reject(new Error(`${files[m.index]!.path}: ${m.error}`));
          return;
        }
        results[m.index] = m.summary;
        if (options.forwardIssues) {
          pendingIssues.set(m.index, m.issues);
          flushIssues();
        }
        opts.onFile?.(files[m.index]!.path, ++done, files.length);
        give();
      });
      w.on("error", reject);
      w.on("online", give);
    });
  await Promise.all(Array.from({ length: Math.min(n, files.length) }, run));
  return results;
}
