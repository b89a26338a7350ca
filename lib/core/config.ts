/** Config files: JSON or YAML (by extension), validated by a zod schema made strict (lib/core/strict.ts);
 *  errors name the file, the line, the field and, for an unknown key, the closest known one. */
import { readFileSync } from "node:fs";
import YAML, { LineCounter, isNode } from "yaml";
import type { z } from "zod";
import { strictSchema } from "./strict.js";

/** Every issue of a failed parse as `file:line: path: message` lines (the line where the field is written, when it is). */
export function describeIssues(file: string, text: string | null, issues: readonly z.ZodIssue[], max = 8): string {
  let locate: (path: readonly (string | number)[]) => number | null = () => null;
  if (text !== null) {
    const lineCounter = new LineCounter();
    const doc = YAML.parseDocument(text, { lineCounter });
    locate = (path) => {
      // The deepest written node on the path: an unknown key's own line, a missing key's parent.
      for (let n = path.length; n >= 0; n--) {
        const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
        if (isNode(node) && node.range) {
          // A key's line, when the path ends at a map entry: the pair's key, not its value.
          const parent = n > 0 ? (n === 1 ? doc.contents : doc.getIn(path.slice(0, n - 1), true)) : null;
          const pair = YAML.isMap(parent) ? parent.items.find((p) => YAML.isScalar(p.key) && String(p.key.value) === String(path[n - 1])) : undefined;
          const at = pair && isNode(pair.key) && pair.key.range ? pair.key.range[0] : node.range[0];
          return lineCounter.linePos(at).line;
        }
      }
      return null;
    };
  }
  const lines = issues.slice(0, max).map((i) => {
    const line = locate(i.path);
    return `${file}${line ? `:${line}` : ""}: ${i.path.join(".") || "(root)"}: ${i.message}`;
  });
  if (issues.length > max) lines.push(`… and ${issues.length - max} more`);
  return lines.join("\n");
}

export function loadConfigFile<S extends z.ZodTypeAny>(file: string, schema: S, overrides: Record<string, unknown> = {}): z.output<S> {
  let raw: unknown;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
    raw = /\.json$/i.test(file) ? JSON.parse(text) : YAML.parse(text);
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`);
  }
  const r = strictSchema(schema).safeParse(Object.keys(overrides).length ? { ...(raw as object), ...overrides } : raw);
  if (!r.success) throw new Error(describeIssues(file, text, r.error.issues));
  return r.data;
}
