/**
 * A finished chat completion as the `chat.completion.chunk` events of OpenAI streaming: per choice a
 * role chunk, one content chunk per byte (with its logprob entry when asked) or one tool-call chunk,
 * a finish chunk; then, with stream_options.include_usage, a usage chunk with no choices. The
 * sampler is synchronous, so the events go out once the generation is done (not byte by byte as it runs).
 */
import type { ChatCompletion, TokenLogprob } from "./schema.js";

export interface ChatCompletionChunk {
  id: string;
  object: "chat.completion.chunk";
  created: number;
  model: string;
  system_fingerprint: string;
  choices: {
    index: number;
    delta: { role?: "assistant"; content?: string | null; tool_calls?: { index: number; id: string; type: "function"; function: { name: string; arguments: string } }[] };
    logprobs: { content: TokenLogprob[]; refusal: null } | null;
    finish_reason: string | null;
  }[];
  usage?: ChatCompletion["usage"] | null;
}

export function* streamChunks(c: ChatCompletion, opts: { includeUsage: boolean }): Generator<ChatCompletionChunk> {
  const head = { id: c.id, object: "chat.completion.chunk" as const, created: c.created, model: c.model, system_fingerprint: c.system_fingerprint };
  const usage = opts.includeUsage ? { usage: null } : {};
  const chunk = (choice: ChatCompletionChunk["choices"][number]): ChatCompletionChunk => ({ ...head, choices: [choice], ...usage });
  for (const ch of c.choices) {
    const dec = new TextDecoder();
    yield chunk({ index: ch.index, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null });
    const calls = ch.message.tool_calls;
    if (calls) {
      yield chunk({ index: ch.index, delta: { tool_calls: calls.map((t, i) => ({ index: i, ...t })) }, logprobs: ch.logprobs, finish_reason: null });
    } else if (ch.logprobs) {
      // One byte per event; a multi-byte character's text goes out with its last byte.
      const prefillEnd = Buffer.byteLength(ch.message.content ?? "") - ch.logprobs.content.reduce((n, t) => n + t.bytes.length, 0);
      if (prefillEnd > 0) yield chunk({ index: ch.index, delta: { content: Buffer.from(ch.message.content ?? "").subarray(0, prefillEnd).toString() }, logprobs: null, finish_reason: null });
      for (const t of ch.logprobs.content) {
        yield chunk({ index: ch.index, delta: { content: dec.decode(Uint8Array.from(t.bytes), { stream: true }) }, logprobs: { content: [t], refusal: null }, finish_reason: null });
      }
    } else if (ch.message.content) {
      yield chunk({ index: ch.index, delta: { content: ch.message.content }, logprobs: null, finish_reason: null });
    }
    yield chunk({ index: ch.index, delta: {}, logprobs: null, finish_reason: ch.finish_reason });
  }
  if (opts.includeUsage) yield { ...head, choices: [], usage: c.usage };
}
