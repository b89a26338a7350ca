/**
 * The `openai` SDK for the layers that call an OpenAI-compatible endpoint (judge, introspection,
 * the log-prob model of hint evaluation), loaded with the first client rather than by every process
 * that imports lib/hints (≈ 0.1 s of CPU). Always its CommonJS build, so the error classes the judge
 * tests with `instanceof` are those its client throws.
 */
import type OpenAISdk from "openai";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export type OpenAIClient = OpenAISdk;
export const openaiSdk = (): typeof OpenAISdk => (require("openai") as { OpenAI: typeof OpenAISdk }).OpenAI;

/** A client; `timeout_ms` and `maxRetries` as each layer needs them. */
export function openaiClient(o: { baseURL?: string; apiKey?: string; timeout_ms: number; maxRetries: number }): OpenAISdk {
  const OpenAI = openaiSdk();
  return new OpenAI({ baseURL: o.baseURL ?? process.env.OPENAI_BASE_URL, apiKey: o.apiKey ?? process.env.OPENAI_API_KEY ?? "no-key", timeout: o.timeout_ms, maxRetries: o.maxRetries });
}
