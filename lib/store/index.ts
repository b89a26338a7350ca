/** lib/store: the outer→inner data layout on disk or S3, and DiLoCo over an object store. */
export { LocalStore, S3Store, openStore, type Store, type S3StoreOptions } from "./store.js";
export {
  RunLayout, SectionWriter, HeldoutSplit, HeldoutViolation, routeGroup, Manifest, SECTIONS, TRAINING_SECTIONS,
  SftExample, DpoPairItem, RlTaskEntry, DivergencePair, WmTuple, HoldoutItem, type Section, type SectionItem, type Rollout,
} from "./layout.js";
export {
  DilocoConfig, RoundCommit, ToyRegression, type DilocoModel, runWorker, summarizeRun, syncDataParallel, outerStep, meanOf, lastCommittedRound, roundKey, rankKey,
  type WorkerOptions, type WorkerResult, type DilocoSummary,
} from "./diloco.js";
