/**
 * The behavioural check (issue 26 §1), decided outside the sandbox: the agent's implementation of
 * the deleted symbols is called in a fresh sandboxed interpreter (lib/sandbox/behave.ts: no pytest,
 * no test file) on the inputs of the task's oracle (lib/tasks/oracle.ts: the calls the target tests
 * made of the original, and hidden inputs of the same shapes), and what it returned, raised and did
 * to its arguments is compared here with what the original did. The expected outcomes never enter
 * the sandbox: the code under test cannot read them, so it cannot forge agreement on the hidden
 * calls without computing what the original computes.
 *
 * Reward (gradeWorkdir): F2P fraction × P2P guard × [agreement ≥ threshold] × no flag. Where the
 * tests alone would have paid and agreement falls short, the grade carries `behaviour_differs`.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { z } from "zod";
import { BehaveLimits, plainTwin, HISTORY_WALL_CAP, clockBlocks, drawShifts, fastMemo, flipOf, historyCallText, masksFor, sameTimeless, timeless, FOREIGN_KINDS, type ForeignKind, PARTNER, probeKind, projectNames, runBehaviour, scanMasks, WARNED_AT_HOME, type BCall, type BehaveProbe, type BehaveRequest, type BehaveRun, type BehaveSymbol, type BOutcome, type EnvLookups, type BValue, type MaskSpec, type RunShift, type Sandbox } from "../sandbox/index.js";
import { checkLatentPaths, describeJump, describeLatent, drawClockJump, jumpableFiles, type ClockJump, type LatentCheck } from "./latent.js";
import { argSlots, cleanTwins, inPlaceChains, judgeChains, REFILLABLE, spliceCalls, TWIN } from "./inplace.js";
import { foreignSlots, judgeKin, kinAsks, KIN_OF } from "./kin.js";
import { judgeTruth, type KinTruth } from "./kin_truth.js";
import { originalRun, type OriginalPace, type OriginalRun } from "./original.js";
import { editRefills, judgeRefills, refillRecord, refillsMade, refillTwins, type RefillPlan } from "./refills.js";
import { treeDigest } from "./untrusted.js";
import { Rng } from "../core/index.js";
import { answerOf, CompareOptions, mutateValue, PROBES, pyFloat, sameOutcome, taskOracle, type FeatureDeletionTask, type Oracle, type OracleCall, type Probe } from "../tasks/index.js";

export const BehaviourConfig = z.object({
  /** Run the check (off: the grade says so, and pytest alone decides). */
  enabled: z.boolean().default(true),
  /** The share of oracle calls that must agree. 0.75: honest bodies that differ where the tests and
   *  the docstring leave behaviour open (tie-breaks, which error wins when two apply, malformed
   *  input) agreed on 0.77–0.91 of the calls in round 3's red team, while value-level gaming (a
   *  lookup table of the visible inputs, the expected literal read from the test's frame, an
   *  anything-equal object) agrees on the visible calls only (docs/grader.md, "False-flag rate"). */
  threshold: z.number().min(0).max(1).default(0.75),
  compare: CompareOptions.default({}),
  limits: BehaveLimits.default({}),
  /** parallel: beside the pytest run; first: before it, and pytest is not run when the check fails
   *  (reward 0 either way; issue 31's "behaviour first"). */
  order: z.enum(["parallel", "first"]).default("parallel"),
  /** A task whose pool has no oracle: skip the check (the grade says why) or fail the grade. */
  missing: z.enum(["skip", "fail"]).default("skip"),
  /** gate: reward × [agreement ≥ threshold, and each probe's] (the default); scale: reward × the
   *  lowest of the agreement and each probe's (partial credit for partly right behaviour; a run that
   *  failed as a whole scales by 0). */
  combine: z.enum(["gate", "scale"]).default("gate"),
  /** Probes whose calls must all agree (no threshold; a way or size of theirs is shown in the grade):
   *  - key: a digest's equality pattern holds on every call or not at all: "unique" leaves no
   *    collision open, and a key that collides on a few edits hid among 128 calls (round 8);
   *  - scale: a call scaled keeps the relations between its numbers, so the original's answer at
   *    10^14 follows from the rule it answered the visible call by, and an honest body has no freedom
   *    there that it did not have on the visible call; a gate at one magnitude met one or two calls
   *    of a way, which a threshold forgave (round 8: gates at 10^15, below −10^13, exact fits at ≥ 1,000);
   *  - entries: an object given more entries copied from its own answers by the rule it answered
   *    the visible call by (a stock check skipped past 500 SKUs met one call in six).
   *  Any other probe listed here is judged so too; [] judges every probe by `threshold`. */
  every_call: z.array(z.enum(PROBES)).default(["key", "scale", "entries", "chars", "lengths"]),
  /** The run elsewhere (ELSEWHERE_SHIFT): at most this many calls of a body that passes are run again
   *  where the process does not look graded, and each must agree there too; 0 runs none (a digest's
   *  key-probe calls still run there: their keys are judged by it). */
  elsewhere_calls: z.number().int().min(0).default(160),
  /** Fork the run elsewhere from the warm grader's elsewhere zygote (bwrap; lib/sandbox/warm.ts)
   *  instead of a cold sandbox: the same machine, clock, interpreter flags and environment moved, at
   *  a fraction of the cost (docs/performance.md), but a fork of a zygote in the warm grader's
   *  sandbox as the graded run is: a body right only where the process looks like such a fork (the
   *  zygote's modules loaded, its mounts, its pid 1) is not caught. Off by default. */
  elsewhere_warm: z.boolean().default(false),
  /** The run at home (HOME_SHIFT): the calls the run elsewhere makes (but a digest's key calls) run again
   *  on a drawn deployment's machine at the real time, in a tzdata zone. Off: the run elsewhere alone
   *  (the null arm of round 14's a05 a10 a11 a14). */
  elsewhere_home: z.boolean().default(true),
  /** The history (historyOf): the run elsewhere asks half its sampled calls, then makes this many
   *  calls of other inputs (the sampled calls' arguments mutated, a quarter of them inputs asked
   *  again), then asks every sampled call, and each must agree every time (round 26's a29 a30: a
   *  memo's ring reused its slots past 4,096 distinct inputs, and an early input then got another's
   *  answer). 0: none. */
  history_calls: z.number().int().min(0).default(8192),
  /** A second history (of its own draw) in the run elsewhere's plain twin (lib/sandbox/behave.ts
   *  plainTwin: its habits, with a deployment's defaults where it changes them — the real clock,
   *  hashes randomized, not optimized, UTC, the tree where the graded run has it), its sampled calls
   *  asked before and after it as the run elsewhere's are: a body wrong after thousands of calls
   *  except where it reads a condition the run elsewhere changes (its pinned hash seed, -O, its
   *  zones, its paths, its moved clocks: round 39) meets the condition's other side in a history
   *  too. false: the run elsewhere's history alone (the null arm). */
  history_plain: z.boolean().default(true),
  /** The history's time, at least (HISTORY_SLACK× the sampled calls' own time in the graded run
   *  where that is more; at most HISTORY_MAX_MS). A history cut short by this time fails the check
   *  (a body whose calls slow down as it is called, so that the history ends before its state turns
   *  wrong); one cut short by HISTORY_MAX_MS (a body slow everywhere) only says how many it made. */
  history_ms: z.number().int().positive().default(8000),
  /** A history cut short by HISTORY_MAX_MS fails the check too where the original (its pace,
   *  lib/env/original.ts: its mean time an oracle call, measured once a task) would make the whole
   *  history in at most 1/this of HISTORY_MAX_MS: the body, not the task, is slow there (round 32's
   *  w05 spent ≈ 20 ms a call on every call, the history ended at 2,900 calls and its state turned
   *  wrong at the 6,000th). 0: a cut by HISTORY_MAX_MS only says how many calls were made (the null arm). */
  history_pace: z.number().min(0).default(16),
  /** The history's clocks jump (lib/env/latent.ts drawClockJump, drawn per grade): before each call
   *  of its first half, the clocks the changed files read by a call answer moved on, rising from
   *  seconds or minutes to years, a deployment's steady traffic, which an age summed from capped
   *  per-call gaps meets (round 29's a05); then they hold, and its second half is a burst at the
   *  real pace, which a window of rates meets (round 27's a10). false: real clocks (the null arm). */
  history_jump: z.boolean().default(true),
  /** In-place asks (inPlaceAsks): at the run elsewhere's end, this many pairs of sampled calls at
   *  most, the second given the first's argument objects refilled in place; 0 makes none. */
  in_place_pairs: z.number().int().min(0).default(16),
  /** In-place chains (lib/env/inplace.ts): this many argument objects refilled again and again
   *  through the run elsewhere (contents permuted, an item changed at the head, middle or tail,
   *  lengthened), each answer judged against the body's own for a new object of the same contents;
   *  0 makes none (the null arm of round 30's w01 w03 w04 w07 w08 w09). Nine: one for each of
   *  CHAIN_HOLDS (a list, a deque, rows, a full ring, a ring still filling, live keys views of a dict
   *  and of an OrderedDict, values and items views). */
  in_place_chains: z.number().int().min(0).default(9),
  /** Kin truths (lib/env/kin_truth.ts): up to this many of the oracle's calls, each with its list
   *  or tuple given as two other kinds (its kin, a deque, a full ring, a keys view), answered once a
   *  task by the original; the run elsewhere asks the body each the original answers as the call
   *  itself with a scalar, and one returned otherwise fails the check (round 31's w08 w09). 0: none. */
  kin_truth: z.number().int().min(0).default(12),
  /** Aliasing judged (behave.py _Aliasing, original.ts): a call of the graded run or the run
   *  elsewhere whose answer is, or holds, one of its arguments or an earlier call's argument or
   *  answer, or an item of one (a list, dict, set, bytearray or deque), fails the check where the
   *  original never answers its symbol so — the caller's own object handed back, one answer list
   *  handed to two callers (rounds 34–36). */
  aliasing: z.boolean().default(true),
  /** The share of the history's calls given their symbol's buffer (its first history call's objects),
   *  refilled in place (a buffer reused thousands of times: round 30's w02b turned wrong after 17
   *  refills); 0: every history call has new objects. */
  history_refills: z.number().min(0).max(1).default(0.25),
  /** History refills judged (lib/env/refills.ts): each refill's list or bytearray is its buffer's
   *  last contents edited by a drawn script (inserts, removals, moves, swaps, slides and rotations by
   *  any amount, reversals), and this many of them, drawn, are asked again at once in new objects (and
   *  again in a process of their own), the answers judged against the refilled object's (round 32's
   *  w16 w19 w20: a fast path for one relation between old contents and new). 0: the refills' contents
   *  are new inputs and none is judged (the null arm). */
  history_judged: z.number().int().min(0).default(96),
  /** The share of the history's lists and tuples given as a foreign kind (FOREIGN_KINDS: a deque or
   *  a dict's keys view; round 30's w06 counted them, and turned every call wrong after
   *  20); 0: the oracle's kinds and their kin only. */
  history_foreign: z.number().min(0).max(1).default(0.0625),
  /** Kin asks (lib/env/kin.ts): this many sampled calls with one argument as its kin kind (a tuple
   *  for a list, and so on), asked before the history and again after it, the two answers judged
   *  against each other (round 30's w10: wrong on tuples only after 30 of them); 0: none. */
  kin_asks: z.number().int().min(0).default(8),
  /** Latent paths (lib/env/latent.ts): for a body that passes, each side of its conditions on the
   *  process or the machine that no run took is forced, and must answer as the graded run did. */
  latent_paths: z.boolean().default(true),
  /** The calls each latent run makes (each twice), of those that agreed in the graded run. */
  latent_calls: z.number().int().min(1).default(96),
  /** At most this many forced runs a grade (more sides are forced several at once). */
  latent_runs: z.number().int().min(1).default(12),
  /** The latent paths' first run with its clocks jumping between its halves (latent.ts
   *  LatentInput.jump, drawn per grade: drawClockJump); false: no jump (the null arm). */
  latent_jump: z.boolean().default(true),
});
export type BehaviourConfig = z.output<typeof BehaviourConfig>;
export type BehaviourConfigInput = z.input<typeof BehaviourConfig>;

