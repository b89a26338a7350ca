/**
 * Layer (d): same-model introspection (OPSD's --reason_first): the policy critiques its own failed
 * turn and the critique becomes the hint. Any model can back it: the lab's tfjs policy or an
 * OpenAI-compatible endpoint (lib/train's policySelfCritique adapts the tfjs policy).
 */
import { openaiClient } from "./openai.js";
import type { ErrorContext } from "./context.js";
import { firstSentences, type HintGenerator } from "./protocol.js";

/** self_critique(ctx) → a hint or null. */
export type SelfCritique = (ctx: ErrorContext) => Promise<string | null>;

export function introspectionPrompt(ctx: ErrorContext): string {
  return `You just took this action:\n${ctx.erroring_action ?? ""}\n\nThe environment returned:\n${(ctx.error_message ?? "").slice(0, 1000)}\n\nIn at most two sentences, say what you did wrong and what to do instead.\nCritique:`;
}

/** A self_critique backed by an OpenAI-compatible chat endpoint (the policy being trained, served). */
export function openAISelfCritique(opts: { baseURL?: string; model: string; apiKey?: string; timeout_ms?: number }): SelfCritique {
  const client = openaiClient({ baseURL: opts.baseURL, apiKey: opts.apiKey, timeout_ms: opts.timeout_ms ?? 30_000, maxRetries: 2 });
  return async (ctx) => {
    const r = await client.chat.completions.create({ model: opts.model, temperature: 0, max_tokens: 120, messages: [{ role: "user", content: introspectionPrompt(ctx) }] });
    return r.choices[0]?.message?.content ?? null;
  };
}

export class IntrospectionHintGenerator implements HintGenerator {
  readonly layer = "introspection" as const;
  failures = 0;
  constructor(readonly selfCritique: SelfCritique) {}
  async generate(ctx: ErrorContext): Promise<string | null> {
    try {
      const c = await this.selfCritique(ctx);
      return c && c.trim() ? firstSentences(c, 2) : null;
    } catch {
      this.failures++; // a failing critic declines the site
      return null;
    }
  }
}
