/**
 * Deleting a Python symbol from a source file, editing only its lines (the rest of the file keeps
 * its formatting): replace the body with `raise NotImplementedError`, or remove the definition.
 * Hint starvation can also strip the docstring.
 */
import { pythonFacts, type PySymbol } from "./pyast.js";

export interface DeleteOptions {
  mode?: "stub" | "remove";
  /** Strip the docstring too (a hint-starvation knob). */
  strip_docstring?: boolean;
}

export function findSymbol(source: string, qualname: string, file = "<source>"): PySymbol {
  const facts = pythonFacts({ [file]: source })[file]!;
  if (facts.error) throw new Error(`${file}: ${facts.error}`);
  const s = facts.symbols.find((x) => x.qualname === qualname);
  if (!s) throw new Error(`${file}: no function or class named ${qualname}`);
  return s;
}

/** The file's text with `qualname` deleted. */
export function deleteSymbol(source: string, qualname: string, opts: DeleteOptions = {}, file?: string): string {
  const s = findSymbol(source, qualname, file);
  const lines = source.split("\n");
  if (opts.mode === "remove") return [...lines.slice(0, s.start - 1), ...lines.slice(s.end_lineno)].join("\n");
  const indent = " ".repeat(s.body_col);
  const headerEnd = (s.doc_span ? s.doc_span[0] : s.body_start ?? s.end_lineno + 1) - 1; // lines before the docstring/body
  const header = lines.slice(s.start - 1, headerEnd);
  const doc = s.doc_span && !opts.strip_docstring ? lines.slice(s.doc_span[0] - 1, s.doc_span[1]) : [];
  // A class body that raises would break every import of the module: an emptied class stays importable.
  const stub = s.kind === "class" ? `${indent}pass` : `${indent}raise NotImplementedError`;
  return [...lines.slice(0, s.start - 1), ...header, ...doc, stub, ...lines.slice(s.end_lineno)].join("\n");
}
