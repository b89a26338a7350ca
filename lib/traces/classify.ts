/**
 * error_kind classification: ONE ordered table of rows, first match wins. Precedence matters and is
 * explicit: Claude Code's own tool errors (a cascade from a failed parallel sibling, a user's
 * rejection, a permission refusal, an Edit before a Read) come first because their text may quote
 * anything; then the call itself (schema, JSON) unless the text is a traceback from the program the
 * call ran; then program outcomes, the more specific first (command_not_found before file_not_found,
 * syntax_error and failing_test before runtime_error: both carry tracebacks).
 *
 * Each kind has a hint template in lib/hints, or a deliberate decision (ERROR_KIND_HINTING) to leave
 * it to raw_error / the judge, or to hint nothing at all (a sibling cascade is not that call's fault).
 */
import type { BehaviorDim, ErrorKind } from "./schema.js";

export interface ErrorKindRow {
  kind: ErrorKind;
  pattern: RegExp;
  /** The row does not apply when this matches too (e.g. a program's traceback). */
  unless?: RegExp;
}

/** A Python traceback or frame: the text came from the program the tool ran, not the tool call. */
const PROGRAM_TRACEBACK = /Traceback \(most recent call last\)|^\s*File "[^"]+", line \d+/m;

export const ERROR_KIND_TABLE: readonly ErrorKindRow[] = [
  // Claude Code cancels the other calls of a parallel message when one fails.
  { kind: "sibling_cascade", pattern: /Sibling tool call errored|Cancelled: parallel tool call .{0,200}errored/i },
  { kind: "user_rejected", pattern: /The user doesn't want to (?:proceed with this tool use|take this action)|tool use was rejected|\bThe user rejected (?:this|the) (?:action|tool call)|\[Request interrupted by user(?: for tool use)?\]/i },
  { kind: "tool_denied", pattern: /Permission to use \w+ (?:with .{0,200})?has been denied|requested permissions? to (?:use|write to|read from|edit) .{0,200}but you haven't granted it|was blocked\. For security, Claude Code|(?:Pre|Post)ToolUse:\w+ hook (?:error|blocked)|blocked by (?:a )?hook/i },
  { kind: "tool_not_found", pattern: /No such tool available|\bunknown (?:tool|skill|slash command)\b|\b(?:tool|skill)\b[^\n]{0,60}\b(?:not found|does not exist|is not available)|Invalid tool name/i },
  { kind: "file_not_read", pattern: /File has not been read yet|File has been (?:unexpectedly )?modified since (?:it was )?read|Read it (?:again )?(?:first )?before (?:attempting to )?writ/i },
  { kind: "edit_no_match", pattern: /String to replace not found in file|apply_patch verification failed|Failed to find expected lines in|Found \d+ matches of the string to replace, but replace_all is false|No changes to make: old_string and new_string are exactly the same/i },
  { kind: "file_too_large", pattern: /File content \([\d,. ]+\w*\s*(?:tokens|KB|MB|bytes)?\) exceeds maximum allowed (?:tokens|size)|exceeds maximum allowed tokens/i },
  {
    kind: "schema_mismatch",
    pattern: /InputValidationError|required parameter [`'"]?\w+[`'"]? is missing|missing required (?:argument|parameter|property|field)|unexpected (?:keyword )?argument|Expected \w+, received \w+|is not of type|validation errors? for|invalid (?:type|value) for (?:parameter|argument|field)/i,
    unless: PROGRAM_TRACEBACK,
  },
  { kind: "json_decode", pattern: /JSONDecodeError|Unexpected token .{0,20} in JSON|is not valid JSON|Unexpected end of JSON input|Expecting (?:value|property name enclosed in double quotes|',' delimiter)|Unterminated string|invalid JSON/i, unless: PROGRAM_TRACEBACK },
  { kind: "command_timeout", pattern: /Command timed out after \d|timed out and has been killed|has no new output after \d+ seconds|timed out after \d+ ?(?:ms|s|seconds|minutes)\b|TimeoutExpired|Timeout: command exceeded/i },
  // A command ran but was called wrongly: its usage banner, an unknown option, a missing argument
  // (argparse, click, getopt, clap, git). Before command_not_found: click says "No such command" of
  // a subcommand.
  {
    kind: "usage_error",
    pattern: /^\s*usage: |\bError: No such (?:option|command)\b|\berror: unrecognized arguments?\b|\b(?:unknown|unrecognized|invalid|illegal) (?:option|flag|argument|subcommand)\b|Try '[^'\n]+ --help' for more information|error: the following arguments are required|error: unexpected argument|error: Found argument '[^'\n]*' which wasn't expected|\bis not a git command\b|No rule to make target/im,
    unless: PROGRAM_TRACEBACK,
  },
    { kind: "command_not_found", pattern: /command not found|is not recognized as an internal or external command|executable file not found|No such command|Unknown command/i },
  { kind: "syntax_error", pattern: /SyntaxError|IndentationError|TabError|syntax error near unexpected token|\bsyntax error\b|ParseError/ },
  {
    kind: "failing_test",
    // pytest, unittest, jest / vitest, go test, cargo test, mocha
    pattern: /^=+ (?:FAILURES|ERRORS) =+$|^FAILED |\b\d+ failed\b|AssertionError|Tests? failed|✕|×\s|expect\(.*\)\.to|^--- FAIL: |^FAIL\s|^test result: FAILED|^\s+\d+ failing$|^FAILED \(failures=\d+/m,
  },
  { kind: "lint_style", pattern: /\b(?:ruff|flake8|pylint|pycodestyle|black|isort|eslint|prettier|mypy|rubocop|golangci-lint)\b[^\n]*(?:error|fail|would reformat|found|\b[A-Z]{1,3}\d{2,4}\b)|would reformat|^\S+:\d+:\d+: [EFWC]\d{3} |^\s+\d+:\d+\s+(?:error|warning)\s+.+\s[\w/@-]+$|^✖ \d+ problems?|^[A-Z]{1,3}\d{3,4} (?:\[\*\] )?\S.*\n\s*--> \S+:\d+:\d+/im },
  // Version control refused or failed: git's "fatal:" / "error:" lines, a rejected push, a conflict.
  // Not when the cause is the network (connection_error below says so).
  {
    kind: "vcs_error",
    pattern: /^fatal: |^error: (?:pathspec|failed to push|src refspec|Your local changes|cannot lock ref|could not apply|The following untracked|Pulling is not possible|you need to resolve)|^\s*! \[(?:remote )?rejected\]|\(non-fast-forward\)|^CONFLICT \(|Automatic merge failed|Updates were rejected because/im,
    unless: /Could not resolve host|unable to access '|Connection (?:refused|reset|timed out)|Permission denied \(publickey/i,
  },
    { kind: "file_not_found", pattern: /No such file or directory|FileNotFoundError|ENOENT|File does not exist|(?:file|path|directory) (?:not found|does not exist)|\b(?:the )?path \S+ does not exist|cannot find the (?:file|path)|cannot access '[^']*'/i },
  { kind: "permission_denied", pattern: /Permission denied|PermissionError|EACCES|EPERM|Operation not permitted|Access is denied/i },
  { kind: "connection_error", pattern: /Connection (?:refused|reset|timed out|aborted)|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|Could not resolve host|Temporary failure in name resolution|Name or service not known|Network is unreachable|getaddrinfo|ConnectionError|Max retries exceeded|socket hang up|unable to access '[^']*': |Failed to connect to|SSL(?:Error|: CERTIFICATE_VERIFY_FAILED)|HTTP Error 5\d\d|\b50[234] (?:Bad Gateway|Service Unavailable|Gateway Time-?out)\b/i },
  { kind: "runtime_error", pattern: /Traceback \(most recent call last\)|\b[A-Z]\w*(?:Error|Exception): |^panic: |Exception in thread|Segmentation fault|core dumped|Uncaught \w+/m },
  // Last: a non-zero exit and nothing above said why (a bare "Exit code 1", a silent script).
  { kind: "nonzero_exit", pattern: /\b(?:exit(?:ed with)? (?:code|status)|return ?code|exited with code)\b[:=]? ?[1-9]\d*|<returncode>[1-9]\d*<\/returncode>|Process exited with code [1-9]|completed with exit code [1-9]/i },
];

/** Every error_kind routes to the behavior dimension the hint should correct. */
export const BEHAVIOR_DIM: Readonly<Record<ErrorKind, BehaviorDim>> = {
  tool_not_found: "tool_use",
  schema_mismatch: "tool_use",
  malformed_args: "tool_use",
  json_decode: "tool_use",
  command_not_found: "tool_use",
  syntax_error: "tool_use",
  // The seed's row for failing tests is cut off; a failing test is a correctness failure of the
  // agent's actions, corrected like other tool errors.
  failing_test: "tool_use",
  lint_style: "style",
  file_not_found: "tool_use",
  permission_denied: "tool_use",
  connection_error: "tool_use",
  runtime_error: "tool_use",
  tool_error: "tool_use",
  usage_error: "tool_use",
  vcs_error: "tool_use",
  nonzero_exit: "tool_use",
  file_not_read: "tool_use",
  edit_no_match: "tool_use",
  file_too_large: "tool_use",
  tool_denied: "tool_use",
  command_timeout: "tool_use",
  // Nothing to correct in the call itself; kept on tool_use so the site is still counted there.
  sibling_cascade: "tool_use",
  // The user declined: what follows should answer the user, not retry the tool.
  user_rejected: "communication",
  repeated_failure: "effort",
  wasteful_action: "effort",
  verbose_communication: "communication",
};

/**
 * How each kind is hinted: "template" (lib/hints has one), "raw_error" (the tool's own text names
 * the cause precisely: a missing path, a missing command), "judge" (no fixed correction: only a
 * reader of the situation can say), "none" (never hinted: not the call's fault).
 */
export const ERROR_KIND_HINTING: Readonly<Record<ErrorKind, "template" | "raw_error" | "judge" | "none">> = {
  tool_not_found: "template", schema_mismatch: "template", malformed_args: "template", json_decode: "template",
  failing_test: "template", lint_style: "template", runtime_error: "template", repeated_failure: "template",
  wasteful_action: "template", verbose_communication: "template", file_not_read: "template", edit_no_match: "template",
  file_too_large: "template", tool_denied: "template", command_timeout: "template",
  command_not_found: "raw_error", syntax_error: "raw_error", file_not_found: "raw_error", permission_denied: "raw_error",
  connection_error: "raw_error", tool_error: "raw_error",
  usage_error: "template", vcs_error: "template",
  // A bare exit code says nothing a template or the raw text could correct: only a reader of the
  // situation (the judge) can tell what went wrong.
  user_rejected: "judge", nonzero_exit: "judge",
  sibling_cascade: "none",
};

/** Kinds that say nothing happened: the tool refused before acting (no change to the workspace). */
export const REFUSED_KINDS: ReadonlySet<ErrorKind> = new Set<ErrorKind>([
  "sibling_cascade", "user_rejected", "tool_denied", "tool_not_found", "file_not_read", "edit_no_match", "file_too_large", "schema_mismatch", "malformed_args",
]);

/** Classifies raw error text by the ordered table; `tool_error` when no row matches. */
export function classifyError(message: string, table: readonly ErrorKindRow[] = ERROR_KIND_TABLE): ErrorKind {
  for (const row of table) if (row.pattern.test(message) && !row.unless?.test(message)) return row.kind;
  return "tool_error";
}

/** The legacy string tag for errored tool results (used only when no structural flag exists). */
export const TOOL_ERROR_TAG = "[TOOL_RESULT (ERROR)]";

/** Tools whose calls do not change the workspace: repeating one with nothing changed in between
 *  is wasted effort. Anything else (edits, shell) counts as a change. */
export const READ_ONLY_TOOL = /^(?:read|read_?file|view|cat|ls|list_?dir|list_?files|glob|grep|search\w*|find_?\w*|open_?file|get_?\w*|fetch|web_?fetch|web_?search|todo_?read|notebook_?read)$/i;
