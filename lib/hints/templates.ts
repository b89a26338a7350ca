/**
 * Layer (a): hard-coded templates by error_kind (the seed's §3, strings verbatim). A registry:
 * register(kind, template) / dispatch(kind, ctx). A template names the slots it requires; when
 * one is missing it declines (null) rather than emit a literal "{tool_list}".
 */
import { ERROR_KIND_HINTING, errorExcerpt, headTail, type ErrorKind } from "../traces/index.js";
import type { ErrorContext } from "./context.js";
import type { HintGenerator } from "./protocol.js";

export interface HintTemplate {
  text: string;
  /** Slots that must be present (others render as empty). Derived from `text` when omitted. */
  required?: string[];
}

const clip = (s: string, n = 200): string => (s.length > n ? s.slice(0, n - 1) + "…" : s);

/** Slot values from a context; excerpts are cut to 200 characters. */
export function slotValues(ctx: ErrorContext): Record<string, string | undefined> {
  return {
    tool_list: ctx.available_tools?.length ? ctx.available_tools.join(", ") : undefined,
    tool_name: ctx.tool_name ?? undefined,
    tool_schema: ctx.tool_schema ? clip(JSON.stringify(ctx.tool_schema)) : undefined,
    bad_fields: ctx.bad_fields,
    test_name: ctx.test_name,
    assertion_excerpt: ctx.assertion_excerpt ? clip(ctx.assertion_excerpt) : undefined,
    linter: ctx.linter,
    rule_id: ctx.rule_id,
    rule_msg: ctx.rule_msg ? clip(ctx.rule_msg) : undefined,
    prior_action: ctx.prior_action ? clip(ctx.prior_action) : undefined,
    n: ctx.n !== undefined ? String(ctx.n) : ctx.repeat_count !== undefined ? String(ctx.repeat_count) : undefined,
    // The most telling line: a traceback's exception line wherever it sits (Claude Code puts stderr
    // before stdout), the failing assertion, a tool's own refusal; wrapper tags go.
    error_excerpt: ctx.error_message ? errorExcerpt(ctx.error_message, 200, ctx.error_kind) || undefined : undefined,
  };
}

/** Every slot a template may name (the keys slotValues fills; an empty context leaves each undefined). */
export const SLOT_NAMES: readonly string[] = Object.keys(slotValues({} as ErrorContext));

export const slotsOf = (text: string): string[] => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!))];

/** Fills a template, or returns null when a required slot has no value. */
export function renderTemplate(t: HintTemplate, ctx: ErrorContext): string | null {
  const values = slotValues(ctx);
  const required = t.required ?? slotsOf(t.text);
  if (required.some((s) => !values[s])) return null;
  return t.text.replace(/\{(\w+)\}/g, (_, s: string) => values[s] ?? "");
}

// §3, verbatim.
const TOOL_NOT_FOUND = "Reminder: Available tools are: {tool_list}. The tool you called does not exist — use one of these.";
const MALFORMED_ARGS = "Reminder: tool arguments must be a single valid JSON object. Common mistakes: single quotes (use double quotes), trailing commas, unescaped newlines inside strings, or wrapping the JSON in markdown fences.";
const SCHEMA_MISMATCH = "Reminder: `{tool_name}` expects arguments matching this schema:\n {tool_schema}\nYour call is missing/mistyped: {bad_fields}. Re-issue with arguments matching the schema.";
const FAILING_TEST = "Reminder: the test `{test_name}` is still failing: {assertion_excerpt}. Re-read the failing test's expectations and adjust the implementation to satisfy them — do not modify the test.";
const LINT_STYLE = "Reminder: this change violates the project style ({linter}: {rule_id} — {rule_msg}). Match the surrounding code's conventions (imports, naming, formatting) before proceeding.";
const WASTEFUL_ACTION = "Reminder: this step repeated work already done (you already {prior_action}). Skip redundant reads/searches and act on what you know; prefer the most direct path to the goal.";
const REPEATED_FAILURE = "Reminder: this approach has failed {n} times. Step back and try a different strategy: read more of the surrounding code, search for an existing working example, or decompose the task differently.";
const VERBOSE_COMMUNICATION = "Reminder: keep the response concise and focused on the user's request. State what you did and why in 1–2 sentences; omit restating the task and step-by-step narration.";
// Claude Code's own tool errors (not in the seed; the lab's wording).
const FILE_NOT_READ = "Reminder: {tool_name} refused the change because the file was not read first (or changed since it was read). Read the file, then redo the edit against its current content.";
const EDIT_NO_MATCH = "Reminder: {tool_name}'s old_string must match the file exactly once ({error_excerpt}). Re-read the lines you are changing and copy them verbatim, whitespace and indentation included, with enough context to be unique.";
const FILE_TOO_LARGE = "Reminder: the file is too large to read whole ({error_excerpt}). Read it in parts with offset and limit, or search for the part you need.";
const TOOL_DENIED = "Reminder: {tool_name} was not permitted here ({error_excerpt}). Do not retry the same call; use an allowed tool or stay within the permitted scope, or ask the user.";
const COMMAND_TIMEOUT = "Reminder: the command ran past the tool's time limit ({error_excerpt}). Run a narrower command (one test file, a smaller input) or run long jobs in the background and check on them.";
const USAGE_ERROR = "Reminder: the command was called with options or arguments it does not take ({error_excerpt}). Read its usage (`--help`) and re-issue the command with the arguments it documents.";
const VCS_ERROR = "Reminder: version control refused the operation ({error_excerpt}). Check the repository's state first (`git status`, the branch, the exact path) and fix that before retrying; never force past a rejection.";
// The base registry's runtime_error template (not spelled out in the seed).
const RUNTIME_ERROR = "Reminder: the last command raised an exception: {error_excerpt}. Read the innermost frame of the traceback that points into the project's code and fix that cause before re-running.";

