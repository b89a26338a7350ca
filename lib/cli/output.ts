/**
 * The CLI's output contract: with --json a command prints exactly ONE JSON object on stdout;
 * everything else (logs, progress, library chatter) goes to stderr.
 */
import { Option } from "commander";

/** --json on every command. */
export const jsonOpt = () => new Option("--json", "print one JSON object on stdout (logs go to stderr)");

const realStdoutWrite = process.stdout.write.bind(process.stdout);

/** In --json mode, send console.log & co. to stderr so only the result reaches stdout. */
export function routeConsoleToStderr(): void {
  const toErr = (...args: unknown[]) => console.error(...args);
  console.log = toErr;
  console.info = toErr;
  console.debug = toErr;
  console.table = toErr;
}

/** Prints the command's result: the JSON object, or the human text. */
export function emit(json: boolean, result: Record<string, unknown>, human: () => string): void {
  if (json) realStdoutWrite(JSON.stringify(result) + "\n");
  else {
    const text = human();
    if (text) realStdoutWrite(text.endsWith("\n") ? text : text + "\n");
  }
}

export const log = (msg: string): void => void process.stderr.write(msg + "\n");
