/** File granularity: the module goes, and the imports naming it elsewhere in the project. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { moduleName } from "../closure.js";
import { deleteModuleInto } from "../deletion.js";
import { slug, type GranularityStrategy } from "./strategy.js";

export const fileGranularity: GranularityStrategy = {
  name: "file",
  select(ctx, file, facts) {
    // A package's __init__ is its import surface, not a module to delete.
    const top = facts.symbols.filter((s) => !s.qualname.includes(".") && s.body_start);
    if (top.length === 0 || file.endsWith("__init__.py") || moduleName(file, ctx.roots) === null) return [];
    const tests = [...new Set(top.flatMap((s) => ctx.testsOf(file, s.start, s.end_lineno)))];
    const lines = readFileSync(join(ctx.repo, file), "utf8").split("\n").length;
    return [{ id: `${ctx.repoSlug}-file-${slug(file)}`, file, qualnames: top.map((s) => s.qualname), tests, lines }];
  },
  delete(ctx, c) {
    const golden = deleteModuleInto(ctx.original, ctx.broken, c.file, ctx.layout, ctx.delete, ctx.starve);
    // A deleted module fails its importers at collection: the module's test files are its targets.
    const testFiles = new Set(c.tests.map((t) => t.split("::")[0]));
    return { golden, affected: ctx.allTests.filter((t) => testFiles.has(t.split("::")[0])), runAll: ctx.allTests };
  },
  describe: (c) => `Re-implement the module ${c.file}.`,
  harder: "feature",
  capsSpan: false,
};
