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