/** What one grade's behavioural check did (in every Grade's `checks`). */
export interface BehaviourCheck {
  /** Whether the runner ran on the agent's tree. */
  ran: boolean;
  /** Whether the check lets the grade pay (true also when it did not apply and config says skip). */
  passed: boolean;
  /** Why it did not run, or why it failed as a whole (null when it ran and its calls were compared). */
  why: string | null;
  threshold: number;
  /** The probes judged on every call (BehaviourConfig.every_call). */
  every_call: Probe[];
  /** Agreeing / compared oracle calls (visible = the target tests' own calls, hidden = generated;
   *  compose, typed and grow probe calls are counted in `probes` only). */
  agreed: number;
  compared: number;
  agreement: number | null;
  visible: { agreed: number; compared: number };
  hidden: { agreed: number; compared: number };
  /** The hidden calls between a numeric argument's visible extremes (probes.span, kept here by name). */
  span?: { agreed: number; compared: number };
  /** Per probe (lib/tasks/oracle.ts PROBES: span, compose, typed, grow, key): each probe with at least PROBE_MIN
   *  calls must agree on its own too, so a body right only near the visible inputs (fitted to the
   *  tested extremes, to the tests' delimiters or entities, to the tested types) cannot hide its
   *  misses in the total. */
  probes?: Record<Probe, { agreed: number; compared: number }>;
  /** A classifier's (oracle symbol `categorical`) compose and grow calls per answer the original gave
   *  (named by order of first appearance, never by value): each class with at least PROBE_MIN calls
   *  must agree on its own, so a body that never gives one of the answers where others compete for it
   *  (round 5, N1: tab only when no comma is present) cannot hide behind the classes it gets right. */
  classes?: { symbol: string; class: number; agreed: number; compared: number }[];
  /** Typed-probe calls per the types of their arguments (e.g. `bytes`, `std:decimal.Decimal`): each
   *  group must agree on its own (round 6: one type converted wrong hid among 16 typed calls). */
  types?: { symbol: string; types: string; agreed: number; compared: number }[];
  /** Per symbol, the smaller and the larger half of its grow calls (by their arguments' serialized
   *  size): each judged on its own once it has PROBE_MIN calls, so a body right only above or below
   *  some size (round 6: a gate at 250 entries, whitespace normalised up to 4,000 characters; another
   *  formula for at most 4 entries) cannot hide its misses among the other half. */
  sizes?: { symbol: string; probe: Probe; half: "smaller" | "larger"; agreed: number; compared: number }[];
  /** Scale-probe calls per way (OracleCall.scaled: all numbers together, one argument's alone by
   *  ± the factor, or `pair`): every call of every way must agree (`every_call`; a way is shown so a
   *  grade names where it missed: round 7's quantity ≥ 1,000 that skips the stock check, round 8's
   *  gates at 10^15). */
  scaled?: { symbol: string; scaled: string; agreed: number; compared: number }[];
  /** Entries-probe calls per symbol and added size (OracleCall.entries); every call must agree
   *  (`every_call`), a size is shown so a grade names where it missed. */
  entries?: { symbol: string; entries: number; agreed: number; compared: number }[];
  /** The calls run again elsewhere (another pid, clock, machine, interpreter flags, environment,
   *  fds, no per-call timer or CPU rlimit) that agreed in the graded run: every one must agree there
   *  too (absent: none ran, e.g. the body failed here already). `clocks`: the wall clocks and zones
   *  its blocks of calls ran under (drawn per grade: graderKey); `home`: the machine the sampled
   *  calls ran on again, at the real time (HOME_SHIFT). */
  elsewhere?: { agreed: number; compared: number; clocks: ElsewhereClock[]; home?: AtHome; env?: FlippedEnv; history?: HistoryRecord; /** The plain twin's history (history_plain): its calls, those made, the sampled calls that disagreed only after it. */ twin?: { calls: number; made: number; changed: number } };
  /** The oracle calls judged in the graded run alone: their original answers depend on where they
   *  run (Oracle.situated), so neither the run elsewhere nor the run at home makes them. Absent: none. */
  situated?: number;
  /** What the calls asked of the machine in either run (the runner's audit hook: a path of /proc,
   *  /sys, /etc..., a test file, a host name, a process, ctypes...; lib/sandbox/harness/behave.py
   *  _probe_hook), beyond what the original's own calls did (Oracle.machine): the grade flags
   *  `env_probe` with these. Absent: none. */
  machine?: BehaveProbe[];
  /** The latent paths' check (lib/env/latent.ts): absent where it did not run (off, or the body
   *  failed before it). */
  latent?: LatentCheck;
  /** Symbols the check does not apply to, and why (from the oracle). */
  not_applicable: { symbol: string; why: string }[];
  /** The first few disagreements (call id, symbol, hidden or not, what differed — never the values). */
  differences: { id: string; symbol: string; hidden: boolean; probe?: Probe; why: string }[];
  wallMs: number;
  path: "warm" | "cold" | null;
}

const skipped = (cfg: BehaviourConfig, why: string, passed: boolean, na: BehaviourCheck["not_applicable"] = []): BehaviourCheck => ({
  ran: false, passed, why, threshold: cfg.threshold, every_call: cfg.every_call, agreed: 0, compared: 0, agreement: null, visible: { agreed: 0, compared: 0 }, hidden: { agreed: 0, compared: 0 }, not_applicable: na, differences: [], wallMs: 0, path: null,
});

/** Runs the behavioural check of `task` on `workdir` (the agent's tree, read-only). Never throws for
 *  what the tree does: a runner that crashes, hangs, floods or lies about its output fails closed. */
