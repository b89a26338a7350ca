/** Shared plumbing every stage may use: project paths, progress on stderr, tool probes, the seeded PRNG. */
export { projectRoot, datasetsDir, scratchDir, timestampSlug } from "./paths.js";
export { progress, type Progress } from "./progress.js";
export { ToolProbe, probeCommand, probeTools, jupyterPython, chromiumPath } from "./probe.js";
export { Rng } from "./random.js";
export { loadConfigFile, describeIssues } from "./config.js";
export { strictSchema, closestKey, unknownKeyMessage } from "./strict.js";
export { mean, std } from "./stats.js";
export { holdChild } from "./process.js";
export { readGuarded, readTextGuarded, GuardedReadError, tempDir, transientDir, transientRootDir, sweepStaleTempDirs, type GuardedReadOptions } from "./files.js";
export { readJsonBody, sendJson, listenHttp, InFlightRequests, type BodyFailure } from "./http.js";
