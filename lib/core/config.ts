/** Config files: JSON or YAML (by extension), validated by a zod schema; errors name the file and field. */
import { readFileSync } from "node:fs";
import YAML from "yaml";
import type { z } from "zod";

export function loadConfigFile<S extends z.ZodTypeAny>(file: string, schema: S, overrides: Record<string, unknown> = {}): z.output<S> {
  let raw: unknown;
  try {
    const text = readFileSync(file, "utf8");
    raw = /\.json$/i.test(file) ? JSON.parse(text) : YAML.parse(text);
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`);
  }
  const r = schema.safeParse(Object.keys(overrides).length ? { ...(raw as object), ...overrides } : raw);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new Error(`${file}: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  return r.data;
}
