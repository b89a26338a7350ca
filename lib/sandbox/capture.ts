import type { ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";

/** Collects a stream up to `limit` bytes and keeps draining the rest (so the child never blocks). */
export function capture(stream: Readable, limit: number): { text: () => string; truncated: () => boolean; done: Promise<void> } {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  stream.on("data", (d: Buffer) => {
    if (size >= limit) {
      over = true;
      return;
    }
    const take = d.subarray(0, limit - size);
    if (take.length < d.length) over = true;
    chunks.push(take);
    size += take.length;
  });
  const done = new Promise<void>((res) => {
    stream.on("end", res);
    stream.on("close", res);
    stream.on("error", () => res());
  });
  return { text: () => Buffer.concat(chunks).toString("utf8"), truncated: () => over, done };
}

export interface Supervised {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  outputTruncated: boolean;
}

/** Feeds stdin, captures capped output, and kills the child's whole process group at the timeout
 *  (the child must be spawned `detached`, so it leads its own group). */
export async function supervise(child: ChildProcess, o: { timeoutMs: number; maxOutputBytes: number; stdin?: string }): Promise<Supervised> {
  child.stdin?.end(o.stdin ?? "");
  const out = capture(child.stdout!, o.maxOutputBytes);
  const err = capture(child.stderr!, o.maxOutputBytes);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      /* already gone */
    }
  }, o.timeoutMs);
  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => {
    child.on("error", () => res({ code: 127, signal: null }));
    child.on("close", (code, signal) => res({ code, signal }));
  });
  clearTimeout(timer);
  await Promise.all([out.done, err.done]);
  return { code, signal, stdout: out.text(), stderr: err.text(), timedOut, outputTruncated: out.truncated() || err.truncated() };
}
