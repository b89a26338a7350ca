/** Headless notebook execution on the project's tslab kernel. */
export { runNotebooks, describeFailure, NotebookResult, FailedCell, type RunNotebooksOptions } from "./runner.js";
export { codeFrame, failingLine, userFacingError } from "./codeframe.js";
export { installKernel, ensureLibraryBuilt, kernelSpec, jupyterPathDir, KERNEL_NAME } from "./kernel.js";
export { installKernelErrorFrames } from "./kernel-errors.js";

import { installKernelErrorFrames } from "./kernel-errors.js";
// Importing the library in a notebook turns tslab's error output into a code frame of the cell.
installKernelErrorFrames();