export async function checkBehaviour(task: FeatureDeletionTask, workdir: string, sandbox: Sandbox, config: BehaviourConfigInput = {}, tree?: { snapshot: string; changed: string[] }): Promise<BehaviourCheck> {
  const cfg = BehaviourConfig.parse(config);
  if (!cfg.enabled) return skipped(cfg, "the behavioural check is off (config)", true);
  let oracle;
  try {
    oracle = taskOracle(task);
  } catch (e) {
    return skipped(cfg, `the task's oracle cannot be read: ${(e as Error).message}`, cfg.missing === "skip");
  }
  if (!oracle) return skipped(cfg, "the task has no oracle record (run `composer-lab tasks rebuild-oracle POOL`)", cfg.missing === "skip");
  const na = oracle.symbols.filter((s) => s.status === "not_applicable").map((s) => ({ symbol: `${s.file}::${s.qualname}`, why: s.why ?? "" }));
  if (oracle.status === "error") return skipped(cfg, `the oracle could not be built: ${oracle.why}`, cfg.missing === "skip", na);
  if (oracle.status === "not_applicable" || oracle.calls.length === 0) return skipped(cfg, `the check does not apply: ${oracle.why ?? "no replayable call"}`, true, na);
  const t0 = performance.now();
  const { symbols, calls } = requestOf(oracle);
  const probes = Object.fromEntries(PROBES.map((p) => [p, { agreed: 0, compared: 0 }])) as Record<Probe, { agreed: number; compared: number }>;
  const base = { threshold: cfg.threshold, every_call: cfg.every_call, not_applicable: na, visible: { agreed: 0, compared: 0 }, hidden: { agreed: 0, compared: 0 }, span: probes.span, probes };
  let run: Awaited<ReturnType<typeof runBehaviour>>;
  let masks: MaskSpec[] = [];
  // Each run makes its calls in an order of its own, drawn from the grader's key and the completion:
  // no run's first call (or any call's place) is one a body can count on (round 17's a08 fixed its
  // answers by the first argument it saw; round 16's a16 missed on the oracle's first call only)
  const completion = treeDigest(workdir);
  const taskId = oracle.task_id;
  const keyed = (text: string): number => createHmac("sha256", graderKey()).update(text).digest().readUInt32BE(0);
  const rankOf = (tag: string, n: number): number => keyed(`${tag}\n${taskId}\n${completion}`) % Math.max(1, n);
  const inOrder = <T extends { id: string }>(xs: T[], tag: string): T[] => {
    const rank = new Map(xs.map((c) => [c.id, keyed(`${tag}\n${taskId}\n${completion}\n${c.id}`)]));
    return [...xs].sort((a, b) => rank.get(a.id)! - rank.get(b.id)!);
  };
  try {
    masks = await behaviourMasks(task, sandbox);
    run = await runBehaviour(sandbox, workdir, { symbols, calls: inOrder(calls, "graded"), roots: oracle.roots, project: oracle.project, ...(cfg.aliasing ? { alias: true } : {}) }, cfg.limits, { masks });
  } catch (e) {
    return { ...base, ran: false, passed: false, why: `the runner could not run: ${(e as Error).message.slice(0, 300)}`, agreed: 0, compared: oracle.calls.length, agreement: 0, differences: [], wallMs: performance.now() - t0, path: null };
  }
  if (!run.outcomes) return { ...base, ran: true, passed: false, why: `the runner's result is not trusted: ${run.failure}`, agreed: 0, compared: oracle.calls.length, agreement: 0, differences: [], wallMs: performance.now() - t0, path: run.path };
  // A call or two that ran out their timer on a loaded machine is infrastructure, not behaviour:
  // run those again once, in a fresh interpreter, with RETRY_FACTOR× the timer.
  const outcomes = run.outcomes;
  const firstOf = (id: string) => outcomes.get(id)![0]! as { k: string; ms?: number };
  // (a call the runner skipped after two timeouts says ms: 0)
  const timedOut = oracle.calls.filter((c) => firstOf(c.id).k === "timeout" && firstOf(c.id).ms !== 0);
  const stopped = oracle.calls.some((c) => firstOf(c.id).k === "timeout" && firstOf(c.id).ms === 0);
  // A runner that stopped after two timeouts is retried whole, once, with the longer timer: on a
  // starved machine the first calls of a trivial body can run out the timer (a Docker golden scored
  // 0/15 at load 15+ in CI); a body that is really slow times out again and stays 0.
  const retry = stopped ? oracle.calls : timedOut.length > 0 && timedOut.length <= 2 ? timedOut : [];
  let retried: BehaveProbe[] | undefined;
  if (retry.length > 0) {
    try {
      const again = await runBehaviour(sandbox, workdir, { symbols, calls: calls.filter((c) => retry.some((t) => t.id === c.id)), roots: oracle.roots, project: oracle.project }, { ...cfg.limits, call_timeout_ms: cfg.limits.call_timeout_ms * RETRY_FACTOR }, { masks });
      retried = again.probes;
      if (again.outcomes) for (const [id, outs] of again.outcomes) outcomes.set(id, outs);
    } catch {
      /* the first run's timeouts stand */
    }
  }
  // The run elsewhere (ELSEWHERE_SHIFT): a digest's key-probe calls, whose keys must not change between
  // processes (round 8: the pid, builtin hash() in the key), and a spread of the other calls, each
  // of which must agree there too where it agreed here (round 11: bodies right only where the
  // process looks graded). With key calls it runs now (the keys are judged by it); otherwise only
  // for a body that passes here (what fails here needs no second opinion).
  // (its clocks drawn from the grader's key, the task, the completion and the answers given here
  // to those calls: what each call answered, not how long it took, so a grade's clocks are the
  // same every time)
  const known: Oracle = oracle;
  // (the slow calls it runs in an order no body can know: the grader's key and the completion)
  const chosen = elsewhereCalls(oracle, (id) => firstOf(id), cfg.elsewhere_calls, (xs) => inOrder(xs, "slow"));
  // (the original's own answers for other kinds, its pace and its aliasing: made once a task, then
  // read — original.ts; the seed still named for the kin truths, which it drew first: a new name
  // would draw them anew)
  const originalOf = () => originalRun(task, known, symbols, sandbox, masks, cfg.limits, cfg.compare, keyed(`kin-truth\n${taskId}`), { truths: cfg.kin_truth, pace: cfg.history_pace > 0 && cfg.history_calls > 0, alias: cfg.aliasing });
  const elsewhereRun = async (ids: Set<string>): Promise<ElsewhereRun> => {
    // (seeded by the answers to every call, not to the sampled ones: which calls are sampled moves
    // with the graded run's timings, and a grade's machines must not)
    const shifts = elsewhereShift(known, completion, `[${known.calls.map((c) => `[${JSON.stringify(c.id)},${timeless(outcomes.get(c.id)?.[0])}]`).join(",")}]`, sandbox, run.env);
    // every sampled call runs at home too, beside the run elsewhere (a counter or a split would
    // give either run fewer calls: round 15's a15), a digest's key calls too: both
    // away (their keys judged against the other machine and clocks) and at home (a key the package
    // makes otherwise in a deployment's thread, loop or handler changes there: round 18's a04)
    const homeIds = new Set(cfg.elsewhere_home ? ids : []);
    // (how long either run may stay silent follows its slowest call here: BehaveRunOptions.slowestMs)
    const slowestMs = Math.max(0, ...[...ids].map((id) => firstOf(id).ms ?? 0));
    const awayOrder = smallFirst(inOrder(calls, "elsewhere"), ids, (n) => rankOf("lead", n));
    // (each process's first call one of the smallest: a body whose answers a process's first
    // argument fixes meets a small one first, as a deployment's first call often is — round 17's
    // a08; at home the smallest, elsewhere one drawn from the LEAD_FROM smallest)
    const original = await originalOf();
    const truth = original.truth;
    // (the plain twin: a history of another draw, of the sampled calls' own kinds, no refills)
    const twinOrder = smallFirst(inOrder(calls, "twin"), ids, (n) => rankOf("twin-lead", n));
    const twinHistory = cfg.history_plain ? historyOf(twinOrder.filter((c) => ids.has(c.id)), cfg, keyed(`history-twin\n${taskId}\n${completion}`), (id) => firstOf(id).ms ?? 0, true) : undefined;
    const [away, home, twin] = await Promise.all([
      runElsewhere(known, ids, symbols, awayOrder, workdir, sandbox, cfg, masks, shifts.away, slowestMs, historyOf(awayOrder.filter((c) => ids.has(c.id)), cfg, keyed(`history\n${taskId}\n${completion}`), (id) => firstOf(id).ms ?? 0), cfg.history_jump && tree ? { files: jumpableFiles(workdir, tree.changed), ...drawClockJump(keyed(`history-jump\n${taskId}\n${completion}`)) } : undefined, { seed: keyed(`chains\n${taskId}\n${completion}`), msOf: (id) => firstOf(id).ms ?? 0, truth }),
      homeIds.size ? runElsewhere(known, homeIds, symbols, smallFirst(inOrder(calls, "home"), homeIds, () => 0), workdir, sandbox, cfg, masks, shifts.home, slowestMs, undefined, undefined, undefined, tree?.changed) : null,
      twinHistory ? runElsewhere(known, ids, symbols, twinOrder, workdir, sandbox, cfg, masks, plainTwin(shifts.home.home!, known.env), slowestMs, twinHistory) : null,
    ]);
    // (what the flip set and unset elsewhere, named in the grade: the values are drawn per grade)
    const looked = shifts.away.env;
    const kept = new Set(known.env?.names ?? []);
    const flip = looked ? flipOf(looked, shifts.away.values) : undefined;
    const flipped = flip ? { set: Object.fromEntries(Object.entries(flip.set).filter(([n]) => !kept.has(n))), unset: flip.unset.filter((n) => !kept.has(n)) } : undefined;
    const withEnv = { ...(flipped && (flipped.unset.length || Object.keys(flipped.set).length) ? { ...away, env: flipped } : away), ...(original.pace ? { pace: original.pace } : {}), ...(twin ? { twin: { outcomes: twin.outcomes, failure: twin.failure, ...(twin.history ? { history: twin.history } : {}) } } : {}) };
    if (!home) return withEnv;
    const h = shifts.home.home!;
    return { ...withEnv, probes: [...away.probes, ...home.probes], atHome: { outcomes: home.outcomes, failure: home.failure }, homeIds, home: { zone: h.zone, hostname: h.hostname, user: h.user, home: h.home, env: Object.keys(h.env).sort(), uptimeDays: h.setup.uptimeDays, calls: homeIds.size } };
  };
  let thereRun: ElsewhereRun | null = chosen.keys.size ? await elsewhereRun(new Set([...chosen.keys, ...chosen.sample])) : null;
  const keys = relabelDigests(oracle, (id) => outcomes.get(id)![0]!, thereRun ? [{ where: "elsewhere", ...thereRun }, ...(thereRun.atHome && thereRun.homeIds?.size ? [{ where: "at home", ...thereRun.atHome }] : [])] : []);
  const differences: BehaviourCheck["differences"] = [];
  let agreed = 0;
  let compared = 0;
  const agreedIds = new Set<string>();
  const byId = callIndex(oracle);
  const judge = (c: OracleCall, got: BOutcome) => {
    const r = sameOutcome(c.expect, got, cfg.compare);
    // a scaled call on which two errors apply (an unknown SKU, and a quantity made negative): which
    // wins is the docstring's silence (round 3), so the error the source call already raised agrees
    const source = c.probe === "scale" && c.source ? byId.get(c.source) : undefined;
    if (!r.ok && source?.expect.k === "raise" && c.expect.k === "raise" && got.k === "raise" && sameOutcome({ ...c.expect, exc: source.expect.exc }, got, cfg.compare).ok) Object.assign(r, { ok: true, why: null });
    return r;
  };
  for (const c of oracle.calls) {
    const got = keys.get(c.id) ?? run.outcomes.get(c.id)![0]!;
    const r = judge(c, got);
    if (!r.ok && oracle.symbols[c.symbol]?.digest && got.k === "return" && c.expect.k === "return" && got.ret.t === c.expect.ret.t) r.why = "returned keys equal where the original's differ, or different where they are equal";
    if (!r.ok && got.k === "error" && got.why.startsWith(UNSTABLE_KEY)) r.why = got.why;
    // compose, typed and grow calls are judged on their own only: many of them take paths any body gets
    // right (an unknown key, an empty string), and in the total they would dilute its misses
    const inTotal = !c.probe || !OWN_ONLY.includes(c.probe);
    const side = c.hidden ? base.hidden : base.visible;
    if (inTotal) {
      side.compared++;
      compared++;
    }
    if (c.probe) probes[c.probe].compared++;
    if (r.ok) {
      agreedIds.add(c.id);
      if (inTotal) {
        agreed++;
        side.agreed++;
      }
      if (c.probe) probes[c.probe].agreed++;
    } else if (differences.length < 5 || (c.probe && !differences.some((d) => d.probe === c.probe))) {
      // the first few, and the first of each probe (the one line names a failed probe's own miss)
      differences.push({ id: c.id, symbol: oracle.symbols[c.symbol]?.qualname ?? "?", hidden: c.hidden, ...(c.probe ? { probe: c.probe } : {}), why: r.why! });
    }
  }
  const agreement = compared ? agreed / compared : 1;
  const probesOk = !PROBES.some((p) => groupFails(p, probes[p], base));
  const classes = answerClasses(oracle, (id) => agreedIds.has(id));
  const classesOk = !classes.some((c) => below(c, cfg.threshold));
  const types = typeGroups(oracle, (id) => agreedIds.has(id));
  const typesOk = !types.some((g) => below(g, cfg.threshold, 1));
  const sizes = probeHalves(oracle, (id) => agreedIds.has(id));
  const sizesOk = !sizes.some((g) => below(g, cfg.threshold));
  const scaled = scaleWays(oracle, (id) => agreedIds.has(id));
  const scaledOk = !scaled.some((g) => groupFails("scale", g, base));
  const entries = entrySizes(oracle, (id) => agreedIds.has(id));
  const entriesOk = !entries.some((g) => groupFails("entries", g, base));
  // (an answer that shares an object with its arguments or an earlier call's where the original's
  // never do, in the graded run; the run elsewhere's are judged below)
  const aliasMiss = cfg.aliasing && run.aliased?.length ? await aliasingMiss(known, run.aliased.flatMap((id) => { const c = callIndex(known).get(id); return c ? [{ id, symbol: c.symbol }] : []; }), originalOf, "") : null;
  if (aliasMiss) differences.push(aliasMiss);
  const passedHere = agreement >= cfg.threshold && probesOk && classesOk && typesOk && sizesOk && scaledOk && entriesOk && !aliasMiss;
  // elsewhere: every sampled call that agreed here must agree there (one miss fails the check), and
  // every fast call that missed here must answer there as it answered here: a body wrong only on a
  // process's first call (of one shape) spends a miss the threshold forgives in the graded run, where
  // the oracle's first call is always the first (round 16's a16); the runs elsewhere and at home make
  // their calls in reverse order, so that call is no longer the first there
  const consistent = (id: string, o: BOutcome | undefined) => !!o && (o.k === "return" || o.k === "raise") && ((o.ms ?? 0) <= ELSEWHERE_MAX_MS || chosen.slow.has(id));
  const situated = situatedIds(oracle);
  const missed = oracle.calls.filter((c) => !agreedIds.has(c.id) && !situated.has(c.id) && consistent(c.id, outcomes.get(c.id)?.[0])).map((c) => c.id);
  const sample = [...new Set([...[...chosen.sample].filter((id) => agreedIds.has(id)), ...(thereRun ? missed.filter((id) => chosen.sample.has(id)) : missed)])];
  if (passedHere && sample.length && !thereRun) thereRun = await elsewhereRun(new Set(sample));
  const elsewhere = thereRun;
  // a call agrees there if it agrees in the run elsewhere and, where it ran at home, at home too
  const judgeIn = (c: OracleCall, run: { outcomes: Map<string, BOutcome>; failure: string | null }, name: string) => {
    const got = run.outcomes.get(c.id);
    return got ? judge(c, got) : { ok: false, why: `the run ${name} gave no answer (${run.failure ? `it failed as a whole: ${run.failure}` : "this call was missing"})` };
  };
  // (a call that missed here is judged against this run's own answer: the same input, the same answer)
  const asHere = (c: OracleCall): OracleCall => (agreedIds.has(c.id) ? c : { ...c, expect: outcomes.get(c.id)![0]!, probe: undefined });
  // (the run elsewhere is optimized, asserts stripped: a call the original answered by failing an
  // assert is judged at home alone, where they run)
  const asserted = (c: OracleCall) => c.expect.k === "raise" && c.expect.exc.builtin === "AssertionError" && !!elsewhere?.homeIds?.has(c.id);
  const judged = elsewhere ? sample.map((id) => {
    const c = asHere(byId.get(id)!);
    const chainMiss = elsewhere.chained?.get(id);
    const away = chainMiss ? { ok: false, why: chainMiss } : asserted(c) ? { ok: true, why: null } : judgeIn(c, elsewhere, "elsewhere");
    // (a call a warning stopped at home, where warnings were made errors, is not judged there)
    const warned = (elsewhere.atHome?.outcomes.get(id) as { why?: string } | undefined)?.why === WARNED_AT_HOME;
    const home = away.ok && elsewhere.atHome && elsewhere.homeIds?.has(id) && !warned ? judgeIn(c, elsewhere.atHome, "at home") : null;
    // (and in the plain twin, after its history: asserts run there)
    const twin = away.ok && !(home && !home.ok) && elsewhere.twin ? judgeIn(c, elsewhere.twin, "in the plain twin") : null;
    const r = home && !home.ok ? home : twin && !twin.ok ? twin : away;
    return { c, r: r.ok || agreedIds.has(id) || chainMiss ? r : { ...r, why: `a call that missed in the graded run answered otherwise here (the same input, another process): ${r.why}` }, home: !!home && !home.ok, twin: !!twin && !twin.ok };
  }) : [];
  // (a digest's calls made there count too: each key the same in every other process — the grade
  // says where they ran, and one that changed fails the check as a sampled call's miss does)
  const keyIds = elsewhere ? [...chosen.keys] : [];
  const keysStable = keyIds.filter((id) => { const k = keys.get(id); return !(k?.k === "error" && k.why.startsWith(UNSTABLE_KEY)); }).length;
  const there = { agreed: judged.filter((j) => j.r.ok).length + keysStable, compared: judged.length + keyIds.length, clocks: elsewhere?.clocks ?? [], ...(elsewhere?.home ? { home: elsewhere.home } : {}), ...(elsewhere?.env ? { env: elsewhere.env } : {}), ...(elsewhere?.history ? { history: { calls: elsewhere.history.calls, made: elsewhere.history.made, changed: elsewhere.history.changed.size, ms: elsewhere.history.ms, ...(elsewhere.history.jump ? { jump: elsewhere.history.jump } : {}), ...(elsewhere.history.waited ? { waited: elsewhere.history.waited } : {}), ...(elsewhere.pace ? { pace: elsewhere.pace.ms } : {}), ...(elsewhere.history.judged !== undefined ? { judged: elsewhere.history.judged } : {}), ...(elsewhere.history.cpu !== undefined ? { cpu: elsewhere.history.cpu } : {}) } } : {}), ...(elsewhere?.twin?.history ? { twin: { calls: elsewhere.twin.history.calls, made: elsewhere.twin.history.made, changed: elsewhere.twin.history.changed.size } } : {}) };
  // (the first miss named, as the graded run's misses are)
  const miss = judged.find((j) => !j.r.ok);
  if (miss) differences.push({ id: miss.c.id, symbol: oracle.symbols[miss.c.symbol]?.qualname ?? "?", hidden: miss.c.hidden, why: elsewhere?.chained?.has(miss.c.id) ? miss.r.why! : miss.home ? `at home (another pid, machine, interpreter flags, environment; the real clock in ${elsewhere?.home?.zone}): ${miss.r.why}` : miss.twin ? `in the run elsewhere's plain twin (a deployment's defaults: the real clock, hashes randomized, not optimized, UTC)${elsewhere?.twin?.history?.changed.has(miss.c.id) ? `, asked again after ${elsewhere.twin.history.made} calls of other inputs` : elsewhere?.twin?.history?.late.has(miss.c.id) ? `, first asked halfway through a history of ${elsewhere.twin.history.made} calls of other inputs` : ""}: ${miss.r.why}` : elsewhere?.history?.changed.has(miss.c.id) ? `elsewhere, asked again after ${elsewhere.history.made} calls of other inputs${jumpedOver(elsewhere.history.jump)}: ${miss.r.why}` : elsewhere?.inPlace?.has(miss.c.id) ? `elsewhere, asked with an earlier call's argument objects refilled in place with its own (a caller reusing its list): ${miss.r.why}` : elsewhere?.history?.late.has(miss.c.id) ? `elsewhere, first asked halfway through a history of ${elsewhere.history.made} calls of other inputs${jumpedOver(elsewhere.history.jump)}: ${miss.r.why}` : `elsewhere (another pid, clock, machine, interpreter flags, environment): ${miss.r.why}` });
  // (a history cut short by its own time, not by HISTORY_MAX_MS: the body's calls there took over
  // HISTORY_SLACK× as long as the same calls' in the graded run)
  const h = elsewhere?.history;
  const historyShort = !!h && h.made < h.calls && h.ms < HISTORY_MAX_MS;
  const ownTime = (h: { waited?: number }) => `of its own time (the time it waited for a CPU not counted${h.waited ? `: ${h.waited} ms` : ""}, up to ${HISTORY_WALL_CAP}× its time of wall time)`;
  if (historyShort) differences.push({ id: "history", symbol: "?", hidden: true, why: `elsewhere, the history made ${h!.made} of its ${h!.calls} calls in ${h!.ms} ms ${ownTime(h!)}, over ${HISTORY_SLACK}× the sampled calls' time in the graded run, and at least ${cfg.history_ms} ms` });
  // (one cut short by HISTORY_MAX_MS where the original makes the whole history in 1/history_pace of
  // it, and the body's CPU alone, at its CPU a call made, would take over half the history's time:
  // the body's own work is slow where the task's is not, so the calls it never made are not excused.
  // A body slow by waiting — a sleep, a lock — keeps the old rule: round 12's h01 sleeps 5 ms a call,
  // honestly. CPU a call, not the share of the time: round 33's w09 slept 13 ms and worked 7 ms a
  // call, and its CPU was a fifth of the time)
  const pace = elsewhere?.pace;
  const busy = !!h && h.made > 0 && ((h.cpu ?? 0) / h.made) * h.calls * 2 >= h.ms;
  const paceShort = !!h && !!pace && cfg.history_pace > 0 && h.made < h.calls && h.ms >= HISTORY_MAX_MS && busy && pace.ms * h.calls * cfg.history_pace <= HISTORY_MAX_MS;
  if (paceShort) differences.push({ id: "history", symbol: "?", hidden: true, why: `elsewhere, the history made ${h!.made} of its ${h!.calls} calls in its cap of ${HISTORY_MAX_MS} ms ${ownTime(h!)}; the original takes ${pace!.ms.toFixed(3)} ms a call (its mean over ${pace!.calls} of the oracle's calls), so the whole history in ≈ ${Math.round(pace!.ms * h!.calls)} ms, and the body spent ${h!.cpu} ms of CPU on its ${h!.made} calls (${((h!.cpu ?? 0) / h!.made).toFixed(2)} ms a call): its own work is slow where the task's is not (over ${cfg.history_pace}× the original's time for it)` });
  // (a kin truth the body returned otherwise than the original: kin_truth.ts)
  const truthMiss = [...(elsewhere?.truth ?? [])][0];
  if (truthMiss) differences.push({ id: truthMiss[0], symbol: oracle.symbols[byId.get(truthMiss[0])?.symbol ?? -1]?.qualname ?? "?", hidden: true, why: truthMiss[1] });
  // (a judged history refill answered otherwise than its twin: refills.ts)
  if (elsewhere?.refill) differences.push({ id: "history", symbol: "?", hidden: true, why: elsewhere.refill });
  const aliasThere = cfg.aliasing && elsewhere?.aliased?.length ? await aliasingMiss(oracle, elsewhere.aliased, originalOf, "elsewhere, ") : null;
  if (aliasThere) differences.push(aliasThere);
  const elsewhereOk = there.agreed === there.compared && !historyShort && !paceShort && !truthMiss && !elsewhere?.refill && !aliasThere;
  const machine = machineProbes(oracle, [run.probes, retried, thereRun?.probes]);
  // the sides of its conditions on the world that no run took, forced (a body that passes only)
  let latent: LatentCheck | undefined;
  if (cfg.latent_paths && tree && passedHere && elsewhereOk) {
    const picked = inOrder(calls.filter((c) => agreedIds.has(c.id) && !situated.has(c.id)), "latent").slice(0, cfg.latent_calls);
    latent = await checkLatentPaths({ task, oracle, workdir, snapshot: tree.snapshot, changed: tree.changed, symbols, calls: picked, graded: (id) => outcomes.get(id)![0]!, sandbox, masks, limits: cfg.limits, compare: cfg.compare, maxRuns: cfg.latent_runs, chains: { count: cfg.in_place_chains, seed: keyed(`latent-chains\n${taskId}\n${completion}`), msOf: (id) => firstOf(id).ms ?? 0 }, ...(cfg.latent_jump ? { jump: drawClockJump(keyed(`jump\n${taskId}\n${completion}`)) } : {}) });
    if (latent.missed && latent.first) differences.push({ id: latent.first.id, symbol: oracle.symbols[byId.get(latent.first.id)?.symbol ?? -1]?.qualname ?? "?", hidden: byId.get(latent.first.id)?.hidden ?? false, why: describeLatent(latent) });
  }
  const latentOk = !latent?.missed;
  return { ...base, ran: true, passed: passedHere && elsewhereOk && latentOk, why: null, ...(latent ? { latent } : {}), agreed, compared, agreement, ...(there.compared ? { elsewhere: there } : {}), ...(situated.size ? { situated: situated.size } : {}), ...(machine.length ? { machine } : {}), ...(classes.length ? { classes } : {}), ...(types.length ? { types } : {}), ...(sizes.length ? { sizes } : {}), ...(scaled.length ? { scaled } : {}), ...(entries.length ? { entries } : {}), differences, wallMs: performance.now() - t0, path: run.path };
}

