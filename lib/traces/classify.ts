/**
 * error_kind classification: ONE ordered table of (kind, pattern) rows, first match wins.
 * Precedence matters and is explicit: the more specific signal comes first, e.g.
 * command_not_found before file_not_found ("bash: foo: command not found" vs a missing path),
 * syntax_error and failing_test before runtime_error (both carry tracebacks).
 */
import type { BehaviorDim, ErrorKind } from "./schema.js";

export const ERROR_KIND_PATTERNS: ReadonlyArray<readonly [ErrorKind, RegExp]> = [
  ["tool_not_found", /No such tool available|\bunknown tool\b|\btool\b[^\n]{0,60}\b(?:not found|does not exist|is not available)|Invalid tool name/i],
  ["schema_mismatch", /InputValidationError|required parameter [`'"]?\w+[`'"]? is missing|missing required (?:argument|parameter|property|field)|unexpected (?:keyword )?argument|Expected \w+, received \w+|is not of type|validation errors? for|invalid (?:type|value) for (?:parameter|argument|field)/i],
  ["json_decode", /JSONDecodeError|Unexpected token .{0,20} in JSON|is not valid JSON|Unexpected end of JSON input|Expecting (?:value|property name enclosed in double quotes|',' delimiter)|Unterminated string|invalid JSON/i],
  ["command_not_found", /command not found|is not recognized as an internal or external command|executable file not found|No such command|Unknown command/i],
  ["syntax_error", /SyntaxError|IndentationError|TabError|syntax error near unexpected token|\bsyntax error\b|ParseError/],
  ["failing_test", /^=+ (?:FAILURES|ERRORS) =+$|^FAILED |\b\d+ failed\b|AssertionError|Tests? failed|✕|expect\(.*\)\.to/m],
  ["lint_style", /\b(?:ruff|flake8|pylint|pycodestyle|black|isort|eslint|prettier|mypy|rubocop|golangci-lint)\b[^\n]*(?:error|fail|would reformat|found|\b[A-Z]{1,3}\d{2,4}\b)|would reformat|^\S+:\d+:\d+: [EFWC]\d{3} /im],
  ["file_not_found", /No such file or directory|FileNotFoundError|ENOENT|File does not exist|(?:file|path|directory) (?:not found|does not exist)|cannot find the (?:file|path)|cannot access '[^']*'/i],
  ["permission_denied", /Permission denied|PermissionError|EACCES|EPERM|Operation not permitted|Access is denied/i],
  ["connection_error", /Connection (?:refused|reset|timed out|aborted)|ECONNREFUSED|ECONNRESET|ETIMEDOUT|Could not resolve host|Temporary failure in name resolution|Network is unreachable|getaddrinfo|ConnectionError|Max retries exceeded/i],
  ["runtime_error", /Traceback \(most recent call last\)|\b[A-Z]\w*(?:Error|Exception): |^panic: |Exception in thread|Segmentation fault|core dumped|Uncaught \w+/m],
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
  repeated_failure: "effort",
  wasteful_action: "effort",
  verbose_communication: "communication",
};

/** Classifies raw error text by the ordered table; `tool_error` when no row matches. */
export function classifyError(message: string, patterns = ERROR_KIND_PATTERNS): ErrorKind {
  for (const [kind, re] of patterns) if (re.test(message)) return kind;
  return "tool_error";
}

/** The legacy string tag for errored tool results (used only when no structural flag exists). */
export const TOOL_ERROR_TAG = "[TOOL_RESULT (ERROR)]";

/** Tools whose calls do not change the workspace: repeating one with nothing changed in between
 *  is wasted effort. Anything else (edits, shell) counts as a change. */
export const READ_ONLY_TOOL = /^(?:read|read_?file|view|cat|ls|list_?dir|list_?files|glob|grep|search\w*|find_?\w*|open_?file|get_?\w*|fetch|web_?fetch|web_?search|todo_?read|notebook_?read)$/i;
