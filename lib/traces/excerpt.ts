/**
 * Picking the informative part of long tool output. Real output is not shaped for a reader: Claude
 * Code puts stderr before stdout (a traceback, then progress lines), test runners print a banner
 * first and the failure late, and a raw first-200-characters cut is usually banner text.
 */

const clip = (s: string, n: number): string => (s.length > n ? s.slice(0, n - 1) + "…" : s);
/** Wrapper tags that carry no information. */
export const stripWrappers = (s: string): string => s.replace(/\[TOOL_RESULT \(ERROR\)\]\s*/g, "").replace(/<\/?tool_use_error>/g, "");
const lines = (s: string): string[] => stripWrappers(s).split("\n").map((l) => l.replace(/\s+$/, ""));

/** An exception line outside a traceback: "KeyError: 'x'", "pkg.mod.Error: …", "panic: …", "Uncaught TypeError: …". */
const EXCEPTION = /^\s*(?:(?:[A-Za-z_][\w]*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Failure|Warning)(?::|$)|panic: |Uncaught \w+|thread '.*' panicked at)/;

/**
 * The exception line of a (Python) traceback wherever it sits in the text: the first unindented
 * line after the LAST traceback's frames (a chained exception's final error is the one raised);
 * without a traceback, the last line that looks like an exception. null when there is none.
 */
export function exceptionLine(text: string): string | null {
  const ls = lines(text);
  let tb = -1;
  for (let i = ls.length - 1; i >= 0; i--) if (/^\s*Traceback \(most recent call last\):/.test(ls[i]!)) { tb = i; break; }
  if (tb >= 0) {
    for (let i = tb + 1; i < ls.length; i++) {
      const l = ls[i]!;
      if (l.trim() === "" || /^\s/.test(l)) continue;
      return l.trim();
    }
  }
  for (let i = ls.length - 1; i >= 0; i--) if (EXCEPTION.test(ls[i]!)) return ls[i]!.trim();
  return null;
}

/** The failing assertion of a test run: pytest's "E   …" lines, an AssertionError, jest's
 *  Expected/Received, go test's "file_test.go:12: …". null when none is found. */
export function failingAssertion(text: string): string | null {
  const ls = lines(text);
  // pytest: the first "E   " line is the assertion (the ones after it explain it)
  const e = ls.find((l) => /^E\s{2,}\S/.test(l));
  if (e) return e.replace(/^E\s+/, "").trim();
  const expected = ls.findIndex((l) => /^\s*Expected(?: value)?:\s/.test(l));
  if (expected >= 0) {
    const received = ls.slice(expected + 1, expected + 4).find((l) => /^\s*Received(?: value)?:\s/.test(l));
    return [ls[expected]!.trim(), received?.trim()].filter(Boolean).join(", ");
  }
  const assertion = ls.find((l) => /AssertionError|assert(?:ion)? failed|^\s*assert /i.test(l));
  if (assertion) return assertion.trim();
  // cargo test: "assertion `left == right` failed" with left/right on the next lines
  const rust = ls.findIndex((l) => /^\s*assertion\b.*\bfailed\b/.test(l));
  if (rust >= 0) return [ls[rust]!, ...ls.slice(rust + 1, rust + 3).filter((l) => /^\s*(?:left|right):/.test(l))].map((l) => l.trim()).join(" ");
  const go = ls.find((l) => /^\s+\S+_test\.go:\d+: \S/.test(l));
  if (go) return go.trim();
  const pytestShort = ls.find((l) => /^FAILED \S+ - .+/.test(l));
  return pytestShort ? pytestShort.replace(/^FAILED \S+ - /, "").trim() : null;
}

/** The first failing test's name: pytest (FAILED a::b, ___ b ___), unittest (FAIL: t (m.C)),
 *  jest/vitest (● Suite › t), go (--- FAIL: TestX), cargo (---- t stdout ----). */
export function failingTestName(text: string): string | null {
  const t = stripWrappers(text);
  const m =
    t.match(/^FAILED (\S+::\S+)(?: - .*)?$/m) ?? t.match(/^_{3,} (\S.*?) _{3,}$/m) ?? t.match(/^(?:FAIL|ERROR): (\w+ \([\w.]+\))/m) ??
    t.match(/^\s*● (.+)$/m) ?? t.match(/^\s*--- FAIL: (\S+)/m) ?? t.match(/^---- (\S+) stdout ----$/m);
  return m ? m[1]!.trim() : null;
}

/** Head and tail of long text within n characters, joined by " … " (a third for the head: errors
 *  sit at the end more often than at the start). Short text comes back whole (trimmed). */
export function headTail(text: string, n = 200): string {
  const t = stripWrappers(text).trim();
  if (t.length <= n) return t;
  const sep = " … ";
  const headLen = Math.floor((n - sep.length) / 3);
  const tailLen = n - sep.length - headLen;
  return `${t.slice(0, headLen).trimEnd()}${sep}${t.slice(t.length - tailLen).trimStart()}`;
}

/** Kinds whose message is a tool's own one-line refusal (Claude Code's wording): the first line says it. */
const FIRST_LINE_KINDS = new Set(["file_not_read", "edit_no_match", "file_too_large", "tool_denied", "command_timeout", "sibling_cascade", "user_rejected", "tool_not_found", "schema_mismatch"]);

/** The single most informative line of an error within n characters: a tool's own refusal by its
 *  first line; else the exception line of a traceback, the failing assertion, else the last
 *  non-blank line. */
export function errorExcerpt(text: string, n = 200, kind?: string): string {
  const ls = lines(text).filter((l) => l.trim());
  const first = kind && FIRST_LINE_KINDS.has(kind) ? ls.find((l) => !/^Exit code \d+$/.test(l.trim()))?.trim() : undefined;
  const best = first ?? exceptionLine(text) ?? failingAssertion(text) ?? ls.pop()?.trim() ?? "";
  return clip(best, n);
}
