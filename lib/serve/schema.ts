/**
 * The OpenAI chat-completions wire format, as far as the lab's server speaks it: the request (zod,
 * strict, so a misspelt or unsupported field is a 400 naming it rather than silently ignored) and
 * the response shapes (types only: the server builds them, clients parse them).
 */
import { z } from "zod";

/** Message content: a string, or text parts (other part kinds are refused: the policy reads bytes of text). */
const Content = z.union([
  z.string(),
  z.array(z.object({ type: z.literal("text"), text: z.string() }).passthrough(), {
    invalid_type_error: "content must be a string or an array of text parts ({type: 'text', text})",
  }),
]);

export const ToolCall = z.object({
  id: z.string(),
  type: z.literal("function"),
  function: z.object({ name: z.string().min(1), arguments: z.string() }),
});
export type ToolCall = z.infer<typeof ToolCall>;

export const ChatMessage = z.discriminatedUnion("role", [
  z.object({ role: z.literal("system"), content: Content, name: z.string().optional() }),
  z.object({ role: z.literal("developer"), content: Content, name: z.string().optional() }),
  z.object({ role: z.literal("user"), content: Content, name: z.string().optional() }),
  z.object({
    role: z.literal("assistant"),
    content: Content.nullable().optional(),
    name: z.string().optional(),
    tool_calls: z.array(ToolCall).optional(),
    refusal: z.string().nullable().optional(),
  }),
  z.object({ role: z.literal("tool"), content: Content, tool_call_id: z.string() }),
]);
export type ChatMessage = z.infer<typeof ChatMessage>;

/** A JSON-schema object of a function's parameters; only `properties` and their `type`s reach the prompt. */
const Parameters = z.record(z.unknown());

export const FunctionTool = z.object({
  type: z.literal("function"),
  function: z.object({
    name: z.string().regex(/^[A-Za-z_][\w.-]*$/, "a function name: letters, digits, _ . - (not starting with a digit)").max(64),
    description: z.string().optional(),
    parameters: Parameters.optional(),
    strict: z.boolean().nullable().optional(),
  }),
});
export type FunctionTool = z.infer<typeof FunctionTool>;

export const ToolChoice = z.union([
  z.enum(["none", "auto", "required"]),
  z.object({ type: z.literal("function"), function: z.object({ name: z.string() }) }),
]);
export type ToolChoice = z.infer<typeof ToolChoice>;

/** Only 0 is accepted for the penalties: the sampler has none, and a silent no-op would mislead. */
const zeroOnly = (what: string) => z.number().refine((v) => v === 0, `${what} is not supported by this server (only 0)`);

export const ChatCompletionRequest = z
  .object({
    model: z.string().min(1),
    messages: z.array(ChatMessage).min(1, "messages must hold at least one message"),
    tools: z.array(FunctionTool).optional(),
    tool_choice: ToolChoice.optional(),
    parallel_tool_calls: z.boolean().optional(),
    n: z.number().int().min(1).max(16).nullable().optional(),
    temperature: z.number().min(0).max(2).nullable().optional(),
    top_p: z.number().gt(0).max(1).nullable().optional(),
    /** An extension (vLLM's): keep the k most likely bytes; 0 = off. */
    top_k: z.number().int().min(0).nullable().optional(),
    max_tokens: z.number().int().min(1).nullable().optional(),
    max_completion_tokens: z.number().int().min(1).nullable().optional(),
    stop: z.union([z.string().min(1), z.array(z.string().min(1)).max(4)]).nullable().optional(),
    seed: z.number().int().nullable().optional(),
    logprobs: z.boolean().nullable().optional(),
    top_logprobs: z.number().int().min(0).max(20).nullable().optional(),
    stream: z.boolean().nullable().optional(),
    stream_options: z.object({ include_usage: z.boolean().optional() }).nullable().optional(),
    frequency_penalty: zeroOnly("frequency_penalty").nullable().optional(),
    presence_penalty: zeroOnly("presence_penalty").nullable().optional(),
    logit_bias: z.record(z.number()).refine((b) => Object.keys(b).length === 0, "logit_bias is not supported by this server").nullable().optional(),
    response_format: z.object({ type: z.literal("text", { errorMap: () => ({ message: "only response_format {type: 'text'} is supported" }) }) }).nullable().optional(),
    user: z.string().optional(),
    metadata: z.record(z.string()).nullable().optional(),
    store: z.boolean().nullable().optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.top_logprobs && !r.logprobs) ctx.addIssue({ code: "custom", path: ["top_logprobs"], message: "top_logprobs needs logprobs: true" });
    if (r.tool_choice && typeof r.tool_choice === "object" && !r.tools?.some((t) => t.function.name === (r.tool_choice as { function: { name: string } }).function.name))
      ctx.addIssue({ code: "custom", path: ["tool_choice"], message: `tool_choice names ${r.tool_choice.function.name}, which is not in tools` });
    if ((r.tool_choice === "required" || typeof r.tool_choice === "object") && !r.tools?.length)
      ctx.addIssue({ code: "custom", path: ["tool_choice"], message: "tool_choice requires tools" });
    if (r.stream_options && !r.stream) ctx.addIssue({ code: "custom", path: ["stream_options"], message: "stream_options is only allowed with stream: true" });
  });
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequest>;