/** The registry shipped with the lab: the five base kinds plus the §3 strings. */
export function defaultTemplates(): Map<string, HintTemplate> {
  return new Map<string, HintTemplate>([
    ["tool_not_found", { text: TOOL_NOT_FOUND }],
    ["json_decode", { text: MALFORMED_ARGS }],
    ["malformed_args", { text: MALFORMED_ARGS }],
    // The schema slot is optional in practice (traces rarely carry schemas): require the tool name
    // and the fields we could read from the error.
    ["type_error", { text: SCHEMA_MISMATCH, required: ["tool_name", "tool_schema", "bad_fields"] }],
    ["schema_mismatch", { text: SCHEMA_MISMATCH, required: ["tool_name", "tool_schema", "bad_fields"] }],
    ["runtime_error", { text: RUNTIME_ERROR }],
    ["failing_test", { text: FAILING_TEST }],
    ["lint_style", { text: LINT_STYLE }],
    ["wasteful_action", { text: WASTEFUL_ACTION }],
    ["repeated_failure", { text: REPEATED_FAILURE }],
    ["verbose_communication", { text: VERBOSE_COMMUNICATION }],
    ["file_not_read", { text: FILE_NOT_READ }],
    ["edit_no_match", { text: EDIT_NO_MATCH }],
    ["file_too_large", { text: FILE_TOO_LARGE }],
    ["tool_denied", { text: TOOL_DENIED }],
    ["command_timeout", { text: COMMAND_TIMEOUT }],
    ["usage_error", { text: USAGE_ERROR }],
    ["vcs_error", { text: VCS_ERROR }],
    // Deliberately none (lib/traces' ERROR_KIND_HINTING): sibling_cascade (not that call's fault),
    // user_rejected and nonzero_exit (for the judge); command_not_found, file_not_found, syntax_error,
    // permission_denied, connection_error, tool_error go to raw_error (their text names the cause).
  ]);
}

export class TemplateRegistry {
  readonly templates: Map<string, HintTemplate>;
  constructor(templates: Map<string, HintTemplate> = defaultTemplates()) {
    this.templates = templates;
  }
  /** Adds or replaces the template for an error_kind; a slot no context provides (a typo) throws here. */
  register(kind: string, template: HintTemplate | string): this {
    const t = typeof template === "string" ? { text: template } : template;
    const unknown = [...new Set([...slotsOf(t.text), ...(t.required ?? [])])].filter((s) => !SLOT_NAMES.includes(s));
    if (unknown.length) {
      throw new Error(`template for "${kind}": unknown slot${unknown.length > 1 ? "s" : ""} ${unknown.map((s) => `{${s}}`).join(", ")}; available slots: ${SLOT_NAMES.map((s) => `{${s}}`).join(", ")}`);
    }
    this.templates.set(kind, t);
    return this;
  }
  /** The hint for this kind, or null (unknown kind, or a required slot missing). */
  dispatch(kind: string, ctx: ErrorContext): string | null {
    const t = this.templates.get(kind);
    return t ? renderTemplate(t, ctx) : null;
  }
}

export class TemplateHintGenerator implements HintGenerator {
  readonly layer = "template" as const;
  constructor(readonly registry = new TemplateRegistry()) {}
  generate(ctx: ErrorContext): string | null {
    return this.registry.dispatch(ctx.error_kind, ctx);
  }
}

/** Layer (b): the environment's own error text as the hint (SDPO's "environment output"): its head
 *  and tail (errors sit at the end of long output, banners at the start). Not for a sibling cascade
 *  (not the call's fault) or a user's rejection (nothing to fix: for the judge). */
export class RawErrorHintGenerator implements HintGenerator {
  readonly layer = "raw_error" as const;
  generate(ctx: ErrorContext): string | null {
    const msg = (ctx.error_message ?? "").trim();
    const hinting = ERROR_KIND_HINTING[ctx.error_kind as ErrorKind] as string | undefined;
    if (!msg || ctx.clean || hinting === "none" || hinting === "judge") return null;
    return `Reminder: the previous action returned this error:\n${headTail(msg, 200)}\nFix the cause and retry.`;
  }
}