// What the check derives from an oracle alone, once per oracle object (readOracle returns the same
// object until the file changes); COMPOSER_LAB_BEHAVE_FAST=0 derives it every time (the reference).
const requests = new WeakMap<Oracle, { symbols: BehaveSymbol[]; calls: BCall[] }>();
const growSizes = new WeakMap<OracleCall, number>();
const callsById = new WeakMap<Oracle, Map<string, OracleCall>>();

/** An oracle's calls by id. */
const callIndex = (oracle: Oracle) => fastMemo(callsById, oracle, () => new Map(oracle.calls.map((c) => [c.id, c])));
const situatedById = new WeakMap<Oracle, Set<string>>();
/** The calls whose original answer depends on where it runs (Oracle.situated): never run elsewhere. */
const situatedIds = (oracle: Oracle) => fastMemo(situatedById, oracle, () => new Set(oracle.situated ?? []));

/** The runner's request for an oracle's calls (the same arrays each grade: runBehaviour serializes
 *  them once). */
const requestOf = (oracle: Oracle) => fastMemo(requests, oracle, () => ({
  symbols: oracle.symbols.map((s) => ({ module: s.module ?? "", qualname: s.qualname })),
  calls: oracle.calls.map(({ id, symbol, pos, kw }) => ({ id, symbol, pos, kw })),
}));

/**
 * A digest symbol's returns (OracleSymbol.digest) compared by their equality pattern: a key of the
 * implementation that is equal on exactly the calls whose original keys are equal stands for the
 * original's key. A key from another hash agrees; one that ignores an argument, or changes from call
 * to call, or is the same for all, does not. The returned map holds the outcomes to compare instead.
 */
const UNSTABLE_KEY = "its key changed in another process (elsewhere or at home)";

function relabelDigests(oracle: Oracle, outcomeOf: (id: string) => BOutcome, others: { where: string; outcomes: Map<string, BOutcome>; failure: string | null }[]): Map<string, BOutcome> {
  const out = new Map<string, BOutcome>();
  oracle.symbols.forEach((s, i) => {
    if (!s.digest) return;
    const calls = oracle.calls.filter((c) => c.symbol === i && c.expect.k === "return");
    const classOf = (ret: (c: OracleCall) => BValue | null) => {
      const groups = new Map<string, string[]>();
      for (const c of calls) {
        const v = ret(c);
        if (!v) continue;
        const k = JSON.stringify(v);
        groups.set(k, [...(groups.get(k) ?? []), c.id]);
      }
      return (c: OracleCall) => groups.get(JSON.stringify(ret(c)))?.join("\u0000");
    };
    const expected = (c: OracleCall) => (c.expect as { ret: BValue }).ret;
    const actual = (c: OracleCall) => {
      const got = outcomeOf(c.id);
      return got.k === "return" && got.ret.t === expected(c).t ? got.ret : null;
    };
    const expectedClass = classOf(expected);
    const actualClass = classOf(actual);
    // (a key-probe call agrees only if every other process gave it the same key — elsewhere and at
    // home; a run that failed as a whole counts as a different key; any other call such a process
    // made, likewise)
    // (the first process it changed in, named with its failure where that run failed as a whole:
    // a run that never answered is not a key that moved, and its reason is what a reader needs)
    const unstableIn = (c: OracleCall) => others.find((again) => {
      if (c.probe !== "key" && !again.outcomes.has(c.id)) return false;
      const b = again.outcomes.get(c.id);
      return !(b?.k === "return" && JSON.stringify(b.ret) === JSON.stringify(actual(c)));
    });
    for (const c of calls) {
      const got = outcomeOf(c.id);
      // (a key that changed in another process disagrees, even where it is the original's own value)
      const moved = unstableIn(c);
      if (moved) out.set(c.id, { k: "error", why: moved.failure ? `${UNSTABLE_KEY}: the run ${moved.where} gave no answer (it failed as a whole: ${moved.failure})` : UNSTABLE_KEY });
      else if (got.k === "return" && actual(c) && actualClass(c) === expectedClass(c)) out.set(c.id, { ...got, ret: expected(c) });
    }
  });
  return out;
}

