/**
 * Deleting Python symbols from a source file, editing only their lines (the rest of the file keeps
 * its formatting): replace the body with `raise NotImplementedError` (a class body with `pass`),
 * or remove the definition and the imports it leaves dead. Hint starvation strips the docstring,
 * the type hints, or (removal) the signature itself.
 */
import { pythonFacts, type PySymbol } from "./pyast.js";

export interface DeleteOptions {
  mode?: "stub" | "remove";
  /** Strip the docstring (a hint-starvation knob). */
  strip_docstring?: boolean;
  /** Strip the signature's type hints (a hint-starvation knob). */
  strip_type_hints?: boolean;
}

export function findSymbol(source: string, qualname: string, file = "<source>"): PySymbol {
  const facts = pythonFacts({ [file]: source })[file]!;
  if (facts.error) throw new Error(`${file}: ${facts.error}`);
  const s = facts.symbols.find((x) => x.qualname === qualname);
  if (!s) throw new Error(`${file}: no function or class named ${qualname}`);
  return s;
}

/** Removes the annotations of a signature (edits applied right to left, line by line). */
function stripHints(lines: string[], s: PySymbol): string[] {
  const out = [...lines];
  const edits = s.hints.map((h) => {
    if (h.start === "returns") {
      const [rl, rc] = h.returns_start!;
      // find the "->" before the return annotation
      let line = rl;
      let col = out[rl - 1]!.lastIndexOf("->", rc);
      while (col < 0 && line > s.lineno) col = out[--line - 1]!.lastIndexOf("->");
      const startCol = out[line - 1]!.slice(0, col).replace(/\s+$/, "").length;
      return { sl: line, sc: startCol, el: h.end[0], ec: h.end[1], text: "" };
    }
    return { sl: h.start[0], sc: h.start[1], el: h.end[0], ec: h.end[1], text: h.text };
  });
  edits.sort((a, b) => b.sl - a.sl || b.sc - a.sc);
  for (const e of edits) {
    const head = out[e.sl - 1]!.slice(0, e.sc);
    const tail = out[e.el - 1]!.slice(e.ec);
    out.splice(e.sl - 1, e.el - e.sl + 1, head + e.text + tail);
  }
  return out;
}

/** Top-level imports no longer used once `removed` is gone (names it used, unused elsewhere). */
function dropDeadImports(text: string, removed: PySymbol, file: string): string {
  const facts = pythonFacts({ [file]: text })[file]!;
  if (facts.error) return text;
  let lines = text.split("\n");
  const body = (skip: number) => lines.filter((_, i) => i !== skip - 1).join("\n");
  for (const imp of [...facts.imports].filter((b) => !b.assign).sort((a, b) => b.lineno - a.lineno)) {
    const dead = imp.names.filter((n) => removed.names.includes(n.split(".")[0]!) && !new RegExp(`\\b${n.split(".")[0]}\\b`).test(body(imp.lineno)));
    if (dead.length === 0) continue;
    const line = lines[imp.lineno - 1]!;
    if (dead.length === imp.names.length) lines.splice(imp.lineno - 1, 1);
    else {
      const m = line.match(/^(\s*from\s+\S+\s+import\s+)(.+)$/);
      if (!m || m[2]!.includes("(")) continue; // multi-line lists: leave as they are
      const kept = m[2]!.split(",").map((x) => x.trim()).filter((x) => !dead.includes(x.split(/\s+as\s+/).pop()!));
      lines[imp.lineno - 1] = m[1] + kept.join(", ");
    }
    lines = [...lines];
  }
  return lines.join("\n");
}

/** The file's text with `qualname` deleted. */
export function deleteSymbol(source: string, qualname: string, opts: DeleteOptions = {}, file?: string): string {
  const s = findSymbol(source, qualname, file);
  let lines = source.split("\n");
  if (opts.mode === "remove") {
    const rest = [...lines.slice(0, s.start - 1), ...lines.slice(s.end_lineno)];
    // collapse the blank lines left behind to at most two
    const joined = rest.join("\n").replace(/\n{4,}/g, "\n\n\n");
    return dropDeadImports(joined, s, file ?? "<source>");
  }
  const indent = " ".repeat(s.body_col);
  const headerEnd = (s.doc_span ? s.doc_span[0] : s.body_start ?? s.end_lineno + 1) - 1; // lines before the docstring/body
  let header = lines.slice(s.start - 1, headerEnd);
  if (opts.strip_type_hints && s.hints.length) header = stripHints(lines, s).slice(s.start - 1, headerEnd);
  const doc = s.doc_span && !opts.strip_docstring ? lines.slice(s.doc_span[0] - 1, s.doc_span[1]) : [];
  // A class body that raises would break every import of the module: an emptied class stays importable.
  const stub = s.kind === "class" ? `${indent}pass` : `${indent}raise NotImplementedError`;
  lines = [...lines.slice(0, s.start - 1), ...header, ...doc, stub, ...lines.slice(s.end_lineno)];
  return lines.join("\n");
}

/** Deletes several symbols of one file (bottom-up, so line numbers stay valid). */
export function deleteSymbols(source: string, qualnames: string[], opts: DeleteOptions = {}, file?: string): string {
  if (qualnames.length === 1) return deleteSymbol(source, qualnames[0]!, opts, file);
  const facts = pythonFacts({ [file ?? "<source>"]: source })[file ?? "<source>"]!;
  const order = [...qualnames].sort((a, b) => (facts.symbols.find((s) => s.qualname === b)?.start ?? 0) - (facts.symbols.find((s) => s.qualname === a)?.start ?? 0));
  return order.reduce((text, q) => deleteSymbol(text, q, opts, file), source);
}
