/**
 * Where sessions come from: the input files planned into sources, and one reader per format in a
 * registry. Every file under the given paths is either a source or an issue that says why not
 * (unsupported extension, empty); a source whose content no reader recognises is an issue too.
 *
 * A source is one unit of reading: a file, a Claude Code session with the subagent transcripts
 * that belong to it (`<session>/subagents/agent-<id>.jsonl`, or sibling `agent-<id>.jsonl` files
 * whose records name the session), or an OpenHands conversation's `events/` folder.
 */
import { closeSync, existsSync, fstatSync, openSync, readdirSync, readFileSync, readSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, extname, join, resolve } from "node:path";
import type { ReadOptions } from "./claude.js";
import { readClaudeGroup } from "./subagents.js";
import { readChatRecords, readChatSessions } from "./chat.js";
import { obj } from "./builder.js";
import { isCodexRecord, readCodexRollout } from "./codex.js";
import { parseRecord, readRecords } from "./lines.js";
import { isOpenHandsEvent, openHandsEvents, readOpenHandsEvents } from "./openhands.js";
import type { IngestIssue, Session, TraceFormat } from "./schema.js";
import { isMiniSweAgentTrajectory, isSweAgentTrajectory, readMiniSweAgentTrajectory, readSweAgentTrajectory } from "./swe.js";

export interface TraceSource {
  /** The file (or folder) the source is named by in reports. */
  path: string;
  /** JSON lines, one JSON document, or a folder of one-event JSON files. */
  container: "jsonl" | "json" | "event-dir";
  /** Its files: the main file first (a Claude Code session's subagent transcripts follow). */
  files: string[];
}

/** Extensions read as JSON lines / as one JSON document. */
const JSONL = [".jsonl", ".ndjson"];
const JSON_DOC = [".json", ".traj"];

/** Whether a folder is an OpenHands file store's events/ folder (`<n>.json` files only). */
function isEventDir(dir: string, names: string[]): boolean {
  return basename(dir) === "events" && names.length > 0 && names.every((n) => /^\d+\.json$/.test(n));
}

