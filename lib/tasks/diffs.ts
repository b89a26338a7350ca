/** Unified diffs between trees, and applying a diff to a tree safely (paths confined to it). */
import { createTwoFilesPatch, parsePatch, applyPatch } from "diff";
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, normalize, sep } from "node:path";

/** A git-style unified diff of one file (a/ and b/ prefixes). */
export function fileDiff(path: string, before: string, after: string): string {
  if (before === after) return "";
  const text = createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, { context: 3 });
  return text.slice(text.indexOf("--- "));
}

const stripPrefix = (p: string | undefined): string | null => {
  if (!p || p === "/dev/null") return null;
  // (a CRLF diff leaves "\r" at the end of its header lines)
  const clean = p.replace(/\t.*$/, "").replace(/\r$/, "");
  return clean.startsWith("a/") || clean.startsWith("b/") ? clean.slice(2) : clean;
};

/** A path from a diff, resolved inside `root`, or an error (absolute, `..`, through a symlink). */
export function confinedPath(root: string, rel: string): string {
  if (isAbsolute(rel) || normalize(rel).split(sep).includes("..")) throw new Error(`path ${rel} leaves the repository`);
  const realRoot = realpathSync(root);
  const full = join(realRoot, rel);
  // every existing component must be a real directory/file inside the root (no symlinks)
  let cur = realRoot;
  for (const part of normalize(rel).split(sep)) {
    cur = join(cur, part);
    if (!existsSync(cur)) break;
    if (lstatSync(cur).isSymbolicLink()) throw new Error(`path ${rel} goes through a symbolic link`);
  }
  return full;
}

export interface AppliedPatch {
  files: { path: string; op: "modify" | "create" | "delete" }[];
}

/** Which hunk of a file's patch does not apply, with its header and the first line it expects. */
function failingHunk(before: string, p: ReturnType<typeof parsePatch>[number]): string {
  for (const [i, h] of p.hunks.entries()) {
    if (applyPatch(before, { ...p, hunks: [h] }) !== false) continue;
    const expected = h.lines.find((l) => l.startsWith(" ") || l.startsWith("-"));
    return `hunk ${i + 1} of ${p.hunks.length} (@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@) expects ${expected ? JSON.stringify(expected.slice(1).slice(0, 120)) : "lines"} near line ${h.oldStart}, which the file does not have there`;
  }
  return `its ${p.hunks.length} hunk(s) apply one by one but not together (they overlap)`;
}

/** parsePatch, its errors naming the file whose hunk is malformed (the library names only a line). */
function parseNamed(diffText: string): ReturnType<typeof parsePatch> {
  try {
    return parsePatch(diffText);
  } catch (e) {
    const at = Number((e as Error).message.match(/at line (\d+)/)?.[1] ?? 0);
    const file = at ? diffText.split("\n").slice(0, at).reverse().find((l) => l.startsWith("+++ "))?.slice(4).replace(/^b\//, "").split("\t")[0] : undefined;
    throw new Error(`malformed patch${file ? ` for ${file}` : ""}: ${(e as Error).message}`);
  }
}

/** Applies a unified diff (several files allowed) to the tree at `root`. Throws, naming the file,
 *  when a hunk does not apply; nothing is written unless every file applies. */
export function applyUnifiedDiff(root: string, diffText: string): AppliedPatch {
  const patches = parseNamed(diffText);
  // A diff written with CRLF line endings (a Windows client, a copy-paste) against LF files: the same
  // diff with LF endings, tried for each file whose own text has no CR.
  const lfPatches = diffText.includes("\r\n") ? parsePatch(diffText.replace(/\r\n/g, "\n")) : null;
  const writes: { path: string; full: string; content: string | null; op: "modify" | "create" | "delete" }[] = [];
  for (const [i, raw] of patches.entries()) {
    let p = raw;
    const oldPath = stripPrefix(p.oldFileName);
    const newPath = stripPrefix(p.newFileName);
    const path = newPath ?? oldPath;
    if (!path) continue;
    if (p.hunks.length === 0) continue;
    const full = confinedPath(root, path);
    const before = oldPath && existsSync(confinedPath(root, oldPath)) ? readFileSync(confinedPath(root, oldPath), "utf8") : "";
    let after = applyPatch(before, p);
    if (after === false && lfPatches?.[i] && !before.includes("\r")) {
      p = lfPatches[i]!;
      after = applyPatch(before, p);
    }
    if (after === false) throw new Error(`patch does not apply to ${path}: ${failingHunk(before, p)}`);
    writes.push({ path, full, content: newPath ? after : null, op: !newPath ? "delete" : oldPath ? "modify" : "create" });
  }
  if (writes.length === 0) throw new Error("the diff changes no file");
  for (const w of writes) {
    if (w.content === null) rmSync(w.full, { force: true });
    else {
      mkdirSync(dirname(w.full), { recursive: true });
      writeFileSync(w.full, w.content);
    }
  }
  return { files: writes.map(({ path, op }) => ({ path, op })) };
}
