/**
 * Small OpenAI-compatible endpoints on loopback (node:http, the wire shape of /v1/chat/completions
 * and /v1/models), for policies that are not checkpoints:
 *  - serveChat(answer): any function of the request's messages → an assistant message;
 *  - serveReference(pool): the reference policy, which reads each task's golden solution — it opens
 *    the deleted function's file, then writes the golden body. It gives every tree a winning
 *    sibling to contrast the students' branches with (sft_corpus and dpo_pairs need one); it is an
 *    upper bound, never a student.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { goldenBody } from "../env/index.js";
import { loadTask, readIndex, type FeatureDeletionTask } from "../tasks/index.js";
import type { ChatMessage } from "./models.js";

export interface ChatAnswer {
  content: string | null;
  tool_calls?: { id?: string; name: string; arguments: string }[];
}

export interface ChatEndpoint {
  url: string;
  model: string;
  requests: number;
  close(): Promise<void>;
}

/** Serves `answer` as model `model` on 127.0.0.1 (port 0: any free port). */
export async function serveChat(model: string, answer: (messages: ChatMessage[]) => ChatAnswer | Promise<ChatAnswer>, port = 0): Promise<ChatEndpoint> {
  let requests = 0;
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method === "GET" && req.url === "/v1/models") return send(200, { object: "list", data: [{ id: model, object: "model", created: 0, owned_by: "composer-lab" }] });
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") return send(404, { error: { message: `no route ${req.method} ${req.url}`, type: "invalid_request_error" } });
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", async () => {
      requests++;
      let body: { messages?: ChatMessage[] };
      try {
        body = JSON.parse(raw);
      } catch {
        return send(400, { error: { message: "the body is not JSON", type: "invalid_request_error" } });
      }
      if (!Array.isArray(body.messages)) return send(400, { error: { message: "'messages' is required", type: "invalid_request_error", param: "messages" } });
      try {
        const a = await answer(body.messages);
        const calls = (a.tool_calls ?? []).map((c, i) => ({ id: c.id ?? `call_${requests}_${i}`, type: "function", function: { name: c.name, arguments: c.arguments } }));
        const text = a.content ?? "";
        send(200, {
          id: `chatcmpl-${requests}`, object: "chat.completion", created: Math.floor(Date.now() / 1000), model,
          choices: [{ index: 0, finish_reason: calls.length ? "tool_calls" : "stop", logprobs: null, message: { role: "assistant", content: a.content, ...(calls.length ? { tool_calls: calls } : {}) } }],
          usage: { prompt_tokens: JSON.stringify(body.messages).length, completion_tokens: text.length + JSON.stringify(calls).length, total_tokens: 0 },
        });
      } catch (e) {
        send(500, { error: { message: (e as Error).message, type: "server_error" } });
      }
    });
  });
  await new Promise<void>((ok) => server.listen(port, "127.0.0.1", ok));
  const ep: ChatEndpoint = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    model,
    get requests() {
      return requests;
    },
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
  return ep;
}

/** The reference policy over a task pool: read the target file, then write the golden body. */
export function serveReference(pool: string, port = 0): Promise<ChatEndpoint> {
  const tasks = readIndex(pool).map((e) => loadTask(pool, e.task_id));
  const byPrompt = (messages: ChatMessage[]): FeatureDeletionTask | undefined => {
    const first = messages.find((m) => m.role === "user")?.content ?? "";
    return tasks.find((t) => first.includes(t.description) && t.fail_to_pass.every((id) => first.includes(id)));
  };
  return serveChat("reference", (messages) => {
    const task = byPrompt(messages);
    if (!task) return { content: "I do not know this task." };
    const file = task.deleted_symbols[0]!.file;
    if (!messages.some((m) => m.role === "assistant")) return { content: "", tool_calls: [{ name: "read_file", arguments: JSON.stringify({ path: file }) }] };
    return { content: goldenBody(task) };
  }, port);
}
