/**
 * Independently written correct bodies (issue 26 §1: the behavioural check's false-flag rate). An
 * honest re-implementation must not pay for differences the tests and the docstring leave open, so
 * the check is measured on bodies that were NOT derived from the original:
 *  - micro tasks: a second implementation per family, written from the docstring alone (its
 *    constants read from the docstring the agent sees, a different algorithm than the generator's
 *    body in micro.ts);
 *  - real tasks: the golden body reformatted and refactored (refactor.py: re-printed by ast.unparse,
 *    docstring dropped, every local variable renamed) — the same behaviour written differently.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { jupyterPython, projectRoot } from "../core/index.js";
import { applyPatch, parsePatch } from "diff";
import { fileDiff } from "./diffs.js";
import type { FeatureDeletionTask } from "./schema.js";

type Alt = { doc: RegExp; body: (m: string[]) => string[] };
const q = (s: string) => JSON.stringify(s);

/** family → how its constants read from the docstring, and the second body. */
export const ALT_BODIES: Record<string, Alt> = {
  add: { doc: /plus (-?\d+)\./, body: ([k]) => ["y = x", `y += ${k}`, "return y"] },
  times: { doc: /times (\d+)\./, body: ([k]) => ["result = 0", `for _ in range(${k}):`, "    result += x", "return result"] },
  minus: { doc: /minus (\d+)\./, body: ([k]) => [`return -(${k} - x)`] },
  clamp: { doc: /range (-?\d+) to (-?\d+)\./, body: ([lo, hi]) => [`if x < ${lo}:`, `    return ${lo}`, `if x > ${hi}:`, `    return ${hi}`, "return x"] },
  repeat: { doc: /repeated (\d+) times/, body: ([k]) => [`return "".join([s] * ${k})`] },
  prefix: { doc: /with "(.*)" in front/, body: ([t]) => [`return "".join([${q(t!)}, s])`] },
  suffix: { doc: /with "(.*)" at the end/, body: ([t]) => [`return "%s%s" % (s, ${q(t!)})`] },
  total: { doc: /plus (\d+)\./, body: ([k]) => [`acc = ${k}`, "for v in xs:", "    acc += v", "return acc"] },
  count: { doc: /equal (-?\d+)\./, body: ([k]) => [`return sum(1 for v in xs if v == ${k})`] },
  head: { doc: /first (\d+) items/, body: ([k]) => ["out = []", "for v in xs:", `    if len(out) == ${k}:`, "        break", "    out.append(v)", "return out"] },
  largest: { doc: /or (-?\d+) if xs is empty/, body: ([k]) => ["best = None", "for v in xs:", "    if best is None or v > best:", "        best = v", `return ${k} if best is None else best`] },
  multiple: { doc: /multiple of (\d+)\./, body: ([k]) => [`return (x // ${k}) * ${k} == x`] },
  scaled: { doc: /times (\d+)\./, body: ([k]) => [`return list(map(lambda v: v * ${k}, xs))`] },
  above: { doc: /greater than (-?\d+)\./, body: ([k]) => [`return list(filter(lambda v: v > ${k}, xs))`] },
};

const STUB = /^([ \t]*)raise NotImplementedError\b.*$/m;

/** The broken file text of a task's (single) deleted symbol, and where its stub is. */
function stubbed(task: FeatureDeletionTask): { file: string; text: string; name: string } {
  if (task.broken.kind !== "dir") throw new Error(`${task.task_id}: needs a directory snapshot`);
  const d = task.deleted_symbols[0];
  if (!d) throw new Error(`${task.task_id}: no deleted symbol`);
  return { file: d.file, text: readFileSync(join(task.broken.path, d.file), "utf8"), name: d.qualname.split(".").pop()! };
}

/** Replaces the stub of function `name` (the first `raise NotImplementedError` after its def). */
export function spliceStub(text: string, name: string, body: string[]): string {
  const at = text.search(new RegExp(`^\\s*def ${name}\\(`, "m"));
  if (at < 0) throw new Error(`no def ${name}`);
  const rest = text.slice(at);
  const m = STUB.exec(rest);
  if (!m) throw new Error(`def ${name} has no NotImplementedError stub`);
  const indent = m[1]!;
  return text.slice(0, at) + rest.slice(0, m.index) + body.map((l) => indent + l).join("\n") + rest.slice(m.index + m[0].length);
}

/** A micro task's second implementation as a completion (a unified diff), or null for a family
 *  without one or a docstring that does not state the constants (e.g. hidden_constants). */
export function altMicroCompletion(task: FeatureDeletionTask): string | null {
  const s = stubbed(task);
  const family = s.name.split("_")[0]!;
  const alt = ALT_BODIES[family];
  if (!alt) return null;
  const def = s.text.slice(s.text.search(new RegExp(`^def ${s.name}\\(`, "m")));
  const doc = /"""([\s\S]*?)"""/.exec(def)?.[1] ?? "";
  const m = alt.doc.exec(doc);
  if (!m) return null;
  return fileDiff(s.file, s.text, spliceStub(s.text, s.name, alt.body(m.slice(1))));
}

/** The solved text of the deleted symbol's file (snapshot + golden diff). */
function solvedText(task: FeatureDeletionTask, file: string, broken: string): string {
  const patch = parsePatch(task.golden_diff).find((p) => p.newFileName?.replace(/^b\//, "") === file || p.oldFileName?.replace(/^a\//, "") === file);
  const out = patch ? applyPatch(broken, patch) : false;
  if (out === false) throw new Error(`${task.task_id}: the golden diff does not apply to ${file}`);
  return out;
}

/** The golden implementation of each deleted symbol, reformatted and refactored (refactor.py), as a
 *  completion: a different text with the same behaviour. */
export function refactoredGoldenCompletion(task: FeatureDeletionTask): string {
  if (task.broken.kind !== "dir") throw new Error(`${task.task_id}: needs a directory snapshot`);
  const diffs: string[] = [];
  for (const file of [...new Set(task.deleted_symbols.map((d) => d.file))]) {
    const broken = readFileSync(join(task.broken.path, file), "utf8");
    const solved = solvedText(task, file, broken);
    const qualnames = task.deleted_symbols.filter((d) => d.file === file).map((d) => d.qualname);
    const r = spawnSync(jupyterPython(), ["-I", "-S", join(projectRoot(), "lib", "tasks", "refactor.py")], { input: JSON.stringify({ source: solved, qualnames }), encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) throw new Error(`${task.task_id}: refactor.py: ${r.stderr.slice(-400)}`);
    diffs.push(fileDiff(file, broken, r.stdout));
  }
  return diffs.join("");
}
