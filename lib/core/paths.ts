import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cachedRoot: string | undefined;

/** The composer-lab checkout this module belongs to (found from the module's own location, so it
 *  holds whether we run from lib/ via tsx or from dist/lib/ compiled). */
export function projectRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, "utf8")).name === "composer-lab") {
      cachedRoot = dir;
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error("composer-lab: cannot find the project root (package.json named composer-lab) above " + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

export const datasetsDir = (...parts: string[]): string => join(projectRoot(), "datasets", ...parts);
export const scratchDir = (...parts: string[]): string => join(projectRoot(), "scratch", ...parts);

/** A sortable, filesystem-safe timestamp: 2026-11-29T19-52-47-123Z. */
export function timestampSlug(date = new Date()): string {
  return date.toISOString().replace(/[:.]/g, "-");
}

