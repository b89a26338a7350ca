/**
 * lib/export: the lab's data in the formats other trainers read (TRL's dataset formats, as JSONL and
 * Parquet with a dataset card), and feature-deletion task pools as JSONL or Harbor task folders.
 */
export { exportTrl, toParquet, TRL_DATASETS, TrlMessage, TrlSftRow, TrlDpoRow, TrlGrpoRow, TrlSdpoRow, type TrlDataset, type TrlExportOptions, type TrlExportResult } from "./trl.js";
export { exportHarborTask, harborInstruction, toToml, HarborExportOptions, HarborGradeSpec } from "./harbor.js";
export { exportTasks, TASK_EXPORT_FORMATS, type TaskExportFormat, type TaskExportFormatName, type TaskExportResult } from "./tasks.js";
