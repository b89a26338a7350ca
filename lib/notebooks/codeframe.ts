/**
 * A failing cell shown as a code frame (the cell's lines around the failure, the failing one marked)
 * instead of tslab's output, whose line numbers count the compiled JavaScript and whose stack runs
 * through tslab's and Node's internals.
 */

/** Stack lines that belong to the kernel, not to the notebook. */
const INTERNAL_FRAME = /^\s*at .*(node_modules\/tslab\/|notebooks\/kernel-errors\.[jt]s|node:vm|node:internal|sigintHandlersWrap|evalmachine\.<anonymous>:\d+:\d+\)?$)/;

/** The cell line (1-based) and column a tslab error points at, or null when it names none. */
export function failingLine(source: string, stderr: string): { line: number; column: number } | null {
  const lines = source.split("\n");
  // Type errors: "LINE:COL - message" (positions in the cell itself).
  const diag = stderr.match(/^(\d+):(\d+) - /m);
  if (diag) return { line: Number(diag[1]), column: Number(diag[2]) };
  // Runtime errors: Node prints the compiled line under "evalmachine.<anonymous>:N" with a caret;
  // the compiled line keeps the statement's text, so find it in the cell.
  const runtime = stderr.match(/^evalmachine\.<anonymous>:\d+\n(.*)\n(\s*)\^/m);
  if (runtime) {
    const text = runtime[1]!.trim();
    const caretAt = runtime[2]!.length - (runtime[1]!.length - runtime[1]!.trimStart().length);
    const i = lines.findIndex((l) => text && l.includes(text));
    if (i >= 0) return { line: i + 1, column: lines[i]!.indexOf(text) + 1 + Math.max(0, caretAt) };
    // Not found verbatim (the compiler rewrote it): match its longest identifier-bearing fragment.
    const frag = text.replace(/;$/, "").split(/[();]/).map((f) => f.trim()).sort((a, b) => b.length - a.length)[0];
    const j = frag ? lines.findIndex((l) => l.includes(frag)) : -1;
    if (j >= 0) return { line: j + 1, column: lines[j]!.indexOf(frag!) + 1 };
  }
  return null;
}

/** The message without the kernel's frames: the error line(s) and frames from library code. */
export function userFacingError(stderr: string): string {
  const lines = stderr.split("\n");
  // Drop Node's "evalmachine.<anonymous>:N / code / caret" preamble.
  const start = /^evalmachine\.<anonymous>:\d+$/.test(lines[0] ?? "") ? lines.findIndex((l, i) => i > 0 && l.trim() === "") + 1 : 0;
  return lines.slice(Math.max(0, start)).filter((l) => !INTERNAL_FRAME.test(l)).join("\n").trim();
}

/** Lines around the failing one, numbered, with a caret under the failing column. */
export function codeFrame(source: string, stderr: string, context = 2): string {
  const lines = source.replace(/\n$/, "").split("\n");
  const at = failingLine(source, stderr);
  const from = at ? Math.max(1, at.line - context) : 1;
  const to = at ? Math.min(lines.length, at.line + context) : lines.length;
  const width = String(to).length;
  const out: string[] = [];
  for (let n = from; n <= to; n++) {
    const mark = at?.line === n ? ">" : " ";
    out.push(`${mark} ${String(n).padStart(width)} | ${lines[n - 1]}`.trimEnd());
    if (at?.line === n) out.push(`  ${" ".repeat(width)} | ${" ".repeat(Math.max(0, at.column - 1))}^`);
  }
  return out.join("\n");
}

/** A kernel that already framed its error (kernel-errors.ts): the message and the frame apart. */
export function splitFramed(stderr: string): { error: string; frame: string } | null {
  const lines = stderr.trimEnd().split("\n");
  const at = lines.findIndex((l) => /^[> ] +\d+ \| /.test(l));
  if (at < 0) return null;
  return { error: lines.slice(0, at).join("\n").trim(), frame: lines.slice(at).join("\n") };
}