/** The head of a file's first line, parsed (to read a subagent transcript's sessionId). */
function firstRecord(file: string): Record<string, unknown> | null {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const buf = Buffer.allocUnsafe(256 * 1024);
    const text = buf.toString("utf8", 0, readSync(fd, buf, 0, buf.length, 0));
    const nl = text.indexOf("\n");
    const p = parseRecord((nl >= 0 ? text.slice(0, nl) : text).replace(/^\uFEFF/, ""));
    return p.ok ? p.value : null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Plans the sources under `paths` (folders walked recursively, sorted; symbolic links followed, each
 * real file and folder once). A missing path is an error that names it. `group`: fold Claude Code
 * subagent transcripts into the session they belong to (default true).
 */
export function planSources(paths: string[], opts: { group?: boolean } = {}): { sources: TraceSource[]; skipped: IngestIssue[] } {
  const sources: TraceSource[] = [];
  const skipped: IngestIssue[] = [];
  const visited = new Set<string>();
  const once = (p: string): boolean => {
    const real = realpathSync(p);
    if (visited.has(real)) return false;
    visited.add(real);
    return true;
  };
  const addFile = (p: string, size: number) => {
    const name = basename(p);
    const ext = name.endsWith(".traj.json") ? ".json" : extname(name).toLowerCase();
    if (size === 0) skipped.push({ file: p, line: 0, reason: "empty file" });
    else if (JSONL.includes(ext)) sources.push({ path: p, container: "jsonl", files: [p] });
    else if (JSON_DOC.includes(ext)) sources.push({ path: p, container: "json", files: [p] });
    else skipped.push({ file: p, line: 0, reason: `unsupported extension (${ext || "none"}): not a trace file` });
  };
  const walk = (dir: string) => {
    if (!once(dir)) return;
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    if (isEventDir(dir, entries.map((e) => e.name))) {
      const files = entries.map((e) => join(dir, e.name)).sort((a, b) => Number(basename(a, ".json")) - Number(basename(b, ".json")));
      sources.push({ path: dir, container: "event-dir", files });
      return;
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      let size = 0;
      if (e.isSymbolicLink() || isFile) {
        const st = statSync(p, { throwIfNoEntry: false });
        if (!st) {
          skipped.push({ file: p, line: 0, reason: "dangling symbolic link" });
          continue;
        }
        isDir = st.isDirectory();
        isFile = st.isFile();
        size = st.size;
      }
      if (isDir) walk(p);
      else if (isFile && once(p)) addFile(p, size);
    }
  };
  for (const p of paths) {
    const abs = resolve(p);
    if (!existsSync(abs)) throw new Error(`no such file or directory: ${p}`);
    const st = statSync(abs);
    if (st.isDirectory()) walk(abs);
    else if (once(abs)) {
      addFile(abs, st.size);
      // a Claude Code session named on its own brings its subagent transcripts along
      if (opts.group !== false && abs.endsWith(".jsonl")) for (const c of companions(abs)) if (once(c)) addFile(c, statSync(c).size);
    }
  }
  return { sources: opts.group === false ? sources : groupSubagents(sources), skipped };
}

/** A session file's subagent transcripts: `<session>/subagents/agent-*.jsonl`, and sibling
 *  `agent-*.jsonl` files whose first record names the session. */
function companions(file: string): string[] {
  const dir = dirname(file);
  const stem = basename(file, ".jsonl");
  if (/^agent-/.test(stem)) return [];
  const out: string[] = [];
  const sub = join(dir, stem, "subagents");
  if (existsSync(sub) && statSync(sub).isDirectory()) for (const n of readdirSync(sub).sort()) if (/^agent-.+\.jsonl$/.test(n)) out.push(join(sub, n));
  for (const n of readdirSync(dir).sort()) if (/^agent-.+\.jsonl$/.test(n) && firstRecord(join(dir, n))?.sessionId === stem) out.push(join(dir, n));
  return out;
}

/** Folds each Claude Code subagent transcript (`agent-<id>.jsonl`) into its session's source: the
 *  2.1 layout `<session>/subagents/`, or a sibling file whose records carry the session's id. */
function groupSubagents(sources: TraceSource[]): TraceSource[] {
  const byPath = new Map(sources.filter((s) => s.container === "jsonl").map((s) => [s.path, s]));
  const folded = new Set<TraceSource>();
  for (const s of sources) {
    if (s.container !== "jsonl" || !/^agent-.+\.jsonl$/.test(basename(s.path))) continue;
    const dir = dirname(s.path);
    const inSubagents = basename(dir) === "subagents";
    let parent = inSubagents ? byPath.get(`${dirname(dir)}.jsonl`) : undefined;
    if (!parent) {
      const sid = firstRecord(s.path)?.sessionId;
      if (typeof sid === "string" && /^[\w.-]+$/.test(sid)) parent = byPath.get(join(dir, `${sid}.jsonl`)) ?? (inSubagents ? byPath.get(join(dirname(dir), `${sid}.jsonl`)) : undefined);
    }
    if (parent && parent !== s) {
      parent.files.push(s.path);
      folded.add(s);
    }
  }
  return sources.filter((s) => !folded.has(s));
}

/** The first lines of a file (a 64 KB prefix grown until it holds a whole line), at most 50. */
async function headLines(file: string): Promise<string[]> {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    let n = Math.min(size, 64 * 1024);
    for (;;) {
      const buf = Buffer.allocUnsafe(n);
      const bytesRead = readSync(fd, buf, 0, n, 0);
      const head = buf.subarray(0, bytesRead);
      const lastNl = head.lastIndexOf(10);
      if (lastNl !== -1 || bytesRead >= size) {
        const text = head.toString("utf8", 0, bytesRead >= size ? bytesRead : lastNl).replace(/^\uFEFF/, "");
        return text.split("\n").slice(0, 50);
      }
      n = Math.min(size, n * 4);
    }
  } finally {
    closeSync(fd);
  }
}

type Reader = (source: TraceSource, opts: ReadOptions, issues: IngestIssue[], doc?: unknown) => AsyncGenerator<Session>;

/**
 * One entry per format: which containers it comes in, how its content is recognised (from a JSON
 * line, or from a whole document), and its reader. Order matters where shapes overlap: the
 * specific formats come before the generic chat trajectory (whose `messages[]` / `trajectory[]`
 * SWE-agent and mini-swe-agent documents also have).
 */
export interface FormatEntry {
  format: TraceFormat;
  /** A JSON line of this format (jsonl sources). */
  line?: (r: Record<string, unknown>) => boolean;
  /** A whole JSON document of this format (json sources). */
  doc?: (d: unknown) => boolean;
  read: Reader;
}

/** One JSON document of a json source (parsed once; read by whichever entry recognises it). */
function parseDoc(file: string, issues: IngestIssue[]): unknown {
  const text = readFileSync(file, "utf8").replace(/^\uFEFF/, "");
  try {
    return JSON.parse(text);
  } catch (e) {
    const m = /position (\d+)/.exec((e as Error).message);
    const line = m ? text.slice(0, Number(m[1])).split("\n").length : 0;
    issues.push({ file, line, reason: `malformed JSON (${(e as Error).message})` });
    return undefined;
  }
}

