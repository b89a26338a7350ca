/** Headless notebook execution on the project's tslab kernel. */
export { runNotebooks, describeFailure, NotebookResult, FailedCell, type RunNotebooksOptions } from "./runner.js";
export { codeFrame, failingLine, userFacingError } from "./codeframe.js";
export { installKernel, ensureLibraryBuilt, kernelSpec, jupyterPathDir, KERNEL_NAME } from "./kernel.js";
