/** `composer-lab repl`: a Node REPL with the library preloaded (top-level await is on). */
import repl from "node:repl";
import { inspect } from "node:util";
import { aq, tableText } from "../viz/index.js";

/** Makes arquero tables print as aligned text wherever util.inspect is used (REPL, console.log). */
export function installTableInspect(): void {
  const proto = Object.getPrototypeOf(aq.table({}));
  if (proto[inspect.custom]) return;
  proto[inspect.custom] = function (this: aq.ColumnTable) {
    return tableText(this, { limit: 20 });
  };
}

export async function startRepl(opts: { input?: NodeJS.ReadableStream; output?: NodeJS.WritableStream; terminal?: boolean } = {}): Promise<repl.REPLServer> {
  installTableInspect();
  const lab = await import("../index.js");
  const server = repl.start({
    prompt: "composer-lab> ",
    input: opts.input ?? process.stdin,
    output: opts.output ?? process.stdout,
    terminal: opts.terminal,
    useGlobal: false,
  });
  Object.assign(server.context, { lab, ...lab, aq, tf: lab.backend.tf });
  if (opts.terminal !== false && process.stdout.isTTY) {
    process.stdout.write(`composer-lab REPL — preloaded: lab, ${Object.keys(lab).join(", ")}, aq, tf. Top-level await works.\n`);
  }
  return server;
}
