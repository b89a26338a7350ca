/**
 * JSON-over-HTTP plumbing shared by the lab's servers (lib/serve's OpenAI API, lib/env's
 * environment server): read a JSON body under a size limit, send a JSON answer. Each server keeps
 * its own error shape: `fail` builds the error a bad body raises.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Builds the error a server throws for a bad request body (413 too large, 400 not JSON). */
export type BodyFailure = (status: 400 | 413, message: string, code: "request_too_large" | "invalid_json") => Error;

/** Reads a request body as JSON; over `limit` bytes or not JSON throws `fail(...)`. */
export async function readJsonBody(req: IncomingMessage, limit: number, fail: BodyFailure): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > limit) throw fail(413, `Request body over ${limit} bytes`, "request_too_large");
    chunks.push(c);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return JSON.parse(text);
  } catch (e) {
    throw fail(400, `We could not parse the JSON body of your request (${(e as Error).message}). The body must be a JSON object.`, "invalid_json");
  }
}

/** Answers `body` as JSON with its content length. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const data = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(data) });
  res.end(data);
}

/**
 * A server's accepted requests, for a graceful close: begin()/end() around each request; close()
 * stops accepting, and resolves `answered` once every accepted request is answered (idle kept-alive
 * connections are closed as they go quiet; one that never finished a request, 5 s later) and
 * `closed` once the listener has closed.
 */
export class InFlightRequests {
  count = 0;
  closing = false;
  private drained: () => void = () => {};
  private server: Server | null = null;

  attach(server: Server): this {
    this.server = server;
    return this;
  }

  begin(): void {
    this.count++;
  }

  end(): void {
    this.count--;
    if (this.closing) {
      this.server?.closeIdleConnections();
      if (this.count === 0) this.drained();
    }
  }

  close(): { answered: Promise<void>; closed: Promise<void> } {
    const server = this.server!;
    this.closing = true;
    const answered = new Promise<void>((r) => (this.count === 0 ? r() : (this.drained = r)));
    const closed = new Promise<void>((r) => server.close(() => r()));
    server.closeIdleConnections();
    void answered.then(() => {
      server.closeIdleConnections();
      // A client that opened a connection and never finished a request must not hold the exit.
      setTimeout(() => server.closeAllConnections(), 5_000).unref();
    });
    return { answered, closed };
  }
}

/**
 * Listens on host:port (0: a free port) with kept-alive sockets held 65 s (a long request keeps a
 * client's connection quiet; Node's 5 s default would close it under a client about to reuse it);
 * returns the bound port and the base URL.
 */
export async function listenHttp(server: Server, port: number, host: string): Promise<{ port: number; url: string }> {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 70_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => (server.off("error", reject), resolve()));
  });
  const bound = (server.address() as AddressInfo).port;
  return { port: bound, url: `http://${host.includes(":") ? `[${host}]` : host}:${bound}` };
}
