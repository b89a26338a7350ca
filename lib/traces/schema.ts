/** The shapes traces take once ingested: the schema is the type (z.infer), at every boundary. */
import { z } from "zod";

/** Every agent log format the lab reads: one reader each in formats.ts's registry. */
export const TraceFormat = z.enum(["claude", "chat", "codex", "openhands", "swe-agent", "mini-swe-agent"]);
export type TraceFormat = z.infer<typeof TraceFormat>;

export const BehaviorDim = z.enum(["tool_use", "style", "communication", "effort"]);
export type BehaviorDim = z.infer<typeof BehaviorDim>;

export const ErrorKind = z.enum([
  "tool_not_found", "schema_mismatch", "malformed_args", "json_decode", "command_not_found", "syntax_error",
  "failing_test", "lint_style", "file_not_found", "permission_denied", "connection_error", "runtime_error",
  "tool_error", "repeated_failure", "wasteful_action", "verbose_communication",
  // Claude Code's own tool errors and what real agents hit around them (see classify.ts)
  "file_not_read", "edit_no_match", "file_too_large", "tool_denied", "command_timeout", "sibling_cascade", "user_rejected",
  // what real sessions of every agent hit besides: a command's usage error, a version-control failure,
  // a non-zero exit with nothing else said
  "usage_error", "vcs_error", "nonzero_exit",
]);
export type ErrorKind = z.infer<typeof ErrorKind>;

/** Which part of the session a turn belongs to: the main thread, a subagent's sidechain, or an
 *  abandoned branch (a record not on the path to the session's last record). */
export const Chain = z.enum(["main", "sidechain", "branch"]);
export type Chain = z.infer<typeof Chain>;

export const ToolCall = z.object({
  id: z.string(),
  name: z.string(),
  /** Parsed arguments; null when they did not parse (see `argsError`). */
  input: z.unknown(),
  /** The arguments as the model wrote them, when they came as text (chat format). */
  rawArgs: z.string().optional(),
  argsError: z.string().optional(),
});
export type ToolCall = z.infer<typeof ToolCall>;

export const ToolResult = z.object({
  toolUseId: z.string(),
  content: z.string(),
  /** The structural flag (is_error) — the source of truth; null when the record carries none. */
  isError: z.boolean().nullable(),
  /** True when the result carries the legacy "[TOOL_RESULT (ERROR)]" tag (fallback only). */
  errorTag: z.boolean(),
  /** True when the result's text matched a text error rule of its source (chat format; see
   *  TextErrorRules): used only when there is no structural flag. */
  errorText: z.boolean().optional(),
  /** 1-based line of the record holding the result. */
  line: z.number().int().optional(),
});
export type ToolResult = z.infer<typeof ToolResult>;

export const Turn = z.object({
  index: z.number().int(),
  role: z.enum(["user", "assistant", "system", "summary"]),
  chain: Chain,
  /** uuid(s) of the source records (several assistant records with one message.id merge). */
  uuids: z.array(z.string()),
  parentUuid: z.string().nullable(),
  messageId: z.string().nullable(),
  text: z.string(),
  thinking: z.string().nullable(),
  toolCalls: z.array(ToolCall),
  toolResults: z.array(ToolResult),
  timestamp: z.string().nullable(),
  /** 1-based line of the first source record. */
  line: z.number().int(),
  /** The subagent whose transcript this turn belongs to (null or absent: the session's own agent). */
  agentId: z.string().nullable().optional(),
  /** Tokens this model call used, where the format records them. */
  usage: z.object({ input_tokens: z.number(), output_tokens: z.number() }).partial().nullable().optional(),
});
export type Turn = z.infer<typeof Turn>;

/** What a subagent transcript is: a Task/Agent call's worker, Claude Code's compaction agent, or a
 *  warm-up sidechain (no parent call: the client priming its cache). */
export const SubagentKind = z.enum(["task", "compaction", "warmup"]);
export type SubagentKind = z.infer<typeof SubagentKind>;

