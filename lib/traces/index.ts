/**
 * lib/traces: ingest real agent traces (Claude Code with its subagents, Codex CLI, OpenHands, SWE-agent,
 * mini-swe-agent, chat-format trajectories), find error
 * sites and classify them (error_kind → behavior_dim).
 */
export { TraceFormat, BehaviorDim, ErrorKind, Chain, ToolCall, ToolResult, Turn, Session, SessionStats, SubagentLink, SubagentKind, IngestIssue, ErrorSite, TraceExample } from "./schema.js";
export { ERROR_KIND_TABLE, ERROR_KIND_HINTING, REFUSED_KINDS, BEHAVIOR_DIM, classifyError, TOOL_ERROR_TAG, READ_ONLY_TOOL, type ErrorKindRow } from "./classify.js";
export { TextErrorRule, TextErrorConfig, DEFAULT_TEXT_ERROR_RULES, DEFAULT_FORMAT_RULES, SWE_AGENT_TEXT_ERROR_RULES, textErrorMatcher, resultErrored, type TextErrorMatcher } from "./text-errors.js";
export { exceptionLine, failingAssertion, failingTestName, errorExcerpt, headTail, stripWrappers } from "./excerpt.js";
export { readClaudeSession, type ReadOptions } from "./claude.js";
export { readChatSessions } from "./chat.js";
export { findErrorSites, siteTurns, traceExamples, stateExcerpt, availableTools, actionSignature, assistantBody, renderTurn, type SiteOptions } from "./sites.js";
export { ingest, ingestSources, collect, summarize, summarizeSources, countSession, listTraceFiles } from "./ingest.js";
export { FORMATS, planSources, readSource, detectFormat, type FormatEntry, type TraceSource } from "./formats.js";
export { readCodexRollout } from "./codex.js";
export { readOpenHandsEvents } from "./openhands.js";
export { readSweAgentTrajectory, readMiniSweAgentTrajectory } from "./swe.js";
export { readClaudeGroup } from "./subagents.js";
export { mergeSummary, emptySummary, type IngestOptions, type IngestedSession, type TraceSummary, type FormatOption } from "./types.js";
export { readLines, readRecords, parseRecord } from "./lines.js";