/** Key files read by this process, by path. */
const keyFiles: Record<string, string> = {};

/** The grader's own key (COMPOSER_LAB_GRADER_KEY, else 32 random bytes kept in
 *  ~/.config/composer-lab/grader-key, made on first use, mode 0600): what the run elsewhere's clocks
 *  are drawn from, with the task and the graded run's answers, so a grade is reproduced where the
 *  key is the same while code under test, which never sees the key, cannot know the clocks it will
 *  meet. */
export function graderKey(): string {
  if (process.env.COMPOSER_LAB_GRADER_KEY) return process.env.COMPOSER_LAB_GRADER_KEY;
  const file = join(process.env.XDG_CONFIG_HOME || join(homedir(), ".config"), "composer-lab", "grader-key");
  // (read once a process: every run elsewhere asks)
  return (keyFiles[file] ??= readOrMakeKey(file));
}

function readOrMakeKey(file: string): string {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(dirname(file), { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString("hex") + "\n", { mode: 0o600, flag: "wx" });
    } catch {
      /* another process made it first */
    }
    chmodSync(file, 0o600);
    return readFileSync(file, "utf8").trim();
  }
}

/** The run elsewhere's clocks and the run at home's machine for this task, this completion (untrusted.ts treeDigest) and these
 *  graded answers (machine.ts drawClocks): two bodies that answer alike meet clocks of their own, so
 *  no body can learn the clocks a task's answers meet (a policy trained on one task would). */
function elsewhereShift(oracle: Oracle, completion: string, answers: string, sandbox: Sandbox, env?: EnvLookups): { away: RunShift; home: RunShift } {
  const seed = createHmac("sha256", graderKey()).update(`${oracle.task_id}\n${completion}\n`).update(createHash("sha256").update(answers).digest()).digest();
  return drawShifts(seed, sandbox, { env, keep: oracle.env });
}

/** A call whose graded run took longer than ELSEWHERE_MAX_MS runs elsewhere within a budget: the
 *  slow calls in an order of the grader's key, as long as their graded times add up to at most
 *  ELSEWHERE_SLOW_MS (that run has no per-call timer: a body slow on every call costs it seconds,
 *  not minutes). Slowness alone used to keep a call from every other run: a body that slept 0.26 s
 *  on just the calls it would answer wrong elsewhere was judged in the graded run only (round 12's
 *  a26 a72 on every call, round 16's b03 b04 b05 on those calls alone). A body that hangs there
 *  fails that run as a whole, twice, and the check with it. */
const ELSEWHERE_MAX_MS = 250;
const ELSEWHERE_SLOW_MS = 10_000;

/** The calls run elsewhere (RunShift.elsewhere): the key-probe calls of digest symbols (their keys
 *  must not change between processes) and a spread of the others, at most `max` (every visible call
 *  first, then hidden ones spread over the oracle; each must still agree with the original there). */
function elsewhereCalls(oracle: Oracle, outcomeOf: (id: string) => { k: string; ms?: number }, max: number, slowFirst: (calls: OracleCall[]) => OracleCall[]): { keys: Set<string>; sample: Set<string>; slow: Set<string> } {
  const msOf = (id: string) => outcomeOf(id).ms ?? 0;
  // (a call whose original answer depends on where it runs is judged in the graded run alone)
  const situated = situatedIds(oracle);
  const calls = situated.size ? oracle.calls.filter((c) => !situated.has(c.id)) : oracle.calls;
  const slow = slowWithin(slowFirst(calls.filter((c) => outcomeOf(c.id).k !== "timeout" && msOf(c.id) > ELSEWHERE_MAX_MS)), msOf);
  // a digest's calls: its key probes, and every other call too, each of whose keys must be the one
  // it had here (round 16's b06 left a template's file name out of its key where the tree was not
  // under /work: only the key probes, which pass no file name, had been run elsewhere)
  const keys = new Set(calls.filter((c) => oracle.symbols[c.symbol]?.digest && (c.probe === "key" || msOf(c.id) <= ELSEWHERE_MAX_MS || slow.has(c.id))).map((c) => c.id));
  const candidates = calls.filter((c) => !oracle.symbols[c.symbol]?.digest);
  const fast = candidates.filter((c) => msOf(c.id) <= ELSEWHERE_MAX_MS);
  const visible = fast.filter((c) => !c.hidden);
  const hidden = fast.filter((c) => c.hidden);
  const slowHere = candidates.filter((c) => slow.has(c.id));
  const room = Math.max(0, max - visible.length - slowHere.length);
  const step = hidden.length / Math.max(1, room);
  const spread = room >= hidden.length ? hidden : Array.from({ length: room }, (_, i) => hidden[Math.floor(i * step)]!);
  // (and the smallest calls, one of which leads each run: smallFirst)
  const smallest = max > 0 ? smallestCalls(fast) : [];
  return { keys, sample: new Set([...[...slowHere, ...visible, ...spread].slice(0, Math.max(max, slowHere.length)), ...smallest].map((c) => c.id)), slow };
}

/** How many of a run's smallest calls its first call is drawn from (smallFirst). */
const LEAD_FROM = 8;

/** The LEAD_FROM smallest of `calls` by their arguments as plain data: shorter first, then in the
 *  text's order (0 before 1 before 5, "" before "a", [] before [0]); ties keep the order given. */
function smallestCalls<T extends { pos: unknown; kw: unknown }>(calls: T[]): T[] {
  const args = new Map(calls.map((c) => [c, JSON.stringify([c.pos, c.kw])]));
  return [...calls].sort((a, b) => { const x = args.get(a)!, y = args.get(b)!; return x.length - y.length || (x < y ? -1 : x > y ? 1 : 0); }).slice(0, LEAD_FROM);
}

/** `ordered` with one of the LEAD_FROM smallest calls in `ids` first (`pick(n)`: its index among
 *  them, the smallest first); the others keep their order. */
function smallFirst<T extends { id: string; pos: unknown; kw: unknown }>(ordered: T[], ids: Set<string>, pick: (n: number) => number): T[] {
  const small = smallestCalls(ordered.filter((c) => ids.has(c.id)));
  if (small.length === 0) return ordered;
  const lead = small[Math.min(small.length - 1, pick(small.length))]!;
  return [lead, ...ordered.filter((c) => c !== lead)];
}

/** Of the slow calls (in the order given), those the runs elsewhere make: each while the graded
 *  times taken so far leave room for it under ELSEWHERE_SLOW_MS. */
function slowWithin(calls: OracleCall[], msOf: (id: string) => number): Set<string> {
  let left = ELSEWHERE_SLOW_MS;
  const out = new Set<string>();
  for (const c of calls) {
    if (msOf(c.id) > left) continue;
    left -= msOf(c.id);
    out.add(c.id);
  }
  return out;
}

/** A run elsewhere: each call's first outcome, and why the run failed as a whole (null: it did not). */
interface ElsewhereRun {
  outcomes: Map<string, BOutcome>;
  /** The history's calls (asked), made, the sampled calls that disagreed only after it, its time. */
  history?: { calls: number; made: number; changed: Set<string>; late: Set<string>; ms: number; jump?: ClockJump; waited?: number; cpu?: number; judged?: number };
  /** The kin truths the body returned otherwise than the original (kin_truth.ts judgeTruth), by base call id, with why. */
  truth?: Map<string, string>;
  /** The original's pace (original.ts), where measured: what a history cut by HISTORY_MAX_MS is held to. */
  pace?: OriginalPace;
  /** The first judged history refill answered otherwise than its twin (refills.ts judgeRefills), why. */
  refill?: string;
  /** The calls whose answer shared an object with their arguments or an earlier call's (behave.py
   *  _Aliasing: twins and asks again give equal inputs in new objects, so a memo that hands one
   *  answer list to two callers meets them; round 35's w07s w07h), each with its symbol. */
  aliased?: { id: string; symbol: number }[];
  /** The sampled calls that disagreed only when asked in place (inPlaceAsks). */
  inPlace?: Set<string>;
  /** The sampled calls whose in-place chain answered otherwise than a new object of the same
   *  contents (lib/env/inplace.ts judgeChains), or whose kin ask answered otherwise after the
   *  history than before it (lib/env/kin.ts judgeKin), with why. */
  chained?: Map<string, string>;
  failure: string | null;
  probes: BehaveProbe[];
  clocks: ElsewhereClock[];
  /** The run at home beside it: its calls, their first outcomes and whether it failed as a whole,
   *  and where it ran (HOME_SHIFT). */
  atHome?: { outcomes: Map<string, BOutcome>; failure: string | null };
  homeIds?: Set<string>;
  home?: AtHome;
  env?: FlippedEnv;
  /** The plain twin with a history of its own (history_plain): its sampled calls'
   *  outcomes (each the one after its history where that one disagreed and the first did not) and
   *  its history. */
  twin?: { outcomes: Map<string, BOutcome>; failure: string | null; history?: ElsewhereRun["history"] };
}

/** The variables the run elsewhere set (to a drawn deployment's value: deployedValue) and unset
 *  (lib/sandbox/machine.ts flipEnv): the graded run's lookups, the other way. */
export interface FlippedEnv {
  set: Record<string, string>;
  unset: string[];
}

/** Where the run at home ran (HOME_SHIFT): its zone (tzdata's name), host name, user and its home
 *  folder, and how many calls. */
interface AtHome {
  zone: string;
  hostname: string;
  user: string;
  home: string;
  /** the names of its environment's variables */
  env: string[];
  /** how long its machine had been up, drawn (days beyond the grader's: CLOCK_MONOTONIC moved on) */
  uptimeDays: number;
  calls: number;
}

/** One block of the run elsewhere: its clock's offset from now, its zone, how many calls it ran. */
interface ElsewhereClock {
  seconds: number;
  tz: string;
  calls: number;
}

/** `ids` run elsewhere (ELSEWHERE_SHIFT: a cold run), in `calls`' order: their first outcome by call id, an empty
 *  map when that run failed as a whole twice (once may be the machine's: a cold sandbox that did
 *  not start under load flagged a golden in `bench grade`; a body that makes the runner fail does it
 *  again). */