/** How a subagent transcript was tied to the call that spawned it. */
export const SubagentLinkedBy = z.enum(["result_agent_id", "progress_parent", "prompt"]);

/** One subagent transcript folded into its parent session (its turns carry `agentId`). */
export const SubagentLink = z.object({
  agentId: z.string(),
  /** The transcript's file, or the parent's file when it came as agent_progress records in it. */
  file: z.string(),
  layout: z.enum(["subagents_dir", "sibling_file", "progress_records"]),
  kind: SubagentKind,
  /** The tool call (Task / Agent) that spawned it; null when none was found (see linkedBy). */
  parentCallId: z.string().nullable(),
  /** The assistant turn holding that call. */
  parentTurnIndex: z.number().int().nullable(),
  linkedBy: SubagentLinkedBy.nullable(),
  turns: z.number().int(),
});
export type SubagentLink = z.infer<typeof SubagentLink>;

/** Whole-session figures where the format records them (tokens, cost, the agent's exit status). */
export const SessionStats = z.object({
  model: z.string(), input_tokens: z.number(), output_tokens: z.number(), cost_usd: z.number(), exit_status: z.string(),
  /** Other session ids the file holds (a resumed Codex rollout). */
  other_ids: z.array(z.string()),
}).partial();
export type SessionStats = z.infer<typeof SessionStats>;

export const Session = z.object({
  id: z.string(),
  file: z.string(),
  format: TraceFormat,
  /** Line of the trajectory within a chat-format file (1 for Claude Code: one file, one session). */
  line: z.number().int(),
  turns: z.array(Turn),
  availableTools: z.array(z.string()),
  /** Subagent transcripts folded into this session (Claude Code), each tied to its parent call. */
  subagents: z.array(SubagentLink).optional(),
  stats: SessionStats.optional(),
});
export type Session = z.infer<typeof Session>;

/** A line or record that could not be ingested as it was: counted and reported, never fatal. */
export const IngestIssue = z.object({
  file: z.string(),
  line: z.number().int(),
  reason: z.string(),
});
export type IngestIssue = z.infer<typeof IngestIssue>;

/** Everything the hint layers need at one error site. */
export const ErrorSite = z.object({
  session_id: z.string(),
  file: z.string(),
  /** Source line of the record holding the error. */
  line: z.number().int(),
  chain: Chain,
  /** The assistant turn right after the error: the one that carries tool_error = error_kind. */
  turn_index: z.number().int(),
  error_kind: ErrorKind,
  behavior_dim: BehaviorDim,
  error_message: z.string(),
  tool_name: z.string().nullable(),
  available_tools: z.array(z.string()),
  erroring_action: z.string(),
  state_excerpt: z.string(),
  /** Position of this error in a run of same-kind errors (1 = first); n for repeated_failure. */
  repeat_count: z.number().int(),
  source_excerpt: z.string().max(200),
  /** Whether the recovery turn has content (the collator skips sites without one). */
  has_recovery: z.boolean(),
  /** The turn holding the errored result (or, for wasteful_action, the repeated call). */
  error_turn_index: z.number().int().optional(),
  /** Inside a subagent: its id and the parent session's tool call that spawned it. */
  agent_id: z.string().nullable().optional(),
  parent_call_id: z.string().nullable().optional(),
});
export type ErrorSite = z.infer<typeof ErrorSite>;

/** One node per assistant turn, as the trainer consumes it (the seed's TraceState node). */
export const TraceExample = z.object({
  session_id: z.string(),
  turn_index: z.number().int(),
  chain: Chain,
  text: z.string(),
  thinking: z.string().nullable(),
  tool_calls: z.array(ToolCall),
  /** error_kind when the previous tool result errored, else null. */
  tool_error: ErrorKind.nullable(),
  behavior_dim: BehaviorDim.nullable(),
});
export type TraceExample = z.infer<typeof TraceExample>;
