/** Headless notebook execution on the project's tslab kernel. */
export { runNotebooks, describeFailure, NotebookResult, FailedCell, type RunNotebooksOptions } from "./runner.js";
export { installKernel, ensureLibraryBuilt, kernelSpec, jupyterPathDir, KERNEL_NAME } from "./kernel.js";
