/**
 * Error detection from a tool result's text, for sources whose results carry no structural flag
 * (chat-format datasets often have none: the tool's output says "Error: …" or shows a linter's
 * syntax error). Used only where a result has neither an is_error flag nor the legacy tag.
 * Configurable per source: rules by format, overridden by the first source whose `match` is part
 * of the file's path (rules: null turns text detection off for that source).
 */
import { z } from "zod";
import { TraceFormat } from "./schema.js";
import type { ToolResult } from "./schema.js";

export const TextErrorRule = z.object({
  /** A regular expression (JavaScript syntax) tested against the whole result text. */
  pattern: z.string().min(1),
  flags: z.string().regex(/^[imsu]*$/, "flags: only i, m, s, u").default(""),
  /** Only for tools whose name matches this regular expression (case-insensitive). */
  tool: z.string().optional(),
});
export type TextErrorRule = z.infer<typeof TextErrorRule>;

/** Wording common tools and agent scaffolds use when a call failed. Anchored at the start of the
 *  text (or of a line, for tracebacks and linter lines) so a file that merely contains "Error:" is
 *  not taken for a failed call. */
export const DEFAULT_TEXT_ERROR_RULES: TextErrorRule[] = [
  // "Error: …", "ERROR: …", "error[E0425]: …", "fatal: …" as the result's first words
  { pattern: String.raw`^\s*(?:error|fatal|exception)(?:\s*\[[^\]\n]*\])?:\s`, flags: "i" },
  { pattern: String.raw`^Traceback \(most recent call last\):$`, flags: "m" },
  // a linter's or compiler's syntax error (flake8 E999, ruff, python -m py_compile)
  { pattern: String.raw`^\S+:\d+:\d+: (?:E999 |error: )?(?:SyntaxError|IndentationError|invalid syntax)|^(?:SyntaxError|IndentationError): |^error: Failed to parse`, flags: "m" },
  { pattern: String.raw`^(?:/bin/)?(?:ba|z)?sh: (?:line \d+: )?\S+: (?:command not found|No such file or directory|Permission denied)`, flags: "m" },
  // exit status as scaffolds report it (OpenHands, SWE-agent style, Claude Code)
  { pattern: String.raw`\[Command finished with exit code [1-9]\d*\]|^Exit code [1-9]\d*$|exited with (?:exit )?code [1-9]\d*`, flags: "m" },
  // a test run that failed
  { pattern: String.raw`^=+ .*\b\d+ failed\b.* =+$|^FAILED \S+::|^--- FAIL: |^test result: FAILED`, flags: "m" },
];

/** SWE-agent's observations carry no exit code; its own commands say what went wrong in words. */
export const SWE_AGENT_TEXT_ERROR_RULES: TextErrorRule[] = [
  ...DEFAULT_TEXT_ERROR_RULES,
  { pattern: String.raw`^(?:Usage|usage): `, flags: "m" },
  { pattern: String.raw`^fatal: |^error: `, flags: "m" },
  { pattern: String.raw`^[\w./-]+: (?:cannot (?:access|open|stat) )?'?[^
]*'?: No such file or directory$|^File [^
]+ not found$|^No file open\. Use the`, flags: "m" },
  { pattern: String.raw`Your proposed edit has introduced new syntax error|Your edit was not applied|No replacement was performed`, flags: "" },
];

/** Text rules by format, when a config names none for a format. Claude Code flags every failed call
 *  itself; Codex, OpenHands and mini-swe-agent write exit codes (their structural flag), and the
 *  rules catch only what those leave out. */
export const DEFAULT_FORMAT_RULES: Record<TraceFormat, TextErrorRule[] | null> = {
  claude: null,
  chat: DEFAULT_TEXT_ERROR_RULES,
  codex: DEFAULT_TEXT_ERROR_RULES,
  openhands: DEFAULT_TEXT_ERROR_RULES,
  "swe-agent": SWE_AGENT_TEXT_ERROR_RULES,
  "mini-swe-agent": DEFAULT_TEXT_ERROR_RULES,
};

export const TextErrorConfig = z.object({
  /** Rules by format (merged over DEFAULT_FORMAT_RULES); null = no text detection for that format. */
  formats: z.record(TraceFormat, z.array(TextErrorRule).nullable()).default({}),
  /** Per-source overrides, first match wins. */
  sources: z.array(z.object({ match: z.string().min(1), rules: z.array(TextErrorRule).nullable() })).default([]),
});
export type TextErrorConfig = z.input<typeof TextErrorConfig>;

interface Compiled {
  re: RegExp;
  tool: RegExp | null;
}
export type TextErrorMatcher = (content: string, toolName: string | undefined) => boolean;

const compile = (rules: TextErrorRule[]): Compiled[] =>
  rules.map((r, i) => {
    try {
      return { re: new RegExp(r.pattern, r.flags), tool: r.tool ? new RegExp(r.tool, "i") : null };
    } catch (e) {
      throw new Error(`text error rule ${i}: ${(e as Error).message}`);
    }
  });

interface Prepared {
  formats: Partial<Record<TraceFormat, Compiled[] | null>>;
  sources: { match: string; rules: Compiled[] | null }[];
}

/** Each config is parsed and its patterns compiled once, not per file (a corpus has thousands). */
const prepared = new WeakMap<TextErrorConfig, Prepared>();
const NO_CONFIG: TextErrorConfig = {};

function prepare(config: TextErrorConfig): Prepared {
  let p = prepared.get(config);
  if (!p) {
    const c = TextErrorConfig.parse(config);
    const rulesOf = (rules: TextErrorRule[] | null | undefined) => (rules?.length ? compile(rules) : null);
    p = {
      formats: Object.fromEntries(Object.entries({ ...DEFAULT_FORMAT_RULES, ...c.formats }).map(([f, rules]) => [f, rulesOf(rules)])),
      sources: c.sources.map((s) => ({ match: s.match, rules: rulesOf(s.rules) })),
    };
    prepared.set(config, p);
  }
  return p;
}

/** The matcher for one file of one format (null when that source has no text rules). */
export function textErrorMatcher(file: string, format: TraceFormat, config: TextErrorConfig = NO_CONFIG): TextErrorMatcher | null {
  const p = prepare(config);
  const source = p.sources.find((s) => file.includes(s.match));
  const compiled = source ? source.rules : (p.formats[format] ?? null);
  if (!compiled) return null;
  return (content, toolName) => compiled.some((r) => (!r.tool || (toolName !== undefined && r.tool.test(toolName))) && r.re.test(content));
}

/** Whether a result errored: its structural flag when it has one, else the tag or a text rule. */
export const resultErrored = (r: ToolResult): boolean => r.isError ?? (r.errorTag || r.errorText === true);
