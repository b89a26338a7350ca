/**
 * Inside a tslab kernel (a notebook opened in Jupyter), a failing cell prints a code frame of the
 * cell and the error without tslab's and Node's frames, as the headless runner does. tslab prints
 * a cell's error on stderr (type errors as "LINE:COL - message", runtime errors as Node prints an
 * Error); we remember each cell's source and reformat those two cases only.
 */
import { createRequire } from "node:module";
import { codeFrame, userFacingError } from "./codeframe.js";

const INSTALLED = Symbol.for("composer-lab.kernelErrorFrames");

interface ExecuteHandler {
  handleExecuteImpl(req: { code: string }, ...rest: unknown[]): Promise<unknown>;
}

/** Installs the reformatting when this process is a tslab kernel (no-op elsewhere); true if installed now. */
export function installKernelErrorFrames(): boolean {
  const require = createRequire(import.meta.url);
  let path: string;
  try {
    path = require.resolve("tslab/dist/jupyter.js");
  } catch {
    return false;
  }
  // Only a kernel has loaded tslab's Jupyter module; never load it here.
  const handler = (require.cache[path]?.exports as { JupyterHandlerImpl?: { prototype: ExecuteHandler } } | undefined)?.JupyterHandlerImpl?.prototype;
  const g = globalThis as Record<symbol, unknown>;
  if (!handler || g[INSTALLED]) return false;
  g[INSTALLED] = true;
  let cell = "";
  const execute = handler.handleExecuteImpl;
  handler.handleExecuteImpl = function (this: ExecuteHandler, req, ...rest) {
    cell = req.code;
    return execute.call(this, req, ...rest);
  };
  // tslab prints with a console captured at start-up, writing to process.stderr, whose `write` it
  // replaces for every cell: wrap each replacement as it is assigned.
  const reformat = (text: string): string => {
    if (/^evalmachine\.<anonymous>:\d+\n/.test(text) && /\n\s+at /.test(text)) return `${userFacingError(text)}\n\n${codeFrame(cell, text)}\n`;
    if (/^\d+:\d+ - /.test(text)) return `${text.trimEnd()}\n\n${codeFrame(cell, text)}\n`;
    return text;
  };
  type Write = typeof process.stderr.write;
  const framing = (write: Write): Write =>
    function (this: unknown, chunk: unknown, ...rest: unknown[]) {
      return (write as (...a: unknown[]) => boolean).call(this, typeof chunk === "string" ? reformat(chunk) : chunk, ...rest);
    } as Write;
  let current = framing(process.stderr.write.bind(process.stderr));
  Object.defineProperty(process.stderr, "write", {
    configurable: true,
    get: () => current,
    set: (write: Write) => {
      current = framing(write);
    },
  });
  return true;
}
