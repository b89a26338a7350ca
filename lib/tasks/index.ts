/** lib/tasks: feature-deletion tasks from Python repos: schema, pool, deletion, scrubbing, validation gates. */
export { FeatureDeletionTask, TaskIndexEntry, BrokenSnapshot, Granularity, publicView, type PublicTask } from "./schema.js";
export { readIndex, loadTask, addToPool, removeFromPool, taskRepoDir } from "./pool.js";
export { scrub, stripBundledDeps, LEAK_DIRS, LEAK_FILE } from "./scrub.js";
export { featureClosure, moduleName, resolveImport, importsOf, dropImportNames, type ClosureMember } from "./closure.js";
export { fileDiff, applyUnifiedDiff, confinedPath, type AppliedPatch } from "./diffs.js";
export { pythonFacts, pythonFactsAsync, latentSites, LatentSite, LatentFile, starveSources, StarveOptions, PySymbol, PyFileFacts, PyBinding } from "./pyast.js";
export { deleteSymbol, findSymbol, type DeleteOptions } from "./delete.js";
export {
  buildFromRepo, buildFromGitHistory, buildFromSweInstances, buildDeletionTask, selectCandidates, readSweInstances,
  BuildOptions, SweInstance, type BuildReport, type BuildHooks,
} from "./build.js";
export { GateFailure, GATES, type Gate, type GateName } from "./gates.js";
export { sourceFiles } from "./repo_files.js";
export { GRANULARITIES, granularityLadder, type Candidate, type GranularityStrategy, type GranularityName, type SelectContext, type DeleteContext, type Deletion } from "./granularity/index.js";
export { buildOracle, rebuildOracles, type RebuildOracleReport, writeTaskOracle, writeOracle, readOracle, taskOracle, oraclePath, solvedCopy, callMagnitude, pyFloat, sameOutcome, sameValue, mutateValue, replayable, Oracle, OracleCall, OracleSymbol, PROBES, type Probe, piecesOf, selectComposed, grownCall, kinProbes, SPECIAL_CHARS, CHAR_PROBE_SET, answerOf, OracleOptions, CompareOptions, ORACLE_VERSION } from "./oracle.js";
export { mutationGate, mutantsOf, uncheckedSymbols, MutationOptions, MutationReport, Mutant, type MutationSubject } from "./mutants.js";
export { ALT_BODIES, altMicroCompletion, refactoredGoldenCompletion, spliceStub } from "./alt_impls.js";
export { detectLicense, isCopyleft, COPYLEFT } from "./license.js";
export { addCanaries, contradictTest, isHack, hackRate, type CanaryReport, type CanaryMade, type CanaryOptions } from "./canary.js";
export { deleteSymbols } from "./delete.js";
export { FAMILIES, MICRO_VARIANTS, MicroOptions, microFunctions, writeMicroPackages, buildMicroTasks, pyLiteral, type MicroFunction, type MicroBuild, type MicroVariant } from "./micro.js";
export { buildHarder, harderVariants, KNOB_BONUS, type HarderVariant, type HarderReport } from "./escalate.js";
export { regexSamples, RegexPattern, RegexSampleOptions } from "./regex_samples.js";