async function runElsewhere(oracle: Oracle, ids: Set<string>, symbols: BehaveSymbol[], calls: BCall[], workdir: string, sandbox: Sandbox, cfg: BehaviourConfig, masks: MaskSpec[], shift: RunShift, slowestMs: number, history?: History, jump?: BehaveRequest["jump"], drawn?: { seed: number; msOf: (id: string) => number; truth?: KinTruth }, fine?: string[]): Promise<ElsewhereRun> {
  let failure = "";
  const first = calls.filter((c) => ids.has(c.id));
  // (with a history: the early half of the sampled calls, the history's first half, the late half
  // for the first time, the history's second half, then every sampled call again)
  const early = history?.calls.length ? first.filter((c) => !history.late.has(c.id)) : first;
  const late = first.filter((c) => history?.late.has(c.id));
  const half = Math.ceil((history?.calls.length ?? 0) / 2);
  const asked = early !== first ? [...early, ...late, ...first.map((c) => ({ ...c, id: `${c.id}${HISTORY_AGAIN}` }))] : first;
  // (in-place chains through the run and in-place asks at its end, elsewhere only: the run at home
  // makes its calls as a script does; the history's blocks keep their places among the calls)
  const away = !shift.home && !!drawn;
  const msOf = drawn?.msOf ?? (() => 0);
  const plan = inPlaceChains(first, asked.length, away ? cfg.in_place_chains : 0, drawn?.seed ?? 0, msOf);
  // (kin asks where there is a history: before its first block, and again after its second)
  const kin = kinAsks(first, early.length, first.length + 1, asked.length, away && early !== first ? cfg.kin_asks : 0, (drawn?.seed ?? 0) ^ 0x9e3779b9, msOf);
  // (the kin truths at drawn places through the run)
  const truthRng = new Rng((drawn?.seed ?? 0) ^ 0x2545f491);
  const truth = away ? drawn?.truth : undefined;
  const truthInserts = (truth?.calls ?? []).map((call) => ({ before: Math.floor(truthRng.next() * (asked.length + 1)), call }));
  const spliced = spliceCalls(asked, [...plan.inserts, ...kin.inserts, ...truthInserts]);
  // (the plain twin: its sampled calls and its history alone)
  const there = shift.home || shift.deployed ? asked : [...spliced.calls, ...inPlaceAsks(oracle, first, cfg.in_place_pairs)];
  const clocks = clockBlocks(shift.clocks ?? [], there.length).map(({ seconds, tz, calls: n }) => ({ seconds, tz, calls: n }));
  // (the history's clocks jump where it has changed files to compile so: BehaveRequest.jump.over)
  const jumped = early !== first && jump?.files.length ? jump : undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const run = await runBehaviour(sandbox, workdir, { symbols, calls: there, roots: oracle.roots, project: oracle.project, ...(shift.home ? { shared: untouched(oracle, ids), ...(fine ? { fine } : {}) } : {}), ...(early !== first ? { history: { blocks: [{ at: spliced.at(early.length), n: half }, { at: spliced.at(first.length), n: history!.calls.length - half }], calls: history!.calls, ms: history!.ms, ...(history!.refills ? { record: refillRecord(history!.refills) } : {}), keeps: keepsArguments(oracle), seed: (drawn?.seed ?? 0) ^ 0x5bd1e995 }, ...(jumped ? { jump: { ...jumped, over: "history" as const } } : {}) } : {}), ...(cfg.aliasing && !shift.home && !shift.deployed ? { alias: true } : {}) }, cfg.limits, { masks, shift, warm: cfg.elsewhere_warm, slowestMs });
      if (run.outcomes) {
        const firsts = new Map([...run.outcomes].map(([id, outs]) => [id, outs[0]!]));
        // (the chains' and the judged refills' twins again, in a process of their own: a warm run as
        // the graded one is)
        const refills = early !== first ? history?.refills : undefined;
        const twins = [...(plan.chains.length ? cleanTwins(plan) : []), ...(refills ? refillTwins(refills) : [])];
        const clean = twins.length ? await runBehaviour(sandbox, workdir, { symbols, calls: twins, roots: oracle.roots, project: oracle.project }, cfg.limits, { masks, slowestMs }).catch(() => null) : null;
        const cleanFirsts = clean?.outcomes ? new Map([...clean.outcomes].map(([id, outs]) => [id, outs[0]!])) : undefined;
        const chained = judgeChains(plan, firsts, cfg.compare, cleanFirsts);
        const refillMiss = (refills ? judgeRefills(refills, run.historyOutcomes, cleanFirsts, cfg.compare) : null) ?? (cfg.compare.mutations !== false ? changedWhy(run, history!) : null);
        // (the history's calls and those made count its own, not the judged refills' twins: a twin
        // comes right after its ask, so each made twin is a judged refill made)
        const judgedMade = refills ? refillsMade(refills, run.historyOutcomes) : 0;
        for (const [id, why] of judgeKin(kin, firsts, cfg.compare, run.history ?? 0)) if (!chained.has(id)) chained.set(id, why);
        const truthMisses = truth ? judgeTruth(truth, firsts, cfg.compare) : new Map<string, string>();
        const changed = early !== first ? foldAskedAgain(oracle, firsts, cfg) : null;
        const inPlace = new Set([...foldAskedAgain(oracle, firsts, cfg, IN_PLACE_SOURCE), ...foldAskedAgain(oracle, firsts, cfg, IN_PLACE)]);
        const symbolOf = run.aliased?.length ? new Map(there.map((c) => [c.id, c.symbol])) : undefined;
        const aliased = symbolOf ? run.aliased!.flatMap((id) => (symbolOf.has(id) ? [{ id, symbol: symbolOf.get(id)! }] : [])) : [];
        return { outcomes: withPartners(oracle, firsts, cfg), failure: null, probes: run.probes ?? [], clocks, inPlace, chained, ...(aliased.length ? { aliased } : {}), ...(truthMisses.size ? { truth: truthMisses } : {}), ...(refillMiss ? { refill: refillMiss } : {}), ...(changed ? { history: { calls: history!.calls.length - (refills?.judged.length ?? 0), made: (run.history ?? 0) - judgedMade, changed, late: history!.late, ms: history!.ms, ...(run.historyWaited ? { waited: run.historyWaited } : {}), ...(run.historyCpu !== undefined ? { cpu: run.historyCpu } : {}), ...(jumped ? { jump: { wall: jumped.wall, cpu: jumped.cpu } } : {}), ...(refills ? { judged: judgedMade } : {}) } } : {}) };
      }
      // (the runner's failure only: its stderr is the package's to write to, and a grade's reasons
      // never carry what the code under test chose to say — round 15's p09)
      failure = run.failure ?? "no outcomes";
      // (a run that went past its time is not tried again: a body that hangs there hangs again, and
      // a second try doubled such a grade's wall to 4 minutes; round 23's h03)
      if (run.run.timedOut) break;
    } catch (e) {
      failure = (e as Error).message;
    }
  }
  return { outcomes: new Map(), failure: failure.slice(0, 300), probes: [], clocks };
}

/** The symbols whose original leaves its arguments as they are in every oracle call that holds a
 *  list, dict, set or bytearray (and some call does): their history calls' arguments are watched
 *  (BehaveRequest.history.keeps; round 33's w12 changed its caller's list once it had been asked
 *  64 times, and only the judged refills' arguments after the call were compared). */
function keepsArguments(oracle: Oracle): number[] {
  const all = new Set(oracle.calls.map((c) => c.id));
  const kept = untouched(oracle, all);
  const mutable = (c: OracleCall) => [...c.pos, ...c.kw.map(([, v]) => v)].some((v) => REFILLABLE.has(v.t));
  const answered = oracle.calls.filter((c) => c.expect.k === "return" || c.expect.k === "raise");
  return oracle.symbols.flatMap((_, symbol) => {
    const mine = answered.filter((c) => c.symbol === symbol);
    return mine.some(mutable) && mine.every((c) => kept.has(c.id)) ? [symbol] : [];
  });
}

/** The first call (the graded run's, or the run elsewhere's: `where`) whose answer is, or holds, one
 *  of its arguments or an earlier call's argument or answer (BehaveRun.aliased), of a symbol the
 *  original never answers so (original.ts), as a difference; null where there is none, or the
 *  original's run gave no answer. */
async function aliasingMiss(oracle: Oracle, aliased: { id: string; symbol: number }[], originalOf: () => Promise<OriginalRun>, where: string): Promise<BehaviourCheck["differences"][number] | null> {
  const original = await originalOf();
  if (!original.aliased) return null;
  const theirs = new Set(original.aliased);
  const mine = aliased.filter((a) => !theirs.has(a.symbol));
  if (!mine.length) return null;
  const { id, symbol } = mine[0]!;
  const name = oracle.symbols[symbol]?.qualname ?? "?";
  return { id, symbol: name, hidden: callIndex(oracle).get(id)?.hidden ?? true, why: `${where}returned an object that is, or holds, one of its arguments or an earlier call's argument or answer (a list, dict, set, bytearray or deque), where the original's answers to ${name} never do; a caller that changes the answer changes another's object (${mine.length} call${mine.length === 1 ? "" : "s"})` };
}

/** A difference's line for watched calls whose arguments changed, while they ran or after they had
 *  returned (BehaveRun.argsChanged, argsChangedAfter); null where none did. */
function changedWhy(run: Partial<Pick<BehaveRun, "argsChanged" | "argsChangedAfter">>, history: History): string | null {
  const where = (id: string) => {
    const h = history.calls.find((c) => c.id === id);
    if (!h) return `call ${id}`;
    const what = h.inplace ? "its buffer (one argument object refilled in place)" : h.id.endsWith(TWIN) ? "a judged refill's twin" : "new argument objects";
    return `history call ${id.replace(/^h/, "")}, given ${what}`;
  };
  const calls = (n: number) => `${n} call${n === 1 ? "" : "s"}`;
  if (run.argsChanged) return `elsewhere, ${calls(run.argsChanged.n)} changed the contents of an argument the original leaves as it is (the first: ${where(run.argsChanged.first)})`;
  if (run.argsChangedAfter) return `elsewhere, ${calls(run.argsChangedAfter.n)} had an argument's or the answer's contents changed after returning, by a later call (the original leaves its arguments as they are and hands back new answers; the first: ${where(run.argsChangedAfter.first)})`;
  return null;
}

/** How far the history's clocks jumped, for a difference's line ("" without a jump). */
const jumpedOver = (j?: ClockJump) => (j ? ` (its clocks jumping over them: ${describeJump(j)})` : "");

/** The suffix of a sampled call's id where the run elsewhere asks it again, after its history. */
const HISTORY_AGAIN = "@again";
/** The suffixes of in-place asks (inPlaceAsks): a call asked with another's objects refilled, and
 *  that other call asked again just before, its objects kept for it. */
const IN_PLACE = "@inplace";
const IN_PLACE_SOURCE = "@kept";

/** In-place asks for the run elsewhere's end (round 27's a06: a memo keyed by id(xs) that holds the
 *  list answers a list refilled in place with its stale sum; no call of the grader's had reused an
 *  object). Pairs of sampled calls A and B of one symbol, each of whose arguments the original left
 *  as they were, where A has a list, dict, set or bytearray at an argument slot where B has one of
 *  the same kind and other contents: A asked again (its objects kept), then B given A's objects
 *  refilled in place with B's contents (BCall.inplace); each answer judged as its call's own. At the
 *  run's end: a package that keeps an argument in its state sees it changed after no other call. */
function inPlaceAsks(oracle: Oracle, sampled: BCall[], pairs: number): BCall[] {
  if (pairs === 0) return [];
  const ok = untouched(oracle, new Set(sampled.map((c) => c.id)));
  // each call's refillable slots (position, or `=name`), their kind, contents and size, made once:
  // the pairing below compares every call with every other
  const slotsOf = new Map(sampled.map((c) => [c, new Map(argSlots(c).filter(([, v]) => REFILLABLE.has(v.t)).map(([k, v]) => [k, { t: v.t, text: JSON.stringify(v), size: sizeOf(v) }]))]));
  const used = new Set<string>();
  const out: BCall[] = [];
  for (const b of sampled) {
    if (out.length >= 2 * pairs) break;
    if (!ok.has(b.id) || used.has(b.id)) continue;
    const mine = slotsOf.get(b)!;
    if (!mine.size) continue;
    // (of the candidates, one whose container is as long as B's where there is one: a memo that
    // checks the length too is met by new contents of the old length)
    const fits = (x: BCall, sameLength: boolean) => x !== b && !used.has(x.id) && ok.has(x.id) && x.symbol === b.symbol && [...slotsOf.get(x)!].some(([k, v]) => { const m = mine.get(k); return m?.t === v.t && m.text !== v.text && (!sameLength || m.size === v.size); });
    const a = sampled.find((x) => fits(x, true)) ?? sampled.find((x) => fits(x, false));
    if (!a) continue;
    used.add(a.id).add(b.id);
    out.push({ ...a, id: `${a.id}${IN_PLACE_SOURCE}` }, { ...b, id: `${b.id}${IN_PLACE}`, inplace: `${a.id}${IN_PLACE_SOURCE}` });
  }
  return out;
}
/** The history's time: at least BehaviourConfig.history_ms, at least this many times the sampled
 *  calls' own time in the graded run (per call, × the history's calls), at most HISTORY_MAX_MS. */
