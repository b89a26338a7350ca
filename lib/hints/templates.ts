/**
 * Layer (a): hard-coded templates by error_kind (the seed's §3, strings verbatim). A registry:
 * register(kind, template) / dispatch(kind, ctx). A template names the slots it requires; when
 * one is missing it declines (null) rather than emit a literal "{tool_list}".
 */
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
  // The most telling line of an error is its last (a traceback's exception); wrapper tags go.
  const lastLine = (s?: string) =>
    s?.replace(/\[TOOL_RESULT \(ERROR\)\]\s*/g, "").replace(/<\/?tool_use_error>/g, "").trim().split("\n").filter((l) => l.trim()).pop()?.trim();
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
    error_excerpt: ctx.error_message ? clip(lastLine(ctx.error_message) ?? "") : undefined,
  };
}

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
  ]);
}

export class TemplateRegistry {
  readonly templates: Map<string, HintTemplate>;
  constructor(templates: Map<string, HintTemplate> = defaultTemplates()) {
    this.templates = templates;
  }
  /** Adds or replaces the template for an error_kind. */
  register(kind: string, template: HintTemplate | string): this {
    this.templates.set(kind, typeof template === "string" ? { text: template } : template);
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

/** Layer (b): the environment's own error text as the hint (SDPO's "environment output"). */
export class RawErrorHintGenerator implements HintGenerator {
  readonly layer = "raw_error" as const;
  generate(ctx: ErrorContext): string | null {
    const msg = (ctx.error_message ?? "").trim();
    if (!msg || ctx.clean) return null;
    return `Reminder: the previous action returned this error:\n${msg.slice(0, 200)}\nFix the cause and retry.`;
  }
}