/** The legacy `/v1/completions` request (raw text prompts; what vLLM-style scorers call with `echo`). */
export const CompletionRequest = z
  .object({
    model: z.string().min(1),
    prompt: z.union([z.string(), z.array(z.string()).min(1).max(16)], { invalid_type_error: "prompt must be a string or an array of strings (token-id prompts are not supported)" }),
    max_tokens: z.number().int().min(0).nullable().optional(),
    n: z.number().int().min(1).max(16).nullable().optional(),
    best_of: z.number().int().min(1).nullable().optional(),
    temperature: z.number().min(0).max(2).nullable().optional(),
    top_p: z.number().gt(0).max(1).nullable().optional(),
    top_k: z.number().int().min(0).nullable().optional(),
    stop: z.union([z.string().min(1), z.array(z.string().min(1)).max(4)]).nullable().optional(),
    seed: z.number().int().nullable().optional(),
    logprobs: z.number().int().min(0).max(20).nullable().optional(),
    echo: z.boolean().nullable().optional(),
    stream: z.literal(false, { errorMap: () => ({ message: "stream is not supported on /v1/completions (use /v1/chat/completions)" }) }).nullable().optional(),
    suffix: z.null({ errorMap: () => ({ message: "suffix is not supported by this server" }) }).optional(),
    frequency_penalty: zeroOnly("frequency_penalty").nullable().optional(),
    presence_penalty: zeroOnly("presence_penalty").nullable().optional(),
    logit_bias: z.record(z.number()).refine((b) => Object.keys(b).length === 0, "logit_bias is not supported by this server").nullable().optional(),
    user: z.string().optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.best_of != null && r.best_of !== (r.n ?? 1)) ctx.addIssue({ code: "custom", path: ["best_of"], message: "best_of must equal n (no server-side ranking)" });
    if (r.max_tokens === 0 && !r.echo) ctx.addIssue({ code: "custom", path: ["max_tokens"], message: "max_tokens 0 needs echo: true (else there is nothing to return)" });
  });
export type CompletionRequest = z.infer<typeof CompletionRequest>;

export interface TextCompletionChoice {
  index: number;
  text: string;
  logprobs: { tokens: string[]; token_logprobs: number[]; top_logprobs: Record<string, number>[] | null; text_offset: number[] } | null;
  finish_reason: "stop" | "length";
}

export interface TextCompletion {
  id: string;
  object: "text_completion";
  created: number;
  model: string;
  system_fingerprint: string;
  choices: TextCompletionChoice[];
  usage: Usage;
}

/** One generated byte in `logprobs.content`. */
export interface TokenLogprob {
  token: string;
  logprob: number;
  bytes: number[];
  top_logprobs: { token: string; logprob: number; bytes: number[] }[];
}

export type FinishReason = "stop" | "length" | "tool_calls";

export interface ChatCompletionChoice {
  index: number;
  message: { role: "assistant"; content: string | null; refusal: null; tool_calls?: ToolCall[] };
  logprobs: { content: TokenLogprob[]; refusal: null } | null;
  finish_reason: FinishReason;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ChatCompletion {
  id: string;
  object: "chat.completion";
  created: number;
  model: string;
  system_fingerprint: string;
  choices: ChatCompletionChoice[];
  usage: Usage;
}

/** The OpenAI error body. */
export interface ApiError {
  error: { message: string; type: string; param: string | null; code: string | null };
}