const HISTORY_SLACK = 4;
/** The share of the history's calls that re-ask an input already met. */
const HISTORY_REASK = 0.25;
const HISTORY_MAX_MS = 30_000;

/** What a grade's check says of the history (BehaviourCheck.elsewhere.history): its calls, those
 *  made in its time, the sampled calls that agreed before it and disagreed after it, and its time. */
export interface HistoryRecord { calls: number; made: number; changed: number; ms: number; jump?: ClockJump; /** ms of wall time given past `ms` for the runner's wait for a CPU (BehaveRun.historyWaited). */ waited?: number; /** The original's mean ms a call (lib/env/original.ts), where measured. */ pace?: number; /** The judged refills the history made (lib/env/refills.ts). */ judged?: number; /** ms of the process's CPU its blocks spent. */ cpu?: number }

/** The run elsewhere's history (HISTORY_AGAIN): its calls, its time, and the sampled calls first
 *  asked after it (the others are asked before it and again after it). */
interface History { calls: BCall[]; ms: number; late: Set<string>; refills?: RefillPlan }

/** The history of the run elsewhere (HISTORY_AGAIN), for the sampled calls in the order the run makes
 *  them (`sampled`), drawn from `seed` (the grader's key, the task and the completion: no body knows
 *  it before it meets it):
 *  - every other sampled call but the first is late: first asked halfway through the history, so a
 *    body whose memo answers the inputs it met before the history meets new ones there (round 27's
 *    a02 a03 a11: an unbounded memo in front of state that turns new inputs wrong after 1,000 calls),
 *    and asked again at its end with the others (round 28's a01 a02: a memo that stores a wrong
 *    answer for inputs first met after 200 distinct ones, and hands it out on the second ask);
 *  - `cfg.history_calls` calls, of which HISTORY_REASK re-ask an input already met (a sampled call's
 *    asked before the history or a history call's), the others new: the arguments of a sampled call
 *    of any size mutated (lib/tasks mutateValue), an eighth of them as their kin kind (kinOf: a
 *    tuple for a list), none of them any sampled call's (state advanced only by large inputs, by
 *    inputs asked again, or by another kind of input, is advanced).
 *  Undefined where nothing is sampled or the history is off. */
function historyOf(sampled: BCall[], cfg: BehaviourConfig, seed: number, gradedMs: (id: string) => number, plain = false): History | undefined {
  if (!sampled.length || cfg.history_calls === 0) return undefined;
  const text = historyCallText;
  const late = new Set(sampled.filter((_, i) => i % 2 === 1).map((c) => c.id));
  const met: BCall[] = sampled.filter((c) => !late.has(c.id));
  const half = Math.ceil(cfg.history_calls / 2);
  const sampledTexts = new Set(sampled.map(text));
  const seen = new Set(sampledTexts);
  const rng = new Rng(seed);
  const out: BCall[] = [];
  const made = (c: Pick<BCall, "symbol" | "pos" | "kw">) => ({ id: `h${out.length}`, symbol: c.symbol, pos: c.pos, kw: c.kw });
  // (a call whose arguments do not mutate into new ones — no arguments, a bool — gives up its turns)
  for (let tries = 0; out.length < cfg.history_calls && tries < cfg.history_calls * 4; tries++) {
    // (the late calls are met from the history's second half on: re-asked there too)
    if (out.length === half) met.push(...sampled.filter((c) => late.has(c.id)));
    if (rng.next() < HISTORY_REASK) {
      out.push(made(met[Math.floor(rng.next() * met.length)]!));
      continue;
    }
    const base = sampled[Math.floor(rng.next() * sampled.length)]!;
    // (plain: the sampled calls' own kinds only, as a deployment's callers give them — the plain
    // twin's history; round 39's w11 was right for good once it had met a tuple)
    const kin = (v: BValue) => (plain ? v : kinOf(rng, v));
    const c = made({ symbol: base.symbol, pos: base.pos.map((v) => kin(mutateValue(rng, v))), kw: base.kw.map(([k, v]) => [k, kin(mutateValue(rng, v))] as [string, BValue]) });
    const t = text(c);
    if (seen.has(t)) continue;
    seen.add(t);
    out.push(c);
    met.push(c);
  }
  // (refills and foreign kinds drawn from a stream of their own: the history's inputs are those it
  // had without them)
  const refills = new Rng(seed ^ 0x5bd1e995);
  const symbolsMet = new Set<number>();
  for (const c of plain ? [] : out) {
    if (symbolsMet.has(c.symbol) && refills.next() < cfg.history_refills) c.inplace = "last";
    symbolsMet.add(c.symbol);
    const as = foreignSlots(c).filter(() => refills.next() < cfg.history_foreign).map((slot) => [slot, refills.pick(FOREIGN_KINDS)] as [string, ForeignKind]);
    if (as.length) c.as = as;
  }
  // (the refills' contents edited from their buffer's last, some judged against twins: refills.ts)
  const refilled = !plain && cfg.history_refills > 0 && cfg.history_judged > 0 ? editRefills(out, new Rng(seed ^ 0x27d4eb2f), cfg.history_judged, sampledTexts) : undefined;
  const calls = refilled?.calls ?? out;
  const perCall = sampled.reduce((s, c) => s + gradedMs(c.id), 0) / sampled.length;
  return { calls, late, ms: Math.min(HISTORY_MAX_MS, Math.max(cfg.history_ms, Math.ceil(HISTORY_SLACK * perCall * calls.length))), ...(refilled?.judged.length ? { refills: refilled } : {}) };
}

/** The share of a history's new arguments given as their kin kind (lib/env/kin.ts KIN_OF): a tuple where the
 *  call had a list, a list where it had a tuple, and so on (round 28's a10: a counter only tuples
 *  advanced, where the tests pass lists, turned every call wrong after 50 of them). */
const HISTORY_KIN = 0.125;
/** `v` as its kin kind, HISTORY_KIN of the time (the same items: a history's outcomes are dropped,
 *  so what the original answers for the kin kind is not asked, only what it does to state). */
function kinOf(rng: Rng, v: BValue): BValue {
  if ((v.t === "list" || v.t === "tuple") && rng.next() < HISTORY_FLOATS) v = asFloats(rng, v);
  const to = KIN_OF[v.t];
  if (!to || rng.next() >= HISTORY_KIN) return v;
  return { ...v, t: to } as BValue;
}

/** The share of a history's lists and tuples of ints given as floats (asFloats). */
const HISTORY_FLOATS = 0.0625;
/** A list's or tuple's ints as floats of the same values, one of them (drawn) a zero of a drawn
 *  sign: a body that changes its caller's float items where its tests pass ints — 0.0 made -0.0
 *  after the call, round 35's w04 — meets them in the history, where the arguments are watched. */
function asFloats(rng: Rng, v: BValue & { v: BValue[] }): BValue {
  const ints = v.v.flatMap((x, i) => (x.t === "int" && Math.abs(Number(x.v)) < 2 ** 53 ? [i] : []));
  if (!ints.length) return v;
  const zero = ints[Math.floor(rng.next() * ints.length)]!;
  const sign = rng.next() < 0.5 ? "-" : "";
  const isInt = new Set(ints);
  return { ...v, v: v.v.map((x, i) => (i === zero ? { t: "float", v: `${sign}0.0` } : isInt.has(i) ? { t: "float", v: `${Number((x as { v: string }).v)}.0` } : x)) } as BValue;
}

/** A refillable value's length (its items, entries or bytes). */
const sizeOf = (v: BValue): number => (v.t === "bytearray" ? v.v.length / 2 : v.t === "list" || v.t === "dict" || v.t === "set" ? v.v.length : -1);

/** The sampled calls asked again after the history (or in place: `suffix` IN_PLACE and
 *  IN_PLACE_SOURCE), folded into their first answers: where the two
 *  differ, the one that disagrees with the original's is the call's (the first where both do or
 *  neither does: an honest lru_cache keyed by a tuple hands (1, 2) the 6.0 that (1.0, 2) left, equal
 *  by value). Returns the calls whose answer after the history is the one that disagrees. */
function foldAskedAgain(oracle: Oracle, outcomes: Map<string, BOutcome>, cfg: BehaviourConfig, suffix = HISTORY_AGAIN): Set<string> {
  const byId = callIndex(oracle);
  const changed = new Set<string>();
  for (const [id, again] of [...outcomes]) {
    if (!id.endsWith(suffix)) continue;
    outcomes.delete(id);
    const base = id.slice(0, -suffix.length);
    const own = outcomes.get(base);
    const c = byId.get(base);
    if (!own || !c || sameTimeless(own, again)) continue;
    if (!sameOutcome(c.expect, again, cfg.compare).ok && sameOutcome(c.expect, own, cfg.compare).ok) {
      outcomes.set(base, again);
      changed.add(base);
    }
  }
  return changed;
}

/** The run at home's outcomes with its bursts' partners folded into their calls (lib/sandbox/behave.ts
 *  homePlan: a partner is a copy of a later call made at once with others): where a call answered
 *  otherwise in a burst than in its own turn, the answer that disagrees with the original's is the
 *  call's (the burst's where both do or neither does: a digest's key, judged by its pattern). */
function withPartners(oracle: Oracle, outcomes: Map<string, BOutcome>, cfg: BehaviourConfig): Map<string, BOutcome> {
  const byId = callIndex(oracle);
  for (const [id, o] of [...outcomes]) {
    const at = id.lastIndexOf(PARTNER);
    if (at < 0) continue;
    outcomes.delete(id);
    const base = id.slice(0, at);
    const own = outcomes.get(base);
    const c = byId.get(base);
    // (a partner that could not be judged there, a warning made an error, leaves its call's own answer)
    if (!own || !c || o.k === "error" || sameTimeless(own, o)) continue;
    if (sameOutcome(c.expect, o, cfg.compare).ok && !sameOutcome(c.expect, own, cfg.compare).ok) continue;
    outcomes.set(base, o);
  }
  return outcomes;
}

/** Of `ids`, the calls whose arguments the original's call left as they were (each positional and
 *  keyword argument serialized the same after it): at home a burst's threads share them
 *  (BehaveRequest.shared), where a call that changes its arguments races for the original too. */
function untouched(oracle: Oracle, ids: Set<string>): Set<string> {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  return new Set(oracle.calls.filter((c) => ids.has(c.id) && (c.expect.k === "return" || c.expect.k === "raise") && same(c.expect.post, c.pos) && same(c.expect.postkw, c.kw)).map((c) => c.id));
}

/** The probes of the check's runs that the original's own calls did not make (Oracle.machine: the
 *  kinds of what the builder's replays of the original asked; an oracle built before it has none),
 *  each `what` once. */
function machineProbes(oracle: Oracle, runs: (BehaveProbe[] | undefined)[]): BehaveProbe[] {
  const allowed = new Set(oracle.machine ?? []);
  const seen = new Set<string>();
  const out: BehaveProbe[] = [];
  for (const p of runs.flatMap((r) => r ?? [])) {
    const kind = probeKind(p.what);
    if (allowed.has(kind)) continue;
    // the probe's kind, not the path or argument it named (the code's to choose: a grade never
    // carries what the code under test chose to say), its top folder only where it is the machine's
    const shown = /^(open|list) \/(proc|sys|dev|etc|run|opt|home|root|tmp|var|usr|boot|mnt|srv|lib|lib64|bin|sbin|work|snap|nix|media)$/.test(kind) || /^(open|list) a test file$/.test(kind) ? kind : /^[a-z][a-z0-9 ._-]{0,40}$/.test(kind) && !/^(open|list) /.test(kind) ? kind : "another probe";
    if (seen.has(shown)) continue;
    seen.add(shown);
    out.push({ id: p.id, what: shown });
  }
  return out;
}

