/**
 * The lab's tfjs policy as the models lib/hints asks for (hints never imports train): a
 * self-critique for the introspection layer, a log-prob model for hint-shift evaluation, and
 * buildHints, a HintsConfig → generator whose "policy" introspection layer uses a given policy.
 */
import { buildFromConfig, introspectionPrompt, type BuildOverrides, type HintsConfig, type LayeredHintGenerator, type LogprobModel, type SelfCritique } from "../hints/index.js";
import { Policy, scoreContinuation, type PolicyConfig } from "./model.js";
import { generate } from "./sample.js";

/** A self_critique backed by the lab's tfjs policy (greedy decoding). */
export function policySelfCritique(policy: Policy, opts: { maxTokens?: number } = {}): SelfCritique {
  return async (ctx) => {
    const text = generate(policy, introspectionPrompt(ctx), { maxTokens: opts.maxTokens ?? 96 }).trim();
    return text ? text : null;
  };
}

/** The lab's tfjs policy as a LogprobModel (full distributions: exact KL). */
export function policyLogprobModel(policy: Policy, name = "tfjs-policy"): LogprobModel {
  return { name, score: async (c, x) => scoreContinuation(policy, c, x) };
}

/**
 * The generator a HintsConfig describes. An introspection layer with backend "policy" critiques with
 * `policy` when given (the trainer passes the policy being trained), else with a fresh Policy built
 * from the layer's own `policy` settings.
 */
export function buildHints(config: HintsConfig, policy?: Policy, overrides: Omit<BuildOverrides, "policyCritique"> = {}): LayeredHintGenerator {
  return buildFromConfig(config, { ...overrides, policyCritique: (settings) => policySelfCritique(policy ?? new Policy(settings as Partial<PolicyConfig>)) });
}
