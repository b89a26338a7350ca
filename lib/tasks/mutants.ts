/**
 * The mutation gate: where the behavioural check cannot cover a deleted symbol (its oracle is
 * `not_applicable`, or the pool has no oracle), pytest alone decides the reward, so the target tests
 * must tell the golden body from every smaller one. Mutants of the golden body (mutants.py: a
 * statement deleted, a returned or assigned value replaced by None, a returned value replaced by an
 * argument, a branch forced) are graded as a completion would be; a mutant that passes every target
 * and guard is a body that earns reward 1 without that part of the feature (round 3, J01: an empty
 * `Bucket` that never loads bytecode). The builder rejects such a task at gate 2; `tasks mutants`
 * audits a pool built before the gate.
 */
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { jupyterPython, projectRoot, tempDir } from "../core/index.js";
import type { PytestRun } from "../sandbox/index.js";
import { applyUnifiedDiff } from "./diffs.js";

export const MutationOptions = z.object({
  /** Grade mutants for symbols the behavioural check does not cover (false: skip the gate). */
  enabled: z.boolean().default(true),
  /** Mutants per task, outer statements first. */
  max_mutants: z.number().int().positive().default(24),
  /** Stop at the first confirmed survivor (the builder: one rejects the task); false grades all (the audit). */
  stop_at_first: z.boolean().default(true),
});
export type MutationOptions = z.input<typeof MutationOptions>;

export const Mutant = z.object({
  file: z.string(),
  /** mutants.py's operators; `drop_operand:k` drops the k-th part of an and/or condition. */
  operator: z.union([z.enum(["delete_statement", "return_none", "return_argument", "return_first", "assign_none", "if_true", "if_false", "loop_once"]), z.string().regex(/^drop_operand:\d+$/)]),
  lineno: z.number().int(),
  what: z.string(),
  source: z.string(),
});
export type Mutant = z.infer<typeof Mutant>;

/** Mutants of the named functions (a class: each of its functions) in one file's source. */
export function mutantsOf(source: string, qualnames: string[], file: string, max = 24): Mutant[] {
  const r = spawnSync(jupyterPython(), ["-I", "-S", join(projectRoot(), "lib", "tasks", "mutants.py")], { input: JSON.stringify({ source, qualnames, max }), encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`mutants helper failed: ${r.stderr || r.error?.message}`);
  const out = z.object({ mutants: z.array(Mutant.omit({ file: true })), error: z.string().nullable() }).parse(JSON.parse(r.stdout));
  if (out.error) throw new Error(`${file}: ${out.error}`);
  return out.mutants.map((m) => ({ ...m, file }));
}

export const MutationReport = z.object({
  /** The symbols the gate covered (`file::qualname`): those the behavioural check does not. */
  symbols: z.array(z.string()),
  mutants: z.number().int(),
  graded: z.number().int(),
  killed: z.number().int(),
  survivors: z.array(Mutant.omit({ source: true })),
  seconds: z.number(),
});
export type MutationReport = z.infer<typeof MutationReport>;

export interface MutationSubject {
  /** The broken snapshot and the golden diff (broken → solved). */
  broken: string;
  golden_diff: string;
  symbols: { file: string; qualname: string }[];
  fail_to_pass: string[];
  /** Targets plus the guards a grade checks (a survivor passes them all). */
  check: string[];
}

/**
 * Grades the mutants of `subject`'s golden body with `run` (a graded pytest run of a tree, as the
 * builder's gates run it): a mutant failing any target is killed; one passing every target is
 * re-run on the whole check set and, passing that too, is a survivor.
 */
export async function mutationGate(subject: MutationSubject, run: (dir: string, tests: string[]) => Promise<PytestRun>, options: MutationOptions = {}): Promise<MutationReport> {
  const o = MutationOptions.parse(options);
  const t0 = performance.now();
  const symbols = subject.symbols.map((s) => `${s.file}::${s.qualname}`);
  const report: MutationReport = { symbols, mutants: 0, graded: 0, killed: 0, survivors: [], seconds: 0 };
  if (!subject.symbols.length) return report;
  const solved = tempDir("mutants-solved-");
  try {
    cpSync(subject.broken, solved.path, { recursive: true });
    applyUnifiedDiff(solved.path, subject.golden_diff);
    const byFile = new Map<string, string[]>();
    for (const s of subject.symbols) byFile.set(s.file, [...(byFile.get(s.file) ?? []), s.qualname]);
    const mutants: Mutant[] = [];
    for (const [file, names] of byFile) mutants.push(...mutantsOf(readFileSync(join(solved.path, file), "utf8"), names, file, o.max_mutants));
    const chosen = mutants.slice(0, o.max_mutants);
    report.mutants = chosen.length;
    const passesAll = (r: PytestRun, tests: string[]) => {
      const passed = new Set(r.tests.filter((t) => t.outcome === "passed").map((t) => t.nodeid));
      return tests.every((t) => passed.has(t));
    };
    const guards = subject.check.some((t) => !subject.fail_to_pass.includes(t));
    for (const m of chosen) {
      const dir = tempDir("mutant-");
      try {
        cpSync(solved.path, dir.path, { recursive: true });
        writeFileSync(join(dir.path, m.file), m.source);
        report.graded++;
        if (!passesAll(await run(dir.path, subject.fail_to_pass), subject.fail_to_pass)) {
          report.killed++;
          continue;
        }
        if (guards && !passesAll(await run(dir.path, subject.check), subject.check)) {
          report.killed++;
          continue;
        }
        const { source: _s, ...survivor } = m;
        report.survivors.push(survivor);
        if (o.stop_at_first) break;
      } finally {
        dir.remove();
      }
    }
  } finally {
    solved.remove();
  }
  report.seconds = Number(((performance.now() - t0) / 1000).toFixed(2));
  return report;
}

/** The deleted symbols the behavioural check does not cover, given the task's oracle (null: no oracle, none covered). */
export function uncheckedSymbols(symbols: { file: string; qualname: string }[], oracle: { symbols: { file: string; qualname: string; status: string }[] } | null): { file: string; qualname: string }[] {
  if (!oracle) return symbols;
  const checked = new Set(oracle.symbols.filter((s) => s.status === "checked").map((s) => `${s.file}::${s.qualname}`));
  return symbols.filter((s) => !checked.has(`${s.file}::${s.qualname}`));
}