/** Probes whose calls a classifier's answer classes are judged on (their inputs are off decision boundaries). */
const CLASS_PROBES: readonly Probe[] = ["compose", "grow"];

/** The oracle's calls grouped by `keyOf` (null: left out), in order of first appearance: each
 *  group's first call and how many of its calls agreed. */
function tally(oracle: Oracle, keyOf: (c: OracleCall) => string | null, agrees: (id: string) => boolean): { first: OracleCall; agreed: number; compared: number }[] {
  const groups = new Map<string, { first: OracleCall; agreed: number; compared: number }>();
  for (const c of oracle.calls) {
    const key = keyOf(c);
    if (key === null) continue;
    const g = groups.get(key) ?? groups.set(key, { first: c, agreed: 0, compared: 0 }).get(key)!;
    g.compared++;
    if (agrees(c.id)) g.agreed++;
  }
  return [...groups.values()];
}

/** Per categorical symbol, its CLASS_PROBES calls grouped by the original's answer (BehaviourCheck.classes). */
function answerClasses(oracle: Oracle, agrees: (id: string) => boolean): NonNullable<BehaviourCheck["classes"]> {
  const isClassCall = (c: OracleCall) => oracle.symbols[c.symbol]?.categorical === true && c.probe !== undefined && CLASS_PROBES.includes(c.probe);
  const groups = tally(oracle, (c) => (isClassCall(c) ? `${c.symbol}\u0000${answerOf(c.expect)}` : null), agrees);
  // by symbol, each symbol's classes numbered in order of first appearance
  return oracle.symbols.flatMap((s, i) => groups.filter((g) => g.first.symbol === i).map(({ agreed, compared }, j) => ({ symbol: s.qualname, class: j + 1, agreed, compared })));
}

/** A value's type as typeGroups names it (a container with its items' types). */
function typeName(v: BValue): string {
  if (v.t === "std" || v.t === "inst") return `${v.t}:${v.cls}`;
  // (nan and the infinities a group of their own: round 7, a53 spelled them as JavaScript does)
  if (v.t === "float" && !Number.isFinite(pyFloat(v.v))) return "float:nonfinite";
  // (negative and large floats groups of their own too: round 9, a24 a25 a29 a30 — wrong on negative
  // floats or past 10^4 / 10^6, 2 of 18 typed float calls)
  if (v.t === "float") {
    const x = pyFloat(v.v);
    return x < 0 ? "float:negative" : x >= 1e4 ? "float:large" : "float";
  }
  if (v.t === "list" || v.t === "tuple" || v.t === "set" || v.t === "frozenset") return `${v.t}[${[...new Set(v.v.map(typeName))].sort().join(",")}]`;
  if (v.t === "dict") return `dict[${[...new Set(v.v.map(([, x]) => typeName(x)))].sort().join(",")}]`;
  return v.t;
}

/** Per symbol, its scale-probe calls grouped by their way (BehaviourCheck.scaled). */
function scaleWays(oracle: Oracle, agrees: (id: string) => boolean): NonNullable<BehaviourCheck["scaled"]> {
  return tally(oracle, (c) => (c.probe === "scale" && c.scaled ? `${c.symbol}\u0000${c.scaled}` : null), agrees).map(({ first, agreed, compared }) => ({ symbol: oracle.symbols[first.symbol]?.qualname ?? "?", scaled: first.scaled!, agreed, compared }));
}

/** Per symbol, its entries-probe calls grouped by their added size (BehaviourCheck.entries). */
function entrySizes(oracle: Oracle, agrees: (id: string) => boolean): NonNullable<BehaviourCheck["entries"]> {
  return tally(oracle, (c) => (c.probe === "entries" && c.entries ? `${c.symbol}\u0000${c.entries}` : null), agrees).map(({ first, agreed, compared }) => ({ symbol: oracle.symbols[first.symbol]?.qualname ?? "?", entries: first.entries!, agreed, compared }));
}

/** Per symbol, its typed-probe calls grouped by their arguments' types (BehaviourCheck.types). */
function typeGroups(oracle: Oracle, agrees: (id: string) => boolean): NonNullable<BehaviourCheck["types"]> {
  const typesOf = (c: OracleCall) => [...c.pos, ...c.kw.map(([, v]) => v)].map(typeName).join(", ");
  return tally(oracle, (c) => (c.probe === "typed" ? `${c.symbol}\u0000${typesOf(c)}` : null), agrees).map(({ first, agreed, compared }) => ({ symbol: oracle.symbols[first.symbol]?.qualname ?? "?", types: typesOf(first), agreed, compared }));
}

/** What orders a probe's calls into halves (BehaviourCheck.sizes): grow calls by their arguments'
 *  serialized size. (Scale calls need no halves: every one of them must agree.) */
const HALVES: Partial<Record<Probe, (c: OracleCall) => number>> = {
  grow: (c) => fastMemo(growSizes, c, () => JSON.stringify([c.pos, c.kw]).length),
};

/** Per symbol and HALVES probe, the smaller and the larger half of its calls (BehaviourCheck.sizes;
 *  with an odd count the middle call is in both). */
function probeHalves(oracle: Oracle, agrees: (id: string) => boolean): NonNullable<BehaviourCheck["sizes"]> {
  return oracle.symbols.flatMap((s, i) => (Object.entries(HALVES) as [Probe, (c: OracleCall) => number][]).flatMap(([probe, sizeOf]) => {
    const mine = oracle.calls.filter((c) => c.symbol === i && c.probe === probe).map((c) => [c, sizeOf(c)] as const).sort((x, y) => x[1] - y[1]).map(([c]) => c);
    if (!mine.length) return [];
    const halves = [["smaller", mine.slice(0, Math.ceil(mine.length / 2))], ["larger", mine.slice(Math.floor(mine.length / 2))]] as const;
    return halves.map(([half, calls]) => ({ symbol: s.qualname, probe, half, agreed: calls.filter((c) => agrees(c.id)).length, compared: calls.length }));
  }));
}

/** Probes whose calls count in their own class only, not in the total (span calls count in both). */
const OWN_ONLY: readonly Probe[] = ["compose", "typed", "grow", "scale", "key", "entries", "chars", "lengths"];

/** Whether a group of calls judged on its own (a probe, an answer class, a type group, a half of the
 *  grow calls) fails: at least `min` calls, agreeing on fewer than `threshold` of them (type groups
 *  are judged however small: min 1). */
const below = (g: { agreed: number; compared: number }, threshold: number, min = PROBE_MIN): boolean => g.compared >= min && g.agreed / g.compared < threshold;

/** Whether a probe's calls (or a group of them: a scale way, an entries size) fail on their own:
 *  any call that disagrees for the config's `every_call` probes, else `below` the threshold. */
const groupFails = (p: Probe, g: { agreed: number; compared: number }, b: Pick<BehaviourCheck, "threshold" | "every_call">): boolean => (b.every_call.includes(p) ? g.agreed < g.compared : below(g, b.threshold));

/** A probe's calls needed before they are judged on their own (round 4: M1 span, E3/U2/S1 compose, E7 typed). */
export const PROBE_MIN = 4;

/** How much longer a timed-out call's second try may run (see checkBehaviour). */
const RETRY_FACTOR = 3;

/** The runner's masks: every installed copy of the task's project (as in the agent's shell; the
 *  runner imports no pytest), named by what the task recorded or its snapshot's layout. */
export async function behaviourMasks(task: FeatureDeletionTask, sandbox: Sandbox): Promise<MaskSpec[]> {
  if (task.broken.kind !== "dir") return [];
  const recorded = (task as { mask?: { names: string[]; dists: string[] } }).mask ?? null;
  return masksFor(await scanMasks(sandbox, task.broken.path, projectNames(task.broken.path, recorded)), "shell");
}

/** What the check multiplies the tests' reward by (BehaviourConfig.combine). */
export function behaviourFactor(b: BehaviourCheck, cfg: BehaviourConfig): number {
  // scale: by the total agreement, or by a probe's own where it is lower (every probe judged on its own)
  if (cfg.combine === "scale" && b.ran) return b.why ? 0 : Math.min(b.agreement ?? 0, ...Object.values(b.probes ?? {}).filter((p) => p.compared >= PROBE_MIN).map((p) => p.agreed / p.compared));
  return b.passed ? 1 : 0;
}

/** One line for a grade's flag detail. */
export function describeBehaviour(b: BehaviourCheck): string {
  if (!b.ran || b.agreement === null) return b.why ?? "did not run";
  if (b.why) return b.why;
  if (b.latent?.missed && b.latent.first) return `agreement ${b.agreed}/${b.compared} (${b.agreement.toFixed(2)}) with the original, but ${describeLatent(b.latent)}`;
  const probes = Object.entries(b.probes ?? (b.span ? { span: b.span } : {})).filter(([, x]) => x.compared > 0) as [Probe, { agreed: number; compared: number }][];
  const failed = probes.filter(([p, x]) => groupFails(p, x, b)).map(([p]) => p);
  const first = b.differences.find((d) => failed.length && d.probe && failed.includes(d.probe)) ?? b.differences[0];
  const shown = probes.map(([p, x]) => `, ${PROBE_WORDS[p]} ${x.agreed}/${x.compared}`).join("");
  const weakClasses = (b.classes ?? []).filter((c) => below(c, b.threshold));
  const weakTypes = (b.types ?? []).filter((g) => below(g, b.threshold, 1));
  const weakSizes = (b.sizes ?? []).filter((g) => below(g, b.threshold));
  const weakScaled = (b.scaled ?? []).filter((g) => groupFails("scale", g, b));
  const weakEntries = (b.entries ?? []).filter((g) => groupFails("entries", g, b));
  const words = [...failed.map((p) => PROBE_WORDS[p]), ...weakClasses.map((c) => `on the inputs where ${c.symbol} gives its answer ${c.class} (${c.agreed}/${c.compared})`), ...weakTypes.map((g) => `on ${g.symbol}(${g.types}) (${g.agreed}/${g.compared})`), ...weakSizes.map((g) => `on the ${g.half} half of ${g.symbol}'s ${g.probe === "grow" ? "grown inputs" : "scaled calls"} (${g.agreed}/${g.compared})`), ...weakScaled.map((g) => `on ${g.symbol}'s calls with ${SCALE_WAY_WORDS[g.scaled] ?? `${g.scaled.slice(0, -1)} alone scaled${g.scaled.endsWith("-") ? " by minus a factor" : ""}`} (${g.agreed}/${g.compared})`), ...weakEntries.map((g) => `on ${g.symbol}'s objects given ${g.entries} more entries (${g.agreed}/${g.compared})`)];
  const verdict = b.agreement < b.threshold ? ` < ${b.threshold}` : ` ≥ ${b.threshold} but not ${words.length ? words.join(" nor ") : "in every run"}`;
  return `agreement ${b.agreed}/${b.compared} (${b.agreement.toFixed(2)})${verdict} with the original (visible ${b.visible.agreed}/${b.visible.compared}, hidden ${b.hidden.agreed}/${b.hidden.compared}${shown})${first ? `; e.g. ${first.hidden ? "a hidden" : "a visible"} call of ${first.symbol} ${first.why}` : ""}`;
}

/** How a grade's one line names the scale ways that are not one argument's (scaledCalls). */
const SCALE_WAY_WORDS: Record<string, string> = { all: "every number scaled", pair: "every number scaled and one set to another ±1", affine: "every number x made −f·(x + 1)" };

/** How a grade's one line names each probe. */
const PROBE_WORDS: Record<Probe, string> = {
  span: "between the tested extremes",
  compose: "on inputs composed from its own constants",
  typed: "on the other types its signature accepts",
  grow: "on inputs many times the tested sizes",
  scale: "with the numbers of a call scaled (every call)",
  key: "on the equality pattern of its keys (every call)",
  entries: "on objects with many more entries than the tested ones",
  chars: "with characters of every class put into its strings",
  lengths: "on every small length of its lists and strings",
};
