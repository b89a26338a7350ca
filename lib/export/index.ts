/**
 * lib/export: the lab's data in the formats other trainers read (TRL's dataset formats, as JSONL and
 * Parquet with a dataset card).
 */
export { exportTrl, toParquet, TRL_DATASETS, TrlMessage, TrlSftRow, TrlDpoRow, TrlGrpoRow, TrlSdpoRow, type TrlDataset, type TrlExportOptions, type TrlExportResult } from "./trl.js";
