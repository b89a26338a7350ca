/**
 * Strict input: a zod schema rebuilt so that every object in it, however deeply nested (inside
 * defaults, optionals, unions, arrays, records, refinements, pipes), refuses keys it does not
 * declare, and says which declared key was probably meant. A misspelled `los_weights:` must fail,
 * not train silently with defaults (issue 32 §2).
 *
 * Schemas stay as they are defined (output files and rows may carry extra keys as formats grow);
 * the boundaries that read what a person wrote (config files, parseTrainConfig, HTTP bodies) parse
 * through `strictSchema(schema)`.
 */
import { closest, distance } from "fastest-levenshtein";
import { z } from "zod";

/** The declared key nearest to `key` by edit distance, when it is near enough to be a likely typo. */
export function closestKey(key: string, known: readonly string[]): string | null {
  if (!known.length) return null;
  const best = closest(key, known as string[]);
  const d = distance(key.toLowerCase(), best.toLowerCase());
  return d <= Math.max(2, Math.ceil(best.length / 3)) ? best : null;
}

/** The message an unknown key gets: the key, the closest declared one, and the declared keys. */
export function unknownKeyMessage(key: string, known: readonly string[]): string {
  const near = closestKey(key, known);
  const list = known.length > 12 ? `${known.slice(0, 12).join(", ")}, …` : known.join(", ");
  return `unknown key "${key}"${near ? `; did you mean "${near}"?` : ""} (known: ${list || "none"})`;
}

const cache = new WeakMap<z.ZodTypeAny, z.ZodTypeAny>();

/** `schema` with every nested object strict; unknown keys fail with unknownKeyMessage at their path. */
export function strictSchema<S extends z.ZodTypeAny>(schema: S): S {
  return rebuild(schema) as S;
}

function rebuild(s: z.ZodTypeAny): z.ZodTypeAny {
  const hit = cache.get(s);
  if (hit) return hit;
  const out = rebuildUncached(s);
  cache.set(s, out);
  return out;
}

function rebuildUncached(s: z.ZodTypeAny): z.ZodTypeAny {
  const def = s._def as Record<string, unknown> & { typeName: z.ZodFirstPartyTypeKind };
  const K = z.ZodFirstPartyTypeKind;
  switch (def.typeName) {
    case K.ZodObject: {
      const o = s as z.AnyZodObject;
      const shape = Object.fromEntries(Object.entries(o.shape as z.ZodRawShape).map(([k, v]) => [k, rebuild(v)]));
      const known = Object.keys(shape);
      // A declared catchall (records of extra keys) or passthrough is the schema saying "any key": keep it.
      const catchall = def.catchall as z.ZodTypeAny;
      if (!(catchall instanceof z.ZodNever) || def.unknownKeys === "passthrough") return new z.ZodObject({ ...(o._def as z.ZodObjectDef), shape: () => shape, catchall: rebuild(catchall) });
      const refuse = z.unknown().superRefine((_v, ctx) => {
        const key = String(ctx.path[ctx.path.length - 1] ?? "");
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: unknownKeyMessage(key, known) });
      });
      return new z.ZodObject({ ...(o._def as z.ZodObjectDef), shape: () => shape, unknownKeys: "strip", catchall: refuse });
    }
    case K.ZodOptional:
    case K.ZodNullable:
    case K.ZodDefault:
    case K.ZodCatch:
    case K.ZodReadonly:
    case K.ZodBranded:
      return new (s.constructor as new (d: unknown) => z.ZodTypeAny)({ ...def, [def.typeName === K.ZodBranded ? "type" : "innerType"]: rebuild((def.innerType ?? def.type) as z.ZodTypeAny) });
    case K.ZodEffects:
      return new z.ZodEffects({ ...(def as unknown as z.ZodEffectsDef), schema: rebuild(def.schema as z.ZodTypeAny) });
    case K.ZodPipeline:
      return new z.ZodPipeline({ ...(def as unknown as z.ZodPipelineDef<z.ZodTypeAny, z.ZodTypeAny>), in: rebuild(def.in as z.ZodTypeAny), out: rebuild(def.out as z.ZodTypeAny) });
    case K.ZodArray:
      return new z.ZodArray({ ...(def as unknown as z.ZodArrayDef), type: rebuild(def.type as z.ZodTypeAny) });
    case K.ZodRecord:
      return new z.ZodRecord({ ...(def as unknown as z.ZodRecordDef), valueType: rebuild(def.valueType as z.ZodTypeAny) });
    case K.ZodMap:
      return new z.ZodMap({ ...(def as unknown as z.ZodMapDef), valueType: rebuild(def.valueType as z.ZodTypeAny) });
    case K.ZodTuple:
      return new z.ZodTuple({ ...(def as unknown as z.ZodTupleDef), items: (def.items as z.ZodTypeAny[]).map(rebuild) as [], rest: def.rest ? rebuild(def.rest as z.ZodTypeAny) : null });
    case K.ZodUnion:
      return new z.ZodUnion({ ...(def as unknown as z.ZodUnionDef), options: (def.options as z.ZodTypeAny[]).map(rebuild) as [z.ZodTypeAny, z.ZodTypeAny] });
    case K.ZodDiscriminatedUnion: {
      const options = [...(def.options as z.AnyZodObject[])].map((o) => rebuild(o) as z.AnyZodObject);
      return z.discriminatedUnion(def.discriminator as string, options as [z.AnyZodObject, ...z.AnyZodObject[]]);
    }
    case K.ZodIntersection:
      // Strict halves would each refuse the other's keys; an intersection stays as declared.
      return s;
    case K.ZodLazy: {
      const getter = def.getter as () => z.ZodTypeAny;
      return z.lazy(() => rebuild(getter()));
    }
    default:
      return s;
  }
}
