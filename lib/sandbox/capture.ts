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
  /** Stopped for a silent stdout (RunOptions.stallMs): timedOut too. */
  stalled: boolean;
  outputTruncated: boolean;
}

/** A run's clocks: `kill` at `timeoutMs`, and where `stallMs` is given, once `stdout` has been
 *  silent that long after its first output (a run that reports progress as it goes: behave.py's
 *  lines and ticks; before its first line the sandbox and the interpreter start, which a loaded
 *  machine slows and no code under test has run). */
export function runClock(o: { timeoutMs: number; stallMs?: number }, stdout: Readable, kill: () => void): { timedOut: () => boolean; stalled: () => boolean; stop: () => void } {
  let timedOut = false;
  let stalled = false;
  const fire = (why: "time" | "stall") => () => {
    if (timedOut) return;
    timedOut = true;
    stalled = why === "stall";
    kill();
  };
  const timer = setTimeout(fire("time"), o.timeoutMs);
  let quiet: NodeJS.Timeout | undefined;
  // (one timer, pushed back by each chunk: no timer made per chunk)
  const again = () => {
    if (quiet) quiet.refresh();
    else quiet = setTimeout(fire("stall"), o.stallMs);
  };
  if (o.stallMs !== undefined && o.stallMs < o.timeoutMs) stdout.on("data", again);
  return {
    timedOut: () => timedOut,
    stalled: () => stalled,
    stop: () => {
      clearTimeout(timer);
      clearTimeout(quiet);
      stdout.off("data", again);
    },
  };
}

/** Feeds stdin, captures capped output, and kills the child's whole process group at the timeout
 *  or a stall (runClock; `kill` stops what the group does not hold, e.g. a runsc sandbox) (the
 *  child must be spawned `detached`, so it leads its own group). */
export async function supervise(child: ChildProcess, o: { timeoutMs: number; stallMs?: number; maxOutputBytes: number; stdin?: string }, kill?: () => void): Promise<Supervised> {
  child.stdin?.end(o.stdin ?? "");
  const out = capture(child.stdout!, o.maxOutputBytes);
  const err = capture(child.stderr!, o.maxOutputBytes);
  const clock = runClock(o, child.stdout!, () => {
    kill?.();
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      /* already gone */
    }
  });
  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => {
    child.on("error", () => res({ code: 127, signal: null }));
    child.on("close", (code, signal) => res({ code, signal }));
  });
  clock.stop();
  await Promise.all([out.done, err.done]);
  return { code, signal, stdout: out.text(), stderr: err.text(), timedOut: clock.timedOut(), stalled: clock.stalled(), outputTruncated: out.truncated() || err.truncated() };
}
