/**
 * A real HTTP server on loopback that speaks the OpenAI API (chat completions and completions with
 * echoed logprobs), scripted per test. Tests talk to it through the real `openai` client.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ChatReply {
  status?: number;
  content?: string;
  delayMs?: number;
  headers?: Record<string, string>;
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export interface OpenAIServer {
  url: string;
  /** Every request body received, in order. */
  requests: { path: string; body: any }[];
  maxInFlight: number;
  close(): Promise<void>;
}

export type ChatHandler = (body: any, n: number) => ChatReply | Promise<ChatReply>;

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((res, rej) => {
    let s = "";
    req.on("data", (d) => (s += d));
    req.on("end", () => res(s));
    req.on("error", rej);
  });

/** Splits text into "tokens" (words with their leading space) with their offsets. */
function tokenize(text: string): { tokens: string[]; offsets: number[] } {
  const tokens: string[] = [];
  const offsets: number[] = [];
  for (const m of text.matchAll(/\s*\S+|\s+$/g)) {
    tokens.push(m[0]);
    offsets.push(m.index!);
  }
  return { tokens, offsets };
}

export async function startOpenAIServer(chat: ChatHandler, opts: { logprob?: (prompt: string, tokenIndex: number) => number } = {}): Promise<OpenAIServer> {
  const state = { requests: [] as { path: string; body: any }[], inFlight: 0, maxInFlight: 0, n: 0 };
  const server: Server = createServer(async (req, res) => {
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    try {
      const raw = await readBody(req);
      const body = raw ? JSON.parse(raw) : {};
      state.requests.push({ path: req.url ?? "", body });
      if (req.method === "POST" && req.url === "/v1/chat/completions") {
        const r = await chat(body, state.n++);
        if (r.delayMs) await new Promise((x) => setTimeout(x, r.delayMs));
        const status = r.status ?? 200;
        res.writeHead(status, { "content-type": "application/json", ...r.headers });
        if (status !== 200) return void res.end(JSON.stringify({ error: { message: `scripted ${status}`, type: "server_error" } }));
        const usage = r.usage ?? { prompt_tokens: 100, completion_tokens: 10 };
        return void res.end(JSON.stringify({
          id: `chatcmpl-${state.n}`, object: "chat.completion", created: 0, model: body.model,
          choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: r.content ?? "" } }],
          usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
        }));
      }
      if (req.method === "POST" && req.url === "/v1/completions") {
        const prompt = String(body.prompt);
        const { tokens, offsets } = tokenize(prompt);
        const lp = opts.logprob ?? (() => -1);
        res.writeHead(200, { "content-type": "application/json" });
        return void res.end(JSON.stringify({
          id: "cmpl-1", object: "text_completion", created: 0, model: body.model,
          choices: [{ index: 0, finish_reason: "length", text: prompt + " x", logprobs: {
            tokens: [...tokens, " x"], text_offset: [...offsets, prompt.length],
            token_logprobs: [null, ...tokens.slice(1).map((_, i) => lp(prompt, i + 1)), -2], top_logprobs: null,
          } }],
          usage: { prompt_tokens: tokens.length, completion_tokens: 1, total_tokens: tokens.length + 1 },
        }));
      }
      res.writeHead(404).end();
    } finally {
      state.inFlight--;
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get requests() { return state.requests; },
    get maxInFlight() { return state.maxInFlight; },
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
