/**
 * Trace ingestion throughput, CLI start included: `composer-lab traces summarize <corpus> --json`
 * (parse, thread, pair, detect and classify error sites, in worker threads) against a bare
 * readFileSync + split("\n") + JSON.parse loop over the same files, each as its own Node process,
 * alternated and repeated in one run (medians). Target: ingester ≥ 0.8× the bare loop.
 * Also: peak RSS of each process, and the CLI's start time (--help, and summarize of one small file).
 *
 * Two corpora, side by side: the synthetic one (COMPOSER_LAB_BENCH_MB, default 220 MB, of ~2 MB Claude Code 2.1 sessions with
 * parallel tool calls written interleaved, progress records in the chain, sibling cascades and
 * Claude Code's own tool errors) and a real-shaped one (realCorpus: large tool results, base64 images,
 * long progress chains, agent_progress records, subagent files; COMPOSER_LAB_BENCH_REAL_MB, default
 * 120 MB), each generated once under scratch/bench/traces/.
 * COMPOSER_LAB_BENCH_COLLATE=1 also runs `collate` over it and reports its peak RSS.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadavg } from "node:os";
import type { BenchResult } from "../lib/cli/index.js";
import { datasetsDir, projectRoot, scratchDir, tempDir } from "../lib/core/index.js";
import { distIsFresh } from "../lib/notebooks/kernel.js";
import { ClaudeSessionWriter } from "../lib/traces/synth.js";

const TARGET_MB = Number(process.env.COMPOSER_LAB_BENCH_MB ?? 220);
const SESSION_MB = 2;
const ROUNDS = Number(process.env.COMPOSER_LAB_BENCH_ROUNDS ?? 3);

const source = (n: number) => Array.from({ length: 60 }, (_, l) => `${String(l + 1).padStart(6)}\tdef handler_${n}_${l}(request, *args, **kwargs):  # processes request ${l}`).join("\n");
const PYTEST_FAIL = (n: number) =>
  `Exit code 1\n${"=".repeat(29)} test session starts ${"=".repeat(30)}\nplatform linux -- Python 3.12.7, pytest-8.3.3\ncollected 41 items\n\ntests/test_h.py ${".".repeat(20)}F${".".repeat(20)}\n\n${"=".repeat(35)} FAILURES ${"=".repeat(35)}\nE       AssertionError: assert ${n} == ${n + 1}\nFAILED tests/test_h.py::test_${n} - AssertionError: assert ${n} == ${n + 1}\n1 failed, 40 passed in 0.31s`;

function session(i: number): string {
  const s = new ClaudeSessionWriter(`bench-${i.toString().padStart(5, "0")}`, "/home/dev/project", undefined, "2.1.3");
  s.user("Fix the failing handlers and keep the suite green.");
  let n = 0;
  let bytes = 0;
  const grow = () => (bytes = s.lines.reduce((a, l) => a + l.length + 1, 0));
  while (bytes < SESSION_MB * 1e6 && n < 100_000) {
    n++;
    const files = [0, 1, 2].map((k) => `/home/dev/project/app/handlers_${(n + k) % 40}.py`);
    s.message({ thinking: `Step ${n}: inspect the next modules before editing.`, text: `Looking at modules ${n % 40}–${(n + 2) % 40}.`, tools: files.map((f, k) => ({ name: "Read", input: { file_path: f }, output: source(n + k) })) });
    const progress = [1, 2, 3].map((k) => ({ type: "bash_progress", output: `collected 41 items\n${".".repeat(k * 10)}`, elapsedTimeSeconds: k, totalLines: k + 1 }));
    if (n % 5 === 0) {
      s.message({ tools: [
        { name: "Bash", input: { command: "python -m pytest -q" }, output: PYTEST_FAIL(n), isError: true, progress },
        { name: "Bash", input: { command: "python -m app.cli check" }, output: "<tool_use_error>Sibling tool call errored</tool_use_error>", isError: true },
      ] });
    } else if (n % 7 === 0) {
      const edit = { file_path: files[0], old_string: "pass", new_string: `return ${n}` };
      s.message({ tools: [{ name: "Edit", input: edit, output: "<tool_use_error>File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.</tool_use_error>", isError: true }] });
      s.message({ tools: [{ name: "Read", input: { file_path: files[0] }, output: source(n) }] });
      s.message({ tools: [{ name: "Edit", input: edit, output: `The file ${files[0]} has been updated.`, progress: [{ type: "hook_progress", hookEvent: "PostToolUse", hookName: "PostToolUse:Edit", command: "ruff format" }] }] });
    } else {
      s.message({ tools: [{ name: "Edit", input: { file_path: files[0], old_string: "pass", new_string: `return ${n}` }, output: `The file ${files[0]} has been updated.` }] });
      s.message({ tools: [{ name: "Bash", input: { command: "python -m pytest -q" }, output: "........................................ [100%]\n41 passed in 0.30s", progress }] });
    }
    if (n % 10 === 0) grow();
  }
  s.assistant({ text: "All handlers fixed; the suite is green." });
  return s.text();
}

/**
 * A real-shaped Claude Code 2.1 session (what the synthetic one lacks, as real sessions have it):
 * Read results of whole files with non-ASCII text, base64 screenshots in tool results, Write calls
 * carrying whole files, long bash_progress chains repeating the output so far, agent_progress
 * records carrying a subagent's messages (with the growing normalizedMessages list), large failing
 * test logs, and a subagent transcript in `<session>/subagents/`.
 */
