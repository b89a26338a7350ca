/**
 * composer-lab's public surface. Each pipeline stage is a namespace:
 *   import { viz, demo, backend } from "composer-lab";
 */
export * as core from "./core/index.js";
export * as backend from "./backend/index.js";
export * as viz from "./viz/index.js";
export * as traces from "./traces/index.js";
export * as hints from "./hints/index.js";
export * as train from "./train/index.js";
export * as serve from "./serve/index.js";
export * as sandbox from "./sandbox/index.js";
export * as tasks from "./tasks/index.js";
export * as env from "./env/index.js";
export * as curriculum from "./curriculum/index.js";
export * as store from "./store/index.js";
export * as outer from "./outer/index.js";
export * as demo from "./demo/index.js";
export * as notebooks from "./notebooks/index.js";
