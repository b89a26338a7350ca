/** A summarize() worker thread (see workers.ts): ingests the files it is sent, one at a time. */
import { parentPort, workerData } from "node:worker_threads";
import type { TraceSource } from "./formats.js";
import { summarizeSources } from "./ingest.js";
import type { IngestIssue } from "./schema.js";
import type { WorkerOptions, WorkerReply } from "./workers.js";

const { forwardIssues, ...opts } = workerData as WorkerOptions;
parentPort!.on("message", async ({ index, source }: { index: number; source: TraceSource }) => {
  const issues: IngestIssue[] = [];
  let reply: WorkerReply;
  try {
    const summary = await summarizeSources([source], { ...opts, workers: 1, onIssue: forwardIssues ? (i) => issues.push(i) : undefined });
    reply = { index, summary, issues };
  } catch (e) {
    reply = { index, error: (e as Error).message };
  }
  parentPort!.postMessage(reply);
});