function realShapedSession(i: number, dir: string): void {
  const sid = `real-${i.toString().padStart(5, "0")}`;
  const s = new ClaudeSessionWriter(sid, "/home/dev/project", undefined, "2.1.39");
  const file = (n: number, k: number) => Array.from({ length: k }, (_, l) => `${String(l + 1).padStart(6)}\tdef handler_${n}_${l}(request):  # réponse ${l} — ${"données ".repeat(3)}`).join("\n");
  const png = Buffer.alloc(220_000, (i * 7) & 255).toString("base64");
  const log = (n: number) => `Exit code 1\n${Array.from({ length: 900 }, (_, k) => `tests/test_h.py::test_${k} PASSED`).join("\n")}\nFAILED tests/test_h.py::test_${n} - AssertionError: assert ${n} == ${n + 1}\n1 failed, 900 passed in 3.1s`;
  s.user("Fix the failing handlers, check the screenshots, and keep the suite green.");
  let bytes = 0;
  for (let n = 0; bytes < SESSION_MB * 3e6 && n < 10_000; n++) {
    s.message({ text: `Reading module ${n}.`, tools: [{ name: "Read", input: { file_path: `/home/dev/project/app/h${n}.py` }, output: file(n, 700 + (n % 5) * 100) }] });
    if (n % 4 === 0) {
      const [id] = s.assistant({ tools: [{ name: "Read", input: { file_path: `/home/dev/project/shots/s${n}.png` } }] });
      s.raw(JSON.stringify({ parentUuid: s.head, isSidechain: false, userType: "external", cwd: "/home/dev/project", sessionId: sid, version: "2.1.39", type: "user", uuid: `img-${sid}-${n}`, timestamp: "2026-10-01T09:00:00.000Z", message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: png } }] }] } }));
      s.head = `img-${sid}-${n}`;
    }
    s.message({ tools: [{ name: "Write", input: { file_path: `/home/dev/project/app/h${n}.py`, content: file(n + 1, 300) }, output: `File created successfully at: /home/dev/project/app/h${n}.py` }] });
    const progress = Array.from({ length: 24 }, (_, k) => ({ type: "bash_progress", output: `tests/test_h.py ${".".repeat(k)}`, fullOutput: Array.from({ length: k * 12 }, (_, l) => `tests/test_h.py::test_${l} PASSED`).join("\n"), elapsedTimeSeconds: k, totalLines: k * 12 }));
    s.message({ tools: [{ name: "Bash", input: { command: "python -m pytest -v" }, output: n % 3 === 0 ? log(n) : "900 passed in 3.0s", isError: n % 3 === 0, progress }] });
    if (n % 5 === 0) {
      const [task] = s.assistant({ tools: [{ name: "Task", input: { description: "Explore", prompt: `Map the callers of handler_${n}.`, subagent_type: "Explore" } }] });
      const normalized: unknown[] = [];
      for (let k = 0; k < 8; k++) {
        const m = { type: k % 2 ? "user" : "assistant", uuid: `nested-${sid}-${n}-${k}`, timestamp: "2026-10-01T09:00:00.000Z", message: k % 2 ? { role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_n_${n}_${k - 1}`, content: file(n, 40) }] } : { id: `msg_n_${n}_${k}`, role: "assistant", content: [{ type: "tool_use", id: `toolu_n_${n}_${k}`, name: "Grep", input: { pattern: `handler_${n}` } }] } };
        normalized.push(m);
        s.progress(task!, { type: "agent_progress", agentId: `a${n}x${i}`, prompt: `Map the callers of handler_${n}.`, message: m, normalizedMessages: [...normalized] });
      }
      s.result(task!, `Callers of handler_${n}: app/routes.py:${n}\nagentId: a${n}x${i} (for resuming)`);
    }
    if (n % 10 === 0) bytes = s.lines.reduce((a, l) => a + l.length + 1, 0);
  }
  s.assistant({ text: "Done: the handlers are fixed and the suite is green." });
  writeFileSync(join(dir, `${sid}.jsonl`), s.text());
  const sub = new ClaudeSessionWriter(sid, "/home/dev/project", undefined, "2.1.39");
  sub.sidechain = true;
  sub.user("Map the callers of handler_0.");
  for (let k = 0; k < 40; k++) sub.act("Grep", { pattern: `handler_${k}`, path: "app/" }, file(k, 60));
  mkdirSync(join(dir, sid, "subagents"), { recursive: true });
  writeFileSync(join(dir, sid, "subagents", `agent-a0x${i}.jsonl`), sub.text());
}

/** The real-shaped corpus (COMPOSER_LAB_BENCH_REAL_MB, default 120 MB, ~6 MB sessions). */
export function realCorpus(): { dir: string; bytes: number; files: number } {
  const mb = Number(process.env.COMPOSER_LAB_BENCH_REAL_MB ?? 120);
  const dir = scratchDir("bench", "traces", `real-v1-${mb}mb`);
  mkdirSync(dir, { recursive: true });
  const sessions = Math.ceil(mb / (SESSION_MB * 3));
  for (let i = 0; i < sessions; i++) if (!existsSync(join(dir, `real-${i.toString().padStart(5, "0")}.jsonl`))) realShapedSession(i, dir);
  const files = walkFiles(dir);
  return { dir, bytes: files.reduce((a, f) => a + statSync(f).size, 0), files: files.length };
}

const walkFiles = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walkFiles(join(d, e.name)) : [join(d, e.name)]));

export function corpus(): { dir: string; bytes: number; files: number } {
  const dir = scratchDir("bench", "traces", `v2-${TARGET_MB}mb`);
  mkdirSync(dir, { recursive: true });
  const files = Math.ceil(TARGET_MB / SESSION_MB);
  for (let i = 0; i < files; i++) {
    const f = join(dir, `session-${i.toString().padStart(5, "0")}.jsonl`);
    if (!existsSync(f)) writeFileSync(f, session(i));
  }
  const bytes = readdirSync(dir).reduce((a, f) => a + statSync(join(dir, f)).size, 0);
  return { dir, bytes, files };
}

/** The comparator: nothing but reading, splitting and JSON.parse, in a Node process of its own. */
const BARE = `
const { readdirSync, readFileSync } = require("node:fs");
const { join } = require("node:path");
const dir = process.argv[1];
let records = 0;
const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
  const f = join(d, e.name);
  if (e.isDirectory()) walk(f);
  else for (const line of readFileSync(f, "utf8").split("\\n")) if (line) { JSON.parse(line); records++; }
} };
walk(dir);
process.stdout.write(JSON.stringify({ records }) + "\\n");
`;

/** Prints the process's peak RSS (all threads) on stderr at exit. */
const RSS_PROBE = "data:text/javascript,process.on('exit',()=>process.stderr.write('\\nPEAK_RSS '+process.resourceUsage().maxRSS*1024+'\\n'))";

function timed(args: string[]): { seconds: number; rss: number; stdout: string } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ["--import", RSS_PROBE, ...args], { cwd: projectRoot(), encoding: "utf8", maxBuffer: 64 << 20, env: { ...process.env, COMPOSER_LAB_FROM_SOURCE: undefined } });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${args.join(" ")} failed (${r.status}):\n${r.stderr.slice(-2000)}`);
  return { seconds, rss: Number(/PEAK_RSS (\d+)/.exec(r.stderr)?.[1] ?? NaN), stdout: r.stdout };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const spread = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;

/** bare vs CLI over one corpus, alternated, ROUNDS times each. */
function compare(dir: string, bin: string) {
  const bare: { seconds: number; rss: number }[] = [];
  const cli: { seconds: number; rss: number }[] = [];
  let records = 0;
  let sum: Record<string, any> = {};
  for (let round = 0; round < ROUNDS; round++) {
    process.stderr.write(`bench traces: ${dir.split("/").pop()} round ${round + 1}/${ROUNDS}\n`);
    const b = timed(["-e", BARE, dir]);
    records = JSON.parse(b.stdout).records;
    bare.push(b);
    const c = timed([bin, "traces", "summarize", dir, "--json"]);
    sum = JSON.parse(c.stdout);
    cli.push(c);
  }
  const bareS = median(bare.map((x) => x.seconds));
  const cliS = median(cli.map((x) => x.seconds));
  return { bare, cli, records, sum, bareS, cliS, ratio: bareS / cliS };
}

export async function run(): Promise<BenchResult> {
  process.stderr.write(`bench traces: preparing a ${TARGET_MB} MB synthetic corpus and a real-shaped one under scratch/bench/traces/ …\n`);
  const corpora = [{ name: "synthetic", ...corpus() }, { name: "real-shaped", ...realCorpus() }];
  const bin = join(projectRoot(), "bin", "composer-lab.js");
  const small = join(datasetsDir("traces"), "claude", "-home-dev-ledger", "3c9e5b1d-2101-4b7e-8c1a-ledger000001.jsonl");

  // The CLI must run as users run it: from dist/ (a stale dist/ falls back to tsx and slows it down)
  const fromDistBefore = distIsFresh();
  if (!fromDistBefore) process.stderr.write("bench traces: dist/ is older than lib/ (run `npm run build`): the CLI runs from the sources through tsx\n");
  const load = () => loadavg()[0]!.toFixed(1);
  const loadBefore = load();
  // CLI start: --help and one small file, alternated
  const help: number[] = [];
  const smallRun: number[] = [];
  for (let i = 0; i < 7; i++) {
    help.push(timed([bin, "--help"]).seconds);
    smallRun.push(timed([bin, "traces", "summarize", small, "--json"]).seconds);
  }
  const results = corpora.map((c) => ({ ...c, ...compare(c.dir, bin) }));

  let collate: { seconds: number; rss: number } | null = null;
  if (process.env.COMPOSER_LAB_BENCH_COLLATE === "1") {
    const out = tempDir("bench-collate-");
    try {
      process.stderr.write("bench traces: collate over the synthetic corpus …\n");
      collate = timed([bin, "collate", corpora[0]!.dir, "--out", out.path, "--json"]);
    } finally {
      rmSync(out.path, { recursive: true, force: true });
    }
  }
  const fromDist = fromDistBefore && distIsFresh();
  const rssMb = (x: number) => Number((x / 1e6).toFixed(0));
  const line = (r: (typeof results)[number]) => {
    const mb = r.bytes / 1e6;
    return `${r.name}: ${mb.toFixed(0)} MB, ${r.files} files, ${r.sum.sessions} sessions (${r.sum.subagentTranscripts} subagent transcripts), ${r.records} records (${r.sum.toolCalls} tool calls, ${r.sum.errorSites} error sites): ` +
      `summarize ${(mb / r.cliS).toFixed(1)} MB/s vs bare ${(mb / r.bareS).toFixed(1)} MB/s → ratio ${r.ratio.toFixed(2)} (target ≥ 0.8), peak RSS ${rssMb(median(r.cli.map((x) => x.rss)))} MB (bare ${rssMb(median(r.bare.map((x) => x.rss)))} MB)`;
  };
  return {
    summary:
      `${results.map(line).join("; ")}; ${ROUNDS} rounds, CLI start included, load ${loadBefore} → ${load()}. ` +
      `CLI start (median of 7): --help ${median(help).toFixed(2)} s, summarize of one small file ${median(smallRun).toFixed(2)} s (target ≤ 0.7 s)` +
      (collate ? `; collate ${collate.seconds.toFixed(0)} s, peak RSS ${rssMb(collate.rss)} MB` : "") +
      (fromDist ? "" : " — NOT from dist/ (stale or changed during the run): the CLI ran through tsx"),
    rows: [
      ...results.flatMap((r) => [
        { run: `${r.name}: bare readFileSync + split + JSON.parse`, median_s: Number(r.bareS.toFixed(2)), spread_s: spread(r.bare.map((x) => x.seconds)), mb_per_s: Number((r.bytes / 1e6 / r.bareS).toFixed(1)), peak_rss_mb: rssMb(median(r.bare.map((x) => x.rss))) },
        { run: `${r.name}: composer-lab traces summarize --json`, median_s: Number(r.cliS.toFixed(2)), spread_s: spread(r.cli.map((x) => x.seconds)), mb_per_s: Number((r.bytes / 1e6 / r.cliS).toFixed(1)), peak_rss_mb: rssMb(median(r.cli.map((x) => x.rss))) },
      ]),
      { run: "composer-lab --help", median_s: Number(median(help).toFixed(3)), spread_s: spread(help), mb_per_s: null, peak_rss_mb: null },
      { run: "traces summarize <one small file> --json", median_s: Number(median(smallRun).toFixed(3)), spread_s: spread(smallRun), mb_per_s: null, peak_rss_mb: null },
      ...(collate ? [{ run: "composer-lab collate --json", median_s: Number(collate.seconds.toFixed(1)), spread_s: "", mb_per_s: null, peak_rss_mb: rssMb(collate.rss) }] : []),
    ],
    ratios: {
      cli_from_dist: fromDist ? 1 : 0,
      ingester_over_bare: Number(results[0]!.ratio.toFixed(3)),
      real_shaped_ingester_over_bare: Number(results[1]!.ratio.toFixed(3)),
      peak_rss_mb: rssMb(median(results[1]!.cli.map((x) => x.rss))),
      cli_help_s: Number(median(help).toFixed(3)),
      cli_small_file_s: Number(median(smallRun).toFixed(3)),
      load_before: Number(loadBefore),
      ...(collate ? { collate_peak_rss_mb: rssMb(collate.rss) } : {}),
    },
  };
}
