/** The command line and REPL (bin/composer-lab.js calls main()). */
export { main, buildProgram, type BenchResult } from "./main.js";
export { startRepl, installTableInspect } from "./repl.js";
export { emit, routeConsoleToStderr } from "./output.js";
export { withExecutor, tallied, tallyText, ExecutorTally } from "./executor.js";