async function* openHandsReader(source: TraceSource, opts: ReadOptions, issues: IngestIssue[], doc?: unknown): AsyncGenerator<Session> {
  if (source.container === "event-dir") {
    const events: Record<string, unknown>[] = [];
    for (const f of source.files) {
      const d = parseDoc(f, issues);
      if (d !== undefined) events.push(d as Record<string, unknown>);
    }
    const s = readOpenHandsEvents(source.path, basename(dirname(source.path)), events, opts, issues, undefined, 1);
    if (s) yield s;
    return;
  }
  const file = source.files[0]!;
  if (source.container === "json") {
    const events = openHandsEvents(doc);
    const d = doc as Record<string, unknown>;
    const id = (!Array.isArray(doc) && (typeof d.instance_id === "string" || typeof d.id === "string") ? String(d.instance_id ?? d.id) : null) ?? basename(file, extname(file));
    const s = events ? readOpenHandsEvents(file, id, events, opts, issues) : null;
    if (s) yield s;
    return;
  }
  // JSON lines: one event a line (a session a file), or an evaluation output (a run a line)
  const events: Record<string, unknown>[] = [];
  const lines: number[] = [];
  for await (const { line, value: r } of readRecords(file, issues)) {
    const history = openHandsEvents(r);
    if (history && Array.isArray(r.history)) {
      const s = readOpenHandsEvents(file, String(r.instance_id ?? r.id ?? `${file}:${line}`), history, opts, issues, undefined, line);
      if (s) yield s;
    } else {
      events.push(r);
      lines.push(line);
    }
  }
  if (events.length) {
    const s = readOpenHandsEvents(file, basename(file, extname(file)), events, opts, issues, lines);
    if (s) yield s;
  }
}

export const FORMATS: readonly FormatEntry[] = [
  { format: "codex", line: isCodexRecord, read: (s, o, i) => readCodexRollout(s.files[0]!, o, i) },
  { format: "swe-agent", doc: isSweAgentTrajectory, read: async function* (s, o, i, d) { const x = readSweAgentTrajectory(s.files[0]!, d as Record<string, unknown>, o, i); if (x) yield x; } },
  { format: "mini-swe-agent", doc: isMiniSweAgentTrajectory, read: async function* (s, o, i, d) { const x = readMiniSweAgentTrajectory(s.files[0]!, d as Record<string, unknown>, o, i); if (x) yield x; } },
  { format: "openhands", line: (r) => isOpenHandsEvent(r) || openHandsEvents(r) !== null, doc: (d) => openHandsEvents(d) !== null, read: openHandsReader },
  { format: "claude", line: (r) => typeof r.type === "string" && ("uuid" in r || "sessionId" in r || "message" in r || r.type === "summary"), read: (s, o, i) => readClaudeGroup(s.files, o, i) },
  {
    format: "chat",
    line: (r) => Array.isArray(r.messages) || Array.isArray(r.conversation) || Array.isArray(r.trajectory),
    read: (s, o, i) => readChatSessions(s.files[0]!, o, i),
  },
];

const entry = (f: TraceFormat): FormatEntry => FORMATS.find((e) => e.format === f)!;

/** Tells the format of a JSON-lines file from its first parseable records (at most 50 lines). */
export async function detectFormat(file: string): Promise<TraceFormat | null> {
  for (const text of await headLines(file)) {
    if (text.trim() === "") continue;
    const p = parseRecord(text);
    if (!p.ok) continue;
    const hit = FORMATS.find((e) => e.line?.(p.value));
    if (hit) return hit.format;
  }
  return null;
}

/**
 * Reads one source: its format detected from the content (or `format` forced), then its reader.
 * Yields its sessions and the format they were read as; what cannot be read becomes an issue.
 */
export async function* readSource(source: TraceSource, format: TraceFormat | "auto" | undefined, opts: ReadOptions, issues: IngestIssue[]): AsyncGenerator<Session> {
  const forced = format && format !== "auto" ? entry(format) : null;
  let hit: FormatEntry | undefined;
  let doc: unknown;
  if (source.container === "event-dir") hit = forced ?? entry("openhands");
  else if (source.container === "json") {
    doc = parseDoc(source.files[0]!, issues);
    if (doc === undefined) return;
    hit = forced ?? FORMATS.find((e) => e.doc?.(doc));
    if (!hit && Array.isArray(obj(doc)?.messages)) hit = entry("chat");
    if (hit && !hit.doc && hit.format !== "chat") {
      issues.push({ file: source.path, line: 0, reason: `the ${hit.format} format comes as JSON lines, not one JSON document` });
      return;
    }
    if (hit?.format === "chat") {
      // a chat trajectory (or a list of them) as one document: read as if it were JSON lines
      const list = Array.isArray(doc) ? doc : [doc];
      yield* readChatDocs(source.files[0]!, list, opts, issues);
      return;
    }
  } else {
    const f = forced ? forced.format : await detectFormat(source.files[0]!);
    hit = f ? entry(f) : undefined;
  }
  if (!hit) {
    issues.push({ file: source.path, line: 0, reason: `could not tell the format (no ${FORMATS.map((e) => e.format).join(", ")} record in the first lines)` });
    return;
  }
  yield* hit.read(source, opts, issues, doc);
}

async function* readChatDocs(file: string, list: unknown[], opts: ReadOptions, issues: IngestIssue[]): AsyncGenerator<Session> {
  yield* readChatRecords(file, list.map((value, i) => ({ line: i + 1, value: value as Record<string, unknown> })), opts, issues);
}
