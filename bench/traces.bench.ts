/**
 * Trace ingestion throughput: the full ingester (parse, thread, pair, detect and classify error
 * sites) vs a bare line-split + JSON.parse loop over the same corpus, in the same run.
 * Target: ingester ≥ 0.5× the bare loop. The corpus (~300 MB of Claude Code sessions, ~2 MB each)
 * is generated once under scratch/bench/traces/ (COMPOSER_LAB_BENCH_MB sets its size).
 */
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BenchResult } from "../lib/cli/index.js";
import { scratchDir } from "../lib/core/index.js";
import { readLines, summarize } from "../lib/traces/index.js";
import { ClaudeSessionWriter } from "../lib/traces/synth.js";

const TARGET_MB = Number(process.env.COMPOSER_LAB_BENCH_MB ?? 300);
const SESSION_MB = 2;

function session(i: number): string {
  const s = new ClaudeSessionWriter(`bench-${i.toString().padStart(5, "0")}`);
  const source = Array.from({ length: 60 }, (_, l) => `${String(l + 1).padStart(6)}\tdef handler_${l}(request, *args, **kwargs):  # processes request ${l}`).join("\n");
  s.user("Fix the failing handlers and keep the suite green.");
  let n = 0;
  while (s.lines.reduce((a, l) => a + l.length, 0) < SESSION_MB * 1e6 && n < 100_000) {
    n++;
    s.assistant({ thinking: `Step ${n}: inspect the next module before editing.`, text: `Looking at module ${n % 40}.` });
    s.act("Read", { file_path: `/home/dev/project/app/handlers_${n % 40}.py` }, source);
    if (n % 5 === 0) s.act("Bash", { command: "python -m pytest -q" }, `Exit code 1\nFAILED tests/test_h.py::test_${n} - AssertionError: assert 1 == 2\n1 failed, 40 passed`, true);
    else if (n % 7 === 0) s.act("Bash", { command: "rg handler" }, "/bin/bash: rg: command not found", true);
    else s.act("Edit", { file_path: `/home/dev/project/app/handlers_${n % 40}.py`, old_string: "pass", new_string: `return ${n}` }, "The file has been updated.");
  }
  return s.text();
}

function corpus(): { dir: string; bytes: number } {
  const dir = scratchDir("bench", "traces", `${TARGET_MB}mb`);
  mkdirSync(dir, { recursive: true });
  const files = Math.ceil(TARGET_MB / SESSION_MB);
  for (let i = 0; i < files; i++) {
    const f = join(dir, `session-${i.toString().padStart(5, "0")}.jsonl`);
    if (!existsSync(f)) writeFileSync(f, session(i));
  }
  const bytes = readdirSync(dir).reduce((a, f) => a + statSync(join(dir, f)).size, 0);
  return { dir, bytes };
}

async function bare(dir: string): Promise<number> {
  let records = 0;
  for (const f of readdirSync(dir).sort()) {
    for await (const { text } of readLines(join(dir, f))) {
      if (text) {
        JSON.parse(text);
        records++;
      }
    }
  }
  return records;
}

export async function run(): Promise<BenchResult> {
  process.stderr.write(`bench traces: preparing a ${TARGET_MB} MB corpus under scratch/bench/traces/ …\n`);
  const { dir, bytes } = corpus();
  const mb = bytes / 1e6;

  const rss0 = process.memoryUsage().rss;
  let t0 = performance.now();
  const records = await bare(dir);
  const bareS = (performance.now() - t0) / 1000;

  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  t0 = performance.now();
  const sum = await summarize([dir]);
  const ingestS = (performance.now() - t0) / 1000;
  clearInterval(timer);

  const ratio = bareS / ingestS;
  return {
    summary: `${mb.toFixed(0)} MB, ${sum.sessions} sessions, ${records} records: ingester ${(mb / ingestS).toFixed(1)} MB/s vs bare split+JSON.parse ${(mb / bareS).toFixed(1)} MB/s → ratio ${ratio.toFixed(2)} (target ≥ 0.5); ${sum.errorSites} error sites; peak RSS during ingest ${(peak / 1e6).toFixed(0)} MB (before: ${(rss0 / 1e6).toFixed(0)} MB)`,
    rows: [
      { loop: "bare line-split + JSON.parse", seconds: Number(bareS.toFixed(2)), mb_per_s: Number((mb / bareS).toFixed(1)) },
      { loop: "traces ingester (summarize)", seconds: Number(ingestS.toFixed(2)), mb_per_s: Number((mb / ingestS).toFixed(1)) },
    ],
    ratios: { ingester_over_bare: Number(ratio.toFixed(3)), peak_rss_mb: Number((peak / 1e6).toFixed(0)) },
  };
}
