/** Feature granularity: a public symbol and the helpers only it uses (featureClosure). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { featureClosure } from "../closure.js";
import { deleteInto } from "../deletion.js";
import { pythonFacts } from "../pyast.js";
import { describeSymbols, slug, type GranularityStrategy } from "./strategy.js";

export const featureGranularity: GranularityStrategy = {
  name: "feature",
  select(ctx, file, facts) {
    const out = [];
    for (const s of facts.symbols) {
      if (s.qualname.includes(".") || s.qualname.startsWith("_") || !s.body_start) continue;
      const closure = featureClosure(file, s, ctx.texts(), ctx.facts, ctx.roots);
      if (closure.length < 2) {
        ctx.funnel.no_closure = (ctx.funnel.no_closure ?? 0) + 1;
        continue;
      }
      const tests = [...new Set(closure.flatMap((c) => ctx.testsOf(c.file, c.symbol.body_start ?? c.symbol.start, c.symbol.end_lineno)))];
      out.push({
        id: `${ctx.repoSlug}-feature-${slug(`${file.replace(/\.py$/, "")}.${s.qualname}`)}`, file,
        qualnames: closure.map((c) => `${c.file}::${c.symbol.qualname}`), tests, lines: closure.reduce((n, c) => n + c.symbol.end_lineno - c.symbol.start + 1, 0),
      });
    }
    return out;
  },
  delete(ctx, _c, deleted) {
    // the root keeps the chosen mode; the helpers only it used are removed
    const [root, ...helpers] = deleted;
    const sites = helpers.flatMap((h) => pythonFacts({ [root!.file]: readFileSync(join(ctx.original, root!.file), "utf8") })[root!.file]!.imports
      .filter((i) => !i.assign && i.names.includes(h.qualname) && h.file !== root!.file)
      .map((i) => ({ file: root!.file, lineno: i.lineno, end_lineno: i.end_lineno ?? i.lineno, names: [h.qualname], whole: i.names.length === 1 })));
    return { golden: deleteInto(ctx.original, ctx.broken, [root!, ...helpers.map((h) => ({ ...h, remove: true }))], ctx.delete, ctx.starve, sites), runAll: ctx.allTests };
  },
  describe: (_c, deleted) => describeSymbols(deleted),
  harder: null,
  capsSpan: true,
};
