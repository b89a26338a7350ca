/**
 * lib/outer: the OUTER loop (systems-framing.md). Policies behind any OpenAI-compatible endpoint
 * (ModelClient), the divergence-gated multi-model TreeController over FeatureDeletionEpisode episodes,
 * routing of every tree into the store's six prefixes, teacher replay over frozen traces, and one
 * resumable round (runOuter) that also writes its rollouts back as chat-format traces.
 */
export { ModelClient, ModelEndpoint, ChatMessage, ChatToolCall, parseModelList, type Completion, type ModelStats, type ToolDefinition } from "./models.js";
export { ENV_TOOLS, mapAnswer, actionKey, actionText, actionCall, type AnswerKind, type MappedAnswer } from "./actions.js";
export { TreeController, Budget, parseBudget, nodeId, initialMessages, compactView, treeStats, type Tree, type TreeNode, type Proposal, type TreeControllerOptions } from "./tree.js";
export { DedupWriter, routeTree, routeHoldout, renderState, stepTransitions, emptyCounts, type PrefixCounts, type RouteOptions } from "./routing.js";
export { GATES, GateKind, GateConfig, binaryEntropy, checkGate, decide, type GateConfigInput, type GateDecision, type OutcomeScorer } from "./gate.js";
export { runOuter, leafTrace, histogram, HISTOGRAM_EDGES, OuterRunSummary, type OuterRunOptions } from "./run.js";
export { teacherReplay, extractDpoPairs, siteState, sessionMessages, answerText, type TeacherAnswer, type ReplayDpoPair, type ReplaySummary } from "./replay.js";
export { serveChat, serveReference, type ChatAnswer, type ChatEndpoint } from "./endpoint.js";
export { treeFigure, divergenceFigure, gateRows } from "./figures.js";
export { compareGates, GateComparisonRow, type CompareGatesOptions } from "./compare_gates.js";
