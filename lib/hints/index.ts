/**
 * lib/hints: the teacher's privileged hint at each error site, from a layered generator
 * (templates → raw error → LLM judge → introspection → successful-sibling bootstrap), and its
 * evaluation (per-layer coverage, teacher-vs-student shift).
 */
export { ErrorContext, SiblingRollout, contextFromSite, cleanTurnContexts, extractSlots } from "./context.js";
export { LAYERS, firstSentences, type LayerName, type HintGenerator } from "./protocol.js";
export { TemplateRegistry, TemplateHintGenerator, RawErrorHintGenerator, defaultTemplates, renderTemplate, slotValues, slotsOf, type HintTemplate } from "./templates.js";
export { JudgeHintGenerator, JudgeSettings, JUDGE_SYSTEM, judgePrompt, judgeCacheKey, sampled, type JudgeOptions, type JudgeStats } from "./judge.js";
export { IntrospectionHintGenerator, openAISelfCritique, introspectionPrompt, type SelfCritique } from "./introspection.js";
export { SiblingBootstrapGenerator } from "./sibling.js";
export { LayeredHintGenerator, defaultLayered, type Hint, type DefaultLayeredOptions } from "./layered.js";
export { HintsConfig, LayerConfig, loadHintsConfig, buildFromConfig, type BuildOverrides } from "./config.js";
export {
  contextsFromTraces, hintCoverage, hintShift, openAILogprobModel, teacherContext, klFromLogDists,
  type Coverage, type HintedSite, type LogprobModel, type ShiftRow, type LayerOrNone, type ContinuationScore,
} from "./eval.js";
export { compareCoverage, coverageFigure, compareCoverageFigure, type CoverageComparison, type CoverageChange } from "./compare.js";
