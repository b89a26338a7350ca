/**
 * Strings Python regexes match (issue 26: a fuzzer's dictionary for the oracle's hidden inputs, from
 * the regexes the original's reached code works with, BehaveRun.regexes). Runs lib/tasks/
 * regex_samples.py on the host (like pyast.py: it parses and matches the patterns, it runs none of the
 * analysed code). Each pattern's samples depend only on (seed, pattern, flags); a pattern whose
 * generation or final `re.search` check runs past `patternTimeoutMs` (catastrophic backtracking in
 * the regex engine's C loop, which Python cannot interrupt) gets [], the helper is killed and
 * restarted at the next pattern.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { z } from "zod";
import { jupyterPython, projectRoot } from "../core/index.js";

/** A Python regex: its source and re flags (an int, as `re.compile(pattern, flags)` takes them). */
export const RegexPattern = z.object({ pattern: z.string(), flags: z.number().int().nonnegative().default(0) });
export type RegexPattern = z.input<typeof RegexPattern>;

export const RegexSampleOptions = z.object({
  /** Killed past this per pattern (wall clock, from the helper's "ready": its start-up is not counted). */
  patternTimeoutMs: z.number().int().positive().default(2000),
  /** The helper's start-up, up to its "ready" (an interpreter's start on a loaded machine). */
  startTimeoutMs: z.number().int().positive().default(30_000),
  /** The helper's wall-clock safety net per pattern behind its deterministic work cap (it stops drawing, keeps what it has; only a pathological pattern reaches it). */
  generateMs: z.number().int().positive().default(1500),
  /** The whole call: patterns not reached by then get []. */
  totalTimeoutMs: z.number().int().positive().default(60_000),
});
export type RegexSampleOptions = z.input<typeof RegexSampleOptions>;

const Line = z.union([z.object({ i: z.number().int().nonnegative(), samples: z.array(z.string()) }).strict(), z.object({ end: z.literal(true) }).strict(), z.object({ ready: z.literal(true) }).strict()]);

/** One helper run from pattern `start` on; resolves with the index it stopped at (the first pattern
 *  without an answer; patterns.length when it finished). */
function runFrom(req: object, start: number, n: number, out: string[][], perPatternMs: number, startMs: number, deadline: number): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(jupyterPython(), ["-I", "-S", join(projectRoot(), "lib", "tasks", "regex_samples.py")], { stdio: ["pipe", "pipe", "ignore"] });
    let next = start;
    let buffer = "";
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill("SIGKILL");
      resolve(next);
    };
    const arm = (ms = perPatternMs) => {
      clearTimeout(timer);
      timer = setTimeout(finish, Math.max(1, Math.min(ms, deadline - Date.now())));
    };
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (d: string) => {
      buffer += d;
      for (let i = buffer.indexOf("\n"); i >= 0 && !done; i = buffer.indexOf("\n")) {
        const r = Line.safeParse((() => { try { return JSON.parse(buffer.slice(0, i)); } catch { return null; } })());
        buffer = buffer.slice(i + 1);
        if (!r.success || ("i" in r.data && r.data.i !== next)) return finish(); // not the helper's record: this pattern gets []
        if ("ready" in r.data) {
          arm();
          continue;
        }
        if ("end" in r.data) {
          next = n;
          return finish();
        }
        out[next] = r.data.samples;
        next++;
        arm();
      }
    });
    child.on("exit", finish);
    child.on("error", finish);
    child.stdin!.on("error", () => {}); // a helper killed before reading its request
    arm(startMs);
    child.stdin!.end(JSON.stringify({ ...req, start }));
  });
}

/**
 * Up to `perPattern` distinct strings each pattern matches (`re.search`), deterministic for a seed;
 * result[i] belongs to patterns[i]. A pattern that does not compile, is over 2,000 characters, is
 * pathological (its samples would be huge or its check backtracks past the timeout) gets [].
 */
export async function regexSamples(patterns: RegexPattern[], perPattern: number, seed: number, options: RegexSampleOptions = {}): Promise<string[][]> {
  const o = RegexSampleOptions.parse(options);
  const pats = z.array(RegexPattern).parse(patterns);
  const out: string[][] = pats.map(() => []);
  if (pats.length === 0 || perPattern <= 0) return out;
  const req = { patterns: pats, per_pattern: Math.floor(perPattern), seed: Math.floor(seed), budget_ms: Math.min(o.generateMs, o.patternTimeoutMs) };
  const deadline = Date.now() + o.totalTimeoutMs;
  let start = 0;
  while (start < pats.length && Date.now() < deadline) {
    const stopped = await runFrom(req, start, pats.length, out, o.patternTimeoutMs, o.startTimeoutMs, deadline);
    start = stopped + 1; // the pattern it stopped at keeps [] (every restart moves on by one at least)
  }
  return out;
}
