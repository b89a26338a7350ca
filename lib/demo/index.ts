/** `composer-lab demo`: every stage on the bundled datasets → metrics.json + report.html. */
export { runDemo, type DemoOptions, type DemoResult } from "./run.js";
export { STAGES, PIPELINE, pipelineStatus } from "./stages.js";
export { environmentStage, measureMatmul, type MatmulMeasurement } from "./environment.js";
export { renderReport } from "./report.js";
export { RunMetrics, StageRecord, MetricValue, type DemoStage, type StageContext, type StageOutput } from "./stage.js";
