/**
 * What the ORIGINAL does, once a task (per grader key and oracle): one run of the task's snapshot
 * with its golden diff, in the grading sandbox with its masks, kept on disk, that gives the run
 * elsewhere what no body can choose:
 * - kin truths (kin_truth.ts): its answers for some calls' list or tuple given as another kind;
 * - its pace: how long it takes one of the oracle's calls (PACE_CALLS of them, each asked twice, the
 *   second ask timed, the first warming it up). The history's time follows the body's own graded
 *   time up to a cap; a body slow everywhere bought the cap and ended the history before its
 *   state turned wrong (round 32's w05: ≈ 20 ms a call, 2,900 of 8,192 calls, wrong from the
 *   6,000th). With the original's pace the grader tells a history the cap cut because the task is
 *   slow from one a body made slow (behaviour.ts, `history_pace`);
 * - which symbols it answers with an object their arguments or an earlier call share (a list, dict,
 *   set, bytearray or deque; behave.py _Aliasing): every oracle call made once more with the
 *   request's `alias`. A body whose answer shares one where the original's never does hands its
 *   caller's own object back, or one answer to two callers (round 34's w07, round 35's w07);
 *   behaviour.ts judges the graded run's.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { Rng } from "../core/index.js";
import { BCall, runBehaviour, type BehaveSymbol, type BOutcome, type MaskSpec, type Sandbox } from "../sandbox/index.js";
import { solvedCopy, type CompareOptions, type FeatureDeletionTask, type Oracle } from "../tasks/index.js";
import { KinTruth, keptTruths, truthCalls } from "./kin_truth.js";

/** The oracle's calls timed for the pace (drawn; every one where there are fewer). */
const PACE_CALLS = 64;
/** A pace call's asks: `<oracle call id>@pace0` warms it, `@pace1` is timed. */
const PACE = "@pace";

export const OriginalPace = z.object({
  /** The original's mean time a call (ms, the runner's wall time of each timed ask). */
  ms: z.number().nonnegative(),
  /** The calls timed. */
  calls: z.number().int().positive(),
});
export type OriginalPace = z.infer<typeof OriginalPace>;

export const OriginalRun = z.object({
  truth: KinTruth,
  /** Absent where none was asked for or the run gave no time (then `why`). */
  pace: OriginalPace.optional(),
  /** The symbols (by index) some of whose calls the original answers with an object their arguments
   *  or an earlier call's share; absent where not asked for or the run failed (then nothing is
   *  judged by it). */
  aliased: z.array(z.number().int().nonnegative()).optional(),
  why: z.string().optional(),
});
export type OriginalRun = z.infer<typeof OriginalRun>;

/** Made again when this changes (the cache's files name it): what the run asks and keeps. */
const ORIGINAL_VERSION = 4;

/** Where a task's run of the original is kept between processes (one file a task, oracle, key and ask). */
function cacheFile(task: FeatureDeletionTask, oracle: Oracle, seed: number, truths: number, pace: boolean, alias: boolean): string {
  const dir = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "composer-lab", "original");
  const key = createHash("sha256").update(`${ORIGINAL_VERSION}\n${task.task_id}\n${oracle.built_at}\n${oracle.calls.length}\n${seed}\n${truths}\n${pace}\n${alias}`).digest("hex").slice(0, 32);
  return join(dir, `${key}.json`);
}

const made = new Map<string, Promise<OriginalRun>>();

/**
 * The original's run of a task: `truths` kin truths (kin_truth.ts truthCalls; 0: none), with
 * `pace` its pace, drawn from `seed` (the grader's key and the task), and with `alias` the symbols
 * it answers with an object its arguments or an earlier call share (OriginalRun.aliased). Made once a process and kept on
 * disk; nothing is run where neither is asked for or the task has no tree of its own.
 */
export function originalRun(task: FeatureDeletionTask, oracle: Oracle, symbols: BehaveSymbol[], sandbox: Sandbox, masks: MaskSpec[], limits: Parameters<typeof runBehaviour>[3], compare: Partial<CompareOptions>, seed: number, ask: { truths: number; pace: boolean; alias: boolean }): Promise<OriginalRun> {
  const none: OriginalRun = { truth: { calls: [], expect: {}, ways: {} } };
  if ((ask.truths === 0 && !ask.pace && !ask.alias) || task.broken.kind !== "dir") return Promise.resolve(none);
  const file = cacheFile(task, oracle, seed, ask.truths, ask.pace, ask.alias);
  const known = made.get(file);
  if (known) return known;
  const making = (async (): Promise<OriginalRun> => {
    try {
      return OriginalRun.parse(JSON.parse(readFileSync(file, "utf8")));
    } catch {
      /* not made yet here */
    }
    const drawn = truthCalls(oracle, new Rng(seed), ask.truths);
    const truthOf = (got: (id: string) => BOutcome | undefined): KinTruth => (ask.truths ? keptTruths(drawn, got, compare) : none.truth);
    const timed = ask.pace ? new Rng(seed ^ 0x3c6ef372).shuffle(oracle.calls).slice(0, PACE_CALLS) : [];
    const bases = new Set(drawn.bases.map((b) => b.id));
    const rest = ask.alias ? oracle.calls.filter((c) => !bases.has(c.id)).map((c) => BCall.parse(c)) : [];
    const calls = [...drawn.bases.map((b) => BCall.parse(b)), ...drawn.variants.map((v) => v.call), ...timed.flatMap((c) => [0, 1].map((i) => BCall.parse({ ...c, id: `${c.id}${PACE}${i}` }))), ...rest];
    if (!calls.length) return { truth: truthOf(() => undefined) };
    const symbolOf = new Map(calls.map((c) => [c.id, c.symbol]));
    const solved = solvedCopy(task);
    try {
      const run = await runBehaviour(sandbox, solved.path, { symbols, calls, roots: oracle.roots, project: oracle.project, ...(ask.alias ? { alias: true } : {}) }, limits, { masks });
      if (!run.outcomes) {
        const why = `the original's run failed: ${run.failure ?? "no outcomes"}`;
        return { truth: { ...none.truth, why }, why };
      }
      const got = (id: string) => run.outcomes!.get(id)?.[0];
      const times = timed.map((c) => got(`${c.id}${PACE}1`)?.ms).filter((ms): ms is number => ms !== undefined);
      const out: OriginalRun = {
        truth: truthOf(got),
        ...(ask.alias ? { aliased: [...new Set((run.aliased ?? []).map((id) => symbolOf.get(id)).filter((s): s is number => s !== undefined))].sort((a, b) => a - b) } : {}),
        ...(times.length ? { pace: { ms: times.reduce((s, x) => s + x, 0) / times.length, calls: times.length } } : ask.pace ? { why: "the original's run timed none of its calls" } : {}),
      };
      try {
        mkdirSync(join(file, ".."), { recursive: true });
        writeFileSync(file, JSON.stringify(out));
      } catch {
        /* kept for this process only */
      }
      return out;
    } finally {
      solved.remove();
    }
  })();
  made.set(file, making);
  return making;
}
