/** A hints config file (JSON or YAML), validated by zod: which layers, in which order, with what options. */
import { z } from "zod";
import { loadConfigFile } from "../core/index.js";
import { IntrospectionHintGenerator, openAISelfCritique, type SelfCritique } from "./introspection.js";
import { JudgeHintGenerator, JudgeSettings } from "./judge.js";
import { LayeredHintGenerator } from "./layered.js";
import type { HintGenerator } from "./protocol.js";
import { SIBLING_THRESHOLD, SiblingBootstrapGenerator } from "./sibling.js";
import { RawErrorHintGenerator, TemplateHintGenerator, TemplateRegistry } from "./templates.js";

const Template = z.union([z.string(), z.object({ text: z.string(), required: z.array(z.string()).optional() })]);

export const LayerConfig = z.discriminatedUnion("type", [
  z.object({ type: z.literal("template"), templates: z.record(Template).optional() }).strict(),
  z.object({ type: z.literal("raw_error") }).strict(),
  z.object({
    type: z.literal("judge"),
    base_url: z.string().url().optional(),
    model: z.string().optional(),
    api_key_env: z.string().optional(),
    ...JudgeSettings.shape,
    cache_dir: z.union([z.string(), z.literal(false)]).optional(),
    prices: z.object({ input_per_mtok: z.number().min(0), output_per_mtok: z.number().min(0) }).optional(),
  }).strict(),
  z.object({
    type: z.literal("introspection"),
    backend: z.enum(["policy", "openai"]).default("policy"),
    base_url: z.string().url().optional(),
    model: z.string().optional(),
    policy: z.record(z.unknown()).optional(),
  }).strict(),
  z.object({ type: z.literal("sibling"), threshold: z.number().default(SIBLING_THRESHOLD) }).strict(),
]);

export const HintsConfig = z.object({ layers: z.array(LayerConfig).min(1) }).strict();
export type HintsConfig = z.infer<typeof HintsConfig>;

/** Reads and validates a config; errors name the file and the field. */
export function loadHintsConfig(file: string): HintsConfig {
  return loadConfigFile(file, HintsConfig);
}

/** Builds the generator a config describes (`overrides` from the command line win over the file). */
export interface BuildOverrides {
  judgeUrl?: string;
  judgeModel?: string;
  cacheDir?: string | false;
  /**
   * The critic of an introspection layer with backend "policy" (lib/train's policySelfCritique, or
   * the trainer's own policy): hints does not import train, so the caller hands the policy in.
   */
  policyCritique?: (policyConfig: Record<string, unknown>) => SelfCritique;
}

export function buildFromConfig(config: HintsConfig, overrides: BuildOverrides = {}): LayeredHintGenerator {
  const registry = new TemplateRegistry();
  const layers: HintGenerator[] = config.layers.map((l) => {
    switch (l.type) {
      case "template":
        for (const [kind, t] of Object.entries(l.templates ?? {})) registry.register(kind, t);
        return new TemplateHintGenerator(registry);
      case "raw_error":
        return new RawErrorHintGenerator();
      case "judge":
        return new JudgeHintGenerator({
          baseURL: overrides.judgeUrl ?? l.base_url, model: overrides.judgeModel ?? l.model, apiKey: l.api_key_env ? process.env[l.api_key_env] : undefined,
          sample_rate: l.sample_rate, seed: l.seed, concurrency: l.concurrency, max_retries: l.max_retries,
          timeout_ms: l.timeout_ms, backoff_ms: l.backoff_ms, cache_dir: overrides.cacheDir ?? l.cache_dir, prices: l.prices, templates: registry,
        });
      case "introspection":
        if (l.backend === "openai") {
          if (!l.model) throw new Error("introspection layer with backend openai needs a model");
          return new IntrospectionHintGenerator(openAISelfCritique({ baseURL: l.base_url, model: l.model }));
        }
        if (!overrides.policyCritique) throw new Error("introspection layer with backend policy: build it with lib/train's buildHints (it supplies the policy), or use backend openai");
        return new IntrospectionHintGenerator(overrides.policyCritique(l.policy ?? {}));
      case "sibling":
        return new SiblingBootstrapGenerator(l.threshold);
    }
  });
  return new LayeredHintGenerator(layers);
}
