/**
 * lib/serve: a lab policy (a lib/train checkpoint, or a Policy in memory) behind an OpenAI-compatible
 * HTTP API — POST /v1/chat/completions (tools and tool calls in the OpenAI shape, n, temperature,
 * top_p, max_tokens, stop, seed, logprobs, streaming), POST /v1/completions (raw prompts; echo +
 * logprobs score a text), GET /v1/models, GET /health — so the
 * `openai` client, or any OpenAI-compatible caller, talks to the lab's own models unchanged.
 *   const s = await serve({ checkpoint: "datasets/train/toolcall-sft", port: 0 });
 *   new OpenAI({ baseURL: s.baseURL, apiKey: "none" }) … await s.close();
 */
export { serve, ServeOptions, type RunningServer, type ServerStats } from "./server.js";
export { ServedModel, byteToken, type ServedModelInfo } from "./model.js";
export { renderPrompt, parseToolCall, toolSignature, formatToolCall, CALL_STOP, type RenderedPrompt } from "./prompt.js";
export { ApiFailure } from "./errors.js";
export { streamChunks, type ChatCompletionChunk } from "./stream.js";
export {
  ChatCompletionRequest, CompletionRequest, ChatMessage, FunctionTool, ToolCall, ToolChoice,
  type ChatCompletion, type ChatCompletionChoice, type TextCompletion, type TextCompletionChoice, type TokenLogprob, type FinishReason, type Usage, type ApiError,
} from "./schema.js";
