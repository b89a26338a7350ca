/** Deleting a candidate from a working copy: symbols (stub or remove), import sites, a whole module; the golden diff back. */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RepoLayout } from "../sandbox/index.js";
import { dropImportNames, importsOf, moduleName } from "./closure.js";
import { deleteSymbol, deleteSymbols, type DeleteOptions } from "./delete.js";
import { fileDiff } from "./diffs.js";
import { GateFailure } from "./gates.js";
import { pythonFacts, starveSources } from "./pyast.js";
import { sourceFiles } from "./repo_files.js";

/** Applies deletions (file → qualnames; `remove` ones are removed whatever the mode) to `broken`, a
 *  copy of `original`, after starving the touched files' context; returns the golden diff (broken →
 *  the starved original, which gate 4 checks). */
export function deleteInto(original: string, broken: string, deletions: { file: string; qualname: string; remove?: boolean }[], opts: DeleteOptions, starve: StarveList = [], importDrops: { file: string; lineno: number; end_lineno: number; names: string[]; whole: boolean }[] = []): string {
  const byFile = new Map<string, typeof deletions>();
  for (const d of [...deletions, ...importDrops.map((i) => ({ file: i.file, qualname: "" }))]) byFile.set(d.file, [...(byFile.get(d.file) ?? []), d]);
  const diffs: string[] = [];
  for (const [file, items] of byFile) {
    let before = readFileSync(join(original, file), "utf8");
    const drops = importDrops.filter((i) => i.file === file).sort((a, b) => b.lineno - a.lineno);
    const syms = items.filter((d) => d.qualname);
    let after = before;
    try {
      // import statements first (bottom-up; symbol deletion re-reads line numbers itself)
      for (const i of drops) after = dropImportNames(after, i.lineno, i.end_lineno, i.names, i.whole);
      if (starve.length) {
        const starved = starveSources({ [file]: before, [`${file}::after`]: after }, { docstrings: starve.includes("docstrings"), type_hints: starve.includes("type_hints"), comments: starve.includes("comments") });
        [before, after] = [starved[file]!, starved[`${file}::after`]!];
      }
      if (syms.every((d) => !d.remove)) after = syms.length ? deleteSymbols(after, syms.map((d) => d.qualname), opts, file) : after;
      else {
        const facts = pythonFacts({ [file]: after })[file]!;
        const startOf = (q: string) => facts.symbols.find((x) => x.qualname === q)?.start ?? 0;
        for (const d of [...syms].sort((a, b) => startOf(b.qualname) - startOf(a.qualname))) after = deleteSymbol(after, d.qualname, d.remove ? { ...opts, mode: "remove" } : opts, file);
      }
    } catch (e) {
      throw new GateFailure("breaks_target", `cannot delete ${syms.map((d) => d.qualname).join(", ") || "imports"} from ${file}: ${(e as Error).message}`);
    }
    writeFileSync(join(broken, file), after);
    diffs.push(fileDiff(file, after, before));
  }
  return diffs.join("");
}

/** Hint starvation of every file a deletion touches (BuildOptions.starve_context). */
export type StarveList = ("docstrings" | "type_hints" | "comments")[];

/** File granularity: the module goes, and the import statements naming it elsewhere in the project. */
export function deleteModuleInto(original: string, broken: string, file: string, layout: RepoLayout, opts: DeleteOptions, starve: StarveList): string {
  const target = moduleName(file, layout.roots);
  const sources = sourceFiles(original);
  const facts = pythonFacts(Object.fromEntries(sources.map((f) => [f, readFileSync(join(original, f), "utf8")])));
  const sites = target ? importsOf(target, facts, layout.roots).filter((i) => i.file !== file) : [];
  const golden = sites.length ? deleteInto(original, broken, [], opts, starve, sites) : "";
  const text = readFileSync(join(original, file), "utf8");
  rmSync(join(broken, file));
  return golden + fileDiff(file, "", text).replace(`--- a/${file}`, "--- /dev/null");
}
