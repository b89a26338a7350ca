/**
 * The seed's larger deletion spans over a project's source files:
 *  - file: the module goes, and the import statements that name it elsewhere in the project go
 *    with it (so the tests that reach it fail, the rest of the package still imports);
 *  - feature: a public symbol with its import-graph closure — the helpers (same module, or imported
 *    from another project module) that nothing but the feature uses, transitively.
 * "Used" is textual (a word-boundary match anywhere in the project's sources and tests, outside
 * the closure), which errs towards keeping a helper; the four gates decide the rest.
 */
import type { PyFileFacts, PySymbol } from "./pyast.js";

/** Dotted module name of a source file under one of the layout's roots ("src/pkg/a.py" → "pkg.a"). */
export function moduleName(file: string, roots: string[]): string | null {
  for (const root of [...roots].sort((a, b) => b.length - a.length)) {
    const prefix = root === "." ? "" : `${root.replace(/\/$/, "")}/`;
    if (!file.startsWith(prefix)) continue;
    const parts = file.slice(prefix.length).replace(/\.py$/, "").split("/");
    if (parts[parts.length - 1] === "__init__") parts.pop();
    return parts.length ? parts.join(".") : null;
  }
  return null;
}

/** The module an import statement of `file` names (relative imports resolved). */
export function resolveImport(file: string, roots: string[], module: string | null, level: number): string | null {
  if (level === 0) return module;
  const self = moduleName(file, roots);
  if (self === null) return null;
  const isPackage = file.endsWith("__init__.py");
  const base = self.split(".");
  const up = isPackage ? level - 1 : level;
  if (up > base.length) return null;
  const pkg = base.slice(0, base.length - up);
  return [...pkg, ...(module ? [module] : [])].join(".") || null;
}

const word = (name: string) => new RegExp(`(?<![\\w.])${name.replace(/[^\w]/g, "")}(?!\\w)`);

export interface ImportSite {
  file: string;
  lineno: number;
  end_lineno: number;
  /** Names the statement binds from the deleted module (or the module itself). */
  names: string[];
  /** Whether the statement binds nothing else (then it goes whole). */
  whole: boolean;
}

/** Import statements in the project's sources that bind the module `target` or names from it. */
export function importsOf(target: string, facts: Record<string, PyFileFacts>, roots: string[]): ImportSite[] {
  const out: ImportSite[] = [];
  const parent = target.split(".").slice(0, -1).join(".");
  const leaf = target.split(".").pop()!;
  for (const [file, f] of Object.entries(facts)) {
    for (const imp of f.imports) {
      if (imp.assign) continue;
      const mod = resolveImport(file, roots, imp.module, imp.level);
      if (mod === target) out.push({ file, lineno: imp.lineno, end_lineno: imp.end_lineno ?? imp.lineno, names: imp.names, whole: true });
      else if (mod === parent && imp.names.includes(leaf)) out.push({ file, lineno: imp.lineno, end_lineno: imp.end_lineno ?? imp.lineno, names: [leaf], whole: imp.names.length === 1 });
      else if (imp.level === 0 && imp.module === null && imp.names.some((n) => n === target || n.startsWith(`${target}.`))) out.push({ file, lineno: imp.lineno, end_lineno: imp.end_lineno ?? imp.lineno, names: imp.names, whole: imp.names.length === 1 });
    }
  }
  return out;
}

/** Removes `names` from the import statement at lines [lineno, end] of `text` (the whole statement when none is left). */
export function dropImportNames(text: string, lineno: number, end: number, names: string[], whole = false): string {
  const lines = text.split("\n");
  const stmt = lines.slice(lineno - 1, end).join("\n");
  const indent = stmt.match(/^\s*/)![0];
  let kept = stmt;
  if (!whole) {
    const m = stmt.match(/^(\s*from\s+\S+\s+import\s+)\(?([\s\S]*?)\)?\s*$/);
    if (m) {
      const items = m[2]!.split(",").map((x) => x.trim()).filter(Boolean).filter((x) => !names.includes(x.split(/\s+as\s+/).pop()!));
      kept = items.length ? `${m[1]}${items.join(", ")}` : "";
    } else kept = "";
  } else kept = "";
  // An emptied statement inside a block must still leave the block a body.
  const replacement = kept === "" ? (indent.length ? [`${indent}pass`] : []) : kept.split("\n");
  lines.splice(lineno - 1, end - lineno + 1, ...replacement);
  return lines.join("\n");
}

export interface ClosureMember {
  file: string;
  symbol: PySymbol;
}

/**
 * The feature rooted at `root` (a top-level symbol of `file`): it and every top-level helper it
 * reaches — defined in its module or imported from another project module — that no code outside
 * the closure names. `texts` holds every project Python file (sources and tests).
 */
export function featureClosure(file: string, root: PySymbol, texts: Record<string, string>, facts: Record<string, PyFileFacts>, roots: string[]): ClosureMember[] {
  const closure: ClosureMember[] = [{ file, symbol: root }];
  const fileOfModule = new Map<string, string>();
  for (const f of Object.keys(facts)) {
    const m = moduleName(f, roots);
    if (m) fileOfModule.set(m, f);
  }
  const lines = new Map(Object.entries(texts).map(([f, t]) => [f, t.split("\n")]));
  const inClosure = (f: string, line: number) => closure.some((c) => c.file === f && line >= c.symbol.start && line <= c.symbol.end_lineno);
  const importLine = (f: string, line: number) => (facts[f]?.imports ?? []).some((i) => !i.assign && line >= i.lineno && line <= (i.end_lineno ?? i.lineno));
  const onlyClosureUses = (name: string, def: ClosureMember) => {
    const re = word(name);
    for (const [f, ls] of lines) {
      for (let i = 0; i < ls.length; i++) {
        if (!re.test(ls[i]!)) continue;
        const n = i + 1;
        if (inClosure(f, n) || (f === def.file && n >= def.symbol.start && n <= def.symbol.end_lineno)) continue;
        if (importLine(f, n) && closure.some((c) => c.file === f)) continue;
        return false;
      }
    }
    return true;
  };
  for (let grew = true; grew; ) {
    grew = false;
    for (const member of [...closure]) {
      for (const name of member.symbol.names) {
        const defs: ClosureMember[] = [];
        const local = facts[member.file]?.symbols.find((s) => s.qualname === name && s.body_start !== null);
        if (local) defs.push({ file: member.file, symbol: local });
        for (const imp of facts[member.file]?.imports ?? []) {
          if (imp.assign || !imp.names.includes(name)) continue;
          const src = fileOfModule.get(resolveImport(member.file, roots, imp.module, imp.level) ?? "");
          const sym = src ? facts[src]?.symbols.find((s) => s.qualname === name) : undefined;
          if (src && sym) defs.push({ file: src, symbol: sym });
        }
        for (const d of defs) {
          if (closure.some((c) => c.file === d.file && c.symbol.qualname === d.symbol.qualname)) continue;
          if (/^__\w+__$/.test(name) || !onlyClosureUses(name, d)) continue;
          closure.push(d);
          grew = true;
        }
      }
    }
  }
  return closure;
}
