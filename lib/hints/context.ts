/** ErrorContext: everything a hint source might need (the seed's §6.1), built from error sites. */
import { z } from "zod";
import { BehaviorDim, assistantBody, failingAssertion, failingTestName, type ErrorSite, type Session } from "../traces/index.js";

export const SiblingRollout = z.object({
  reward: z.number(),
  /** What the passing sibling did (its diff or final answer); cut to 200 chars in the hint. */
  solution_excerpt: z.string().default(""),
});
export type SiblingRollout = z.infer<typeof SiblingRollout>;

export const ErrorContext = z.object({
  /** Routing key from lib/traces' classifier ("none" for a clean turn sampled for the judge). */
  error_kind: z.string(),
  behavior_dim: BehaviorDim,
  error_message: z.string().optional(),
  available_tools: z.array(z.string()).optional(),
  tool_name: z.string().nullable().optional(),
  tool_schema: z.record(z.unknown()).optional(),
  state_excerpt: z.string().optional(),
  erroring_action: z.string().optional(),
  sibling_rollouts: z.array(SiblingRollout).optional(),
  repeat_count: z.number().int().optional(),
  // Optional template slots (§3 notes)
  bad_fields: z.string().optional(),
  test_name: z.string().optional(),
  assertion_excerpt: z.string().optional(),
  linter: z.string().optional(),
  rule_id: z.string().optional(),
  rule_msg: z.string().optional(),
  prior_action: z.string().optional(),
  n: z.number().int().optional(),
  /** A clean turn (no error) offered to the judge for style / communication / effort. */
  clean: z.boolean().optional(),
  /** Where it came from (for sampling and reports). */
  session_id: z.string().optional(),
  turn_index: z.number().int().optional(),
  /** The recovery turn's text (what the teacher should make more likely), for shift evaluation. */
  recovery: z.string().optional(),
});
export type ErrorContext = z.infer<typeof ErrorContext>;

const clip = (s: string, n = 200): string => (s.length > n ? s.slice(0, n - 1) + "…" : s);

/** Slots the templates need, pulled from the raw error text where they are there to find. */
export function extractSlots(kind: string, message: string, action = ""): Partial<ErrorContext> {
  const slots: Partial<ErrorContext> = {};
  if (kind === "failing_test") {
    // pytest, unittest, jest / vitest, go test, cargo test: the first failing test and its assertion
    const name = failingTestName(message);
    if (name) slots.test_name = name;
    const assertion = failingAssertion(message);
    if (assertion) slots.assertion_excerpt = clip(assertion);
  } else if (kind === "lint_style") {
    // flake8 / ruff concise ("path:1:2: F401 msg"), ruff full ("F401 [*] msg\n --> path:1:2"),
    // eslint stylish ("  3:7  error  msg  rule-id")
    const eslint = message.match(/^\s+\d+:\d+\s+(?:error|warning)\s+(.+?)\s{2,}([\w/@-]+)$/m);
    const flake: [string, string, string] | null = eslint
      ? [eslint[0], eslint[2]!, eslint[1]!]
      : ((message.match(/^\S+:\d+:\d+: ([A-Z]{1,3}\d{2,4}) (.+)$/m) ?? message.match(/^([A-Z]{1,3}\d{3,4}) (?:\[\*\] )?(.+)\n\s*--> /m)) as [string, string, string] | null);
    // The linter is named in its output or in the command that ran it.
    const linter = `${action}\n${message}`.match(/\b(ruff|flake8|pylint|pycodestyle|black|isort|eslint|prettier|mypy|rubocop|golangci-lint)\b/i);
    if (flake) {
      slots.rule_id = flake[1];
      slots.rule_msg = clip(flake[2]!.trim(), 120);
    } else if (/would reformat/.test(message)) {
      slots.rule_id = "format";
      slots.rule_msg = "file would be reformatted";
    }
    if (linter) slots.linter = linter[1]!.toLowerCase();
    else if (flake) slots.linter = /^[EWFC]\d{3}$/.test(flake[1]!) ? "flake8" : "linter";
  } else if (kind === "schema_mismatch" || kind === "type_error") {
    const fields = [...message.matchAll(/(?:parameter|argument|property|field) [`'"]?(\w+)[`'"]?/gi)].map((m) => m[1]!);
    if (fields.length) slots.bad_fields = [...new Set(fields)].join(", ");
  } else if (kind === "wasteful_action") {
    const m = message.match(/^repeats turn \d+: (.*)$/s);
    if (m) slots.prior_action = `ran ${clip(m[1]!, 120)}`;
  }
  return slots;
}

/** An ErrorContext for one error site (session: for the recovery turn's text). */
export function contextFromSite(site: ErrorSite, session?: Session, extra: Partial<ErrorContext> = {}): ErrorContext {
  const recovery = session?.turns[site.turn_index];
  return ErrorContext.parse({
    error_kind: site.error_kind,
    behavior_dim: site.behavior_dim,
    error_message: site.error_message,
    available_tools: site.available_tools,
    tool_name: site.tool_name,
    state_excerpt: site.state_excerpt,
    erroring_action: site.erroring_action,
    repeat_count: site.repeat_count,
    n: site.repeat_count,
    session_id: site.session_id,
    turn_index: site.turn_index,
    recovery: recovery ? assistantBody(recovery) || undefined : undefined,
    ...extractSlots(site.error_kind, site.error_message, site.erroring_action),
    ...extra,
  });
}

/**
 * Clean assistant turns (no error site) flagged for the judge by cheap signals: a long message
 * (communication), a turn that only reads (effort), a turn that edits code (style).
 */
export function cleanTurnContexts(session: Session, sites: ErrorSite[], opts: { longMessageChars?: number } = {}): ErrorContext[] {
  const atSite = new Set(sites.map((s) => s.turn_index));
  const out: ErrorContext[] = [];
  session.turns.forEach((t, i) => {
    if (t.role !== "assistant" || atSite.has(t.index)) return;
    const edits = t.toolCalls.some((c) => /^(edit|write|multi_?edit|write_file|str_replace\w*|apply_patch)$/i.test(c.name));
    const dim = t.text.length > (opts.longMessageChars ?? 600) ? "communication" : edits ? "style" : t.toolCalls.length >= 3 ? "effort" : null;
    if (!dim) return;
    const prev = session.turns.slice(Math.max(0, i - 3), i).map((p) => `${p.role}: ${clip(p.text || p.toolResults.map((r) => r.content).join("\n"), 400)}`).join("\n\n");
    out.push(ErrorContext.parse({
      error_kind: "none", behavior_dim: dim, clean: true, session_id: session.id, turn_index: t.index, state_excerpt: prev,
      erroring_action: [t.text, ...t.toolCalls.map((c) => `${c.name}(${JSON.stringify(c.input)})`)].filter(Boolean).join("\n").slice(0, 1000),
    }));
  });
  return out;
}
