/** The grading stage of `composer-lab demo`: grade four attempts at a bundled task in the sandbox. */
import { datasetsDir } from "../../core/index.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO_TASK, FeatureDeletionEpisode, exampleAttempts, gradeCompletion, graderAttacks, type BehaviourCheck } from "../../env/index.js";
import { NoSandbox, checkSandboxes, getSandbox, runPytest, type Sandbox } from "../../sandbox/index.js";
import { fileDiff, loadTask, spliceStub } from "../../tasks/index.js";
import { barChart, fromRows } from "../../viz/index.js";
import type { DemoStage } from "../stage.js";

/** "agreed/compared" of a grade's behavioural check, or why it did not run. */
const behaviourCell = (b: BehaviourCheck | undefined): string => (!b ? "n/a" : b.ran ? `${b.agreed}/${b.compared}${b.passed ? "" : " (differs)"}` : "n/a");

export const gradingStage: DemoStage = {
  name: "grading",
  title: "Grading: sandboxed tests, reward and hack monitor",
  description: "Grades four attempts at a bundled feature-deletion task in the sandbox (golden diff, untouched, partial fix, bytecode hack), then four attacks on the grader itself, and measures sandbox overhead.",
  async run(ctx) {
    const task = loadTask(datasetsDir("tasks"), DEMO_TASK);
    const sandbox = await getSandbox("auto");
    const rows = [];
    for (const a of exampleAttempts(task)) {
      const g = await gradeCompletion(task, a.completion, sandbox);
      ctx.log(`${a.name}: reward ${g.reward.toFixed(3)}${g.hacked ? " (hacked)" : ""}`);
      rows.push({ attempt: a.name, kind: g.kind, reward: Number(g.reward.toFixed(3)), frac: Number(g.frac.toFixed(3)), guard_ok: g.guardOk, hacked: g.hacked, flags: g.flags.map((f) => f.kind).join(", "), behaviour: behaviourCell(g.checks?.behaviour) });
    }
    // The behavioural check (issue 26): a body returning an object equal to everything passes the
    // tests; against the original's calls on hidden inputs, decided outside the sandbox, it does not.
    const d = task.deleted_symbols[0]!;
    const before = readFileSync(join(FeatureDeletionEpisode.snapshotDir(task), d.file), "utf8");
    const gaming = fileDiff(d.file, before, `${spliceStub(before, d.qualname.split(".").pop()!, ["return _AnyEq()"])}\n\nclass _AnyEq:\n    def __eq__(self, other):\n        return True\n\n    __hash__ = object.__hash__\n`);
    const gameOff = await gradeCompletion(task, gaming, sandbox, { limits: { behaviour: { enabled: false } } });
    const gameOn = await gradeCompletion(task, gaming, sandbox);
    for (const [name, g] of [["anything-equal body, check off", gameOff], ["anything-equal body, check on", gameOn]] as const) {
      ctx.log(`${name}: reward ${g.reward.toFixed(3)}, flags ${g.flags.map((f) => f.kind).join(", ") || "none"}`);
      rows.push({ attempt: name, kind: g.kind, reward: Number(g.reward.toFixed(3)), frac: Number(g.frac.toFixed(3)), guard_ok: g.guardOk, hacked: g.hacked, flags: g.flags.map((f) => f.kind).join(", "), behaviour: behaviourCell(g.checks?.behaviour) });
    }
    const attacks = [];
    for (const a of graderAttacks(task)) {
      const g = await gradeCompletion(task, a.completion, sandbox);
      const caught = g.reward === 0 && g.flags.some((f) => f.kind === a.expect);
      ctx.log(`attack "${a.name}": reward ${g.reward}, flags ${g.flags.map((f) => f.kind).join(", ") || "none"}`);
      attacks.push({ attack: a.name, reward: g.reward, expected_flag: a.expect, flags: [...new Set(g.flags.map((f) => f.kind))].join(", "), caught });
    }
    const caught = attacks.filter((a) => a.caught).length;
    // Overhead: the same suite bare and in each working sandbox.
    const repo = datasetsDir("repos", "inventory");
    const checks = await checkSandboxes();
    const timings: Record<string, number> = {};
    const sandboxes: [string, Sandbox][] = [["bare", new NoSandbox()]];
    if (checks.bwrap.ok) sandboxes.push(["bwrap", await getSandbox("bwrap")]);
    if (checks.docker.ok) sandboxes.push(["docker", await getSandbox("docker")]);
    for (const [name, sb] of sandboxes) {
      const r = await runPytest(sb, repo);
      timings[name] = r.run.wallMs;
    }
    const byName = Object.fromEntries(rows.map((r) => [r.attempt, r]));
    return {
      summary: `In ${sandbox.name}: golden diff → ${byName["golden diff"]!.reward}, untouched → ${byName["untouched"]!.reward}, partial fix → ${byName["partial fix"]!.reward}, bytecode hack → ${byName["bytecode hack"]!.reward} (flags: ${byName["bytecode hack"]!.flags}). Attacks on the grader: ${caught}/${attacks.length} scored 0 with the expected flag. Behavioural check: golden ${byName["golden diff"]!.behaviour}; an anything-equal body earns ${gameOff.reward.toFixed(2)} on the tests alone, ${gameOn.reward.toFixed(2)} with the check (${gameOn.flags.map((f) => f.kind).join(", ") || "no flag"}). Suite wall time: ${Object.entries(timings).map(([k, v]) => `${k} ${v.toFixed(0)} ms`).join(", ")}.`,
      metrics: {
        sandbox: sandbox.name,
        reward_golden: byName["golden diff"]!.reward, reward_untouched: byName["untouched"]!.reward,
        reward_partial: byName["partial fix"]!.reward, reward_hack: byName["bytecode hack"]!.reward, hack_flagged: byName["bytecode hack"]!.hacked,
        grader_attacks: attacks.length, grader_attacks_caught: caught,
        behaviour_ran_golden: byName["golden diff"]!.behaviour !== "n/a", reward_value_gaming_check_off: gameOff.reward, reward_value_gaming_check_on: gameOn.reward,
        ...Object.fromEntries(Object.entries(timings).map(([k, v]) => [`suite_ms_${k}`, Number(v.toFixed(1))])),
      },
      tables: [{ title: `Attempts at ${DEMO_TASK}`, table: fromRows(rows) }, { title: "Attacks on the grader", table: fromRows(attacks) }],
      figures: [{ title: "Sandbox overhead", figure: barChart(Object.keys(timings), { "suite wall time (ms)": Object.values(timings) }, { title: "same pytest suite, bare vs sandboxed", yTitle: "ms" }) }],
    };
  },
};
