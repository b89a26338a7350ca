/**
 * The layered generator (the seed's §6.2): try layers in order, the first non-empty hint wins, and
 * record which layer fired. Cheap deterministic layers go first: a wrong hint is bounded-bad (the
 * teacher is stop-grad), so we escalate to paid or learned layers only on a miss.
 */
import { ErrorContext } from "./context.js";
import { IntrospectionHintGenerator, type SelfCritique } from "./introspection.js";
import { JudgeHintGenerator, type JudgeOptions } from "./judge.js";
import type { HintGenerator, LayerName } from "./protocol.js";
import { SiblingBootstrapGenerator } from "./sibling.js";
import { RawErrorHintGenerator, TemplateHintGenerator, TemplateRegistry } from "./templates.js";

export interface Hint {
  hint: string;
  layer: LayerName;
}

export class LayeredHintGenerator {
  constructor(readonly layers: HintGenerator[]) {}

  /** The first non-empty hint and the layer that produced it, or null (the site is skipped). */
  async generate(ctx: ErrorContext): Promise<Hint | null> {
    for (const layer of this.layers) {
      const hint = await layer.generate(ctx);
      if (hint && hint.trim()) return { hint, layer: layer.layer };
    }
    return null;
  }

  /** What every layer would give at this site (null where a layer declines): to see the layers side by side. */
  async each(ctx: ErrorContext): Promise<{ layer: LayerName; hint: string | null }[]> {
    const out: { layer: LayerName; hint: string | null }[] = [];
    for (const layer of this.layers) {
      const hint = await layer.generate(ctx);
      out.push({ layer: layer.layer, hint: hint && hint.trim() ? hint : null });
    }
    return out;
  }

  /** The collator hook signature: (error_kind, error_meta) → hint | null. */
  asCollatorHook(): (error_kind: string, error_meta?: Record<string, unknown>) => Promise<string | null> {
    return async (error_kind, error_meta = {}) => {
      const ctx = ErrorContext.parse({ behavior_dim: "tool_use", ...error_meta, error_kind });
      return (await this.generate(ctx))?.hint ?? null;
    };
  }

  layer<T extends HintGenerator>(name: LayerName): T | undefined {
    return this.layers.find((l) => l.layer === name) as T | undefined;
  }
}

export interface DefaultLayeredOptions {
  templates?: TemplateRegistry;
  /** Judge options; the judge layer is added when given (and enable_judge is not false). */
  judge?: JudgeOptions;
  enable_judge?: boolean;
  self_critique?: SelfCritique;
  sibling_threshold?: number;
}

/** templates → raw error → judge → introspection → sibling bootstrap. */
export function defaultLayered(opts: DefaultLayeredOptions = {}): LayeredHintGenerator {
  const templates = opts.templates ?? new TemplateRegistry();
  const layers: HintGenerator[] = [new TemplateHintGenerator(templates), new RawErrorHintGenerator()];
  if (opts.judge && opts.enable_judge !== false) layers.push(new JudgeHintGenerator({ ...opts.judge, templates }));
  if (opts.self_critique) layers.push(new IntrospectionHintGenerator(opts.self_critique));
  layers.push(new SiblingBootstrapGenerator(opts.sibling_threshold));
  return new LayeredHintGenerator(layers);
}
