/**
 * A deletion granularity (what one deletion removes) as one unit: which candidates a file offers,
 * how a candidate is deleted and which tests then decide it, how the task is described, and the
 * next harder level the curriculum escalates to. The builder and escalate.ts read the registry
 * (index.ts); neither branches on a granularity's name.
 */
import type { z } from "zod";
import type { RepoLayout } from "../../sandbox/index.js";
import type { DeleteOptions } from "../delete.js";
import type { StarveList } from "../deletion.js";
import type { PyFileFacts } from "../pyast.js";
import type { Granularity } from "../schema.js";

export type GranularityName = z.infer<typeof Granularity>;

export interface Candidate {
  id: string;
  file: string;
  /** Qualnames in `file`, or `file::qualname` for a candidate spanning files. */
  qualnames: string[];
  /** Tests that ran the candidate's lines. */
  tests: string[];
  lines: number;
}

export interface SelectContext {
  /** The scrubbed working copy, its package roots, and the id prefix of its candidates. */
  repo: string;
  roots: string[];
  repoSlug: string;
  /** Tests that ran any of these lines of a file. */
  testsOf: (file: string, from: number, to: number) => string[];
  /** Every Python file's source and facts (read once, on first use). */
  texts: () => Record<string, string>;
  facts: Record<string, PyFileFacts>;
  /** Counts per filter, for the build report's funnel. */
  funnel: Record<string, number>;
}

export interface DeleteContext {
  original: string;
  broken: string;
  layout: RepoLayout;
  delete: DeleteOptions;
  starve: StarveList;
  /** Every test that passes on the original. */
  allTests: string[];
}

/** A candidate deleted from the broken copy: the golden diff back, and the tests that decide it. */
export interface Deletion {
  golden: string;
  /** Tests that may be affected (default: the candidate's covering tests). */
  affected?: string[];
  /** Run these at gates 2–3 instead of the affected ones (reach that is not line coverage). */
  runAll?: string[];
}

export interface GranularityStrategy {
  name: GranularityName;
  /** The candidates of this granularity in one source file. */
  select(ctx: SelectContext, file: string, facts: PyFileFacts): Candidate[];
  /** Deletes the candidate (its symbols resolved to files) from ctx.broken. */
  delete(ctx: DeleteContext, c: Candidate, deleted: { file: string; qualname: string }[]): Deletion;
  /** The task's statement of what to implement (no code). */
  describe(c: Candidate, deleted: { file: string; qualname: string }[]): string;
  /** The next harder level (escalate.ts's span knob), null at the widest. */
  harder: GranularityName | null;
  /** Whether `max_lines` bounds a candidate (a whole module is as long as it is). */
  capsSpan: boolean;
}

export const slug = (s: string) => s.replace(/[^\w.-]+/g, "_").replace(/^_+|_+$/g, "").slice(0, 80);

/** The symbols of one kind (functions or classes) with a body, not nested in a function, not dunders but __init__. */
export function symbolCandidates(ctx: SelectContext, file: string, facts: PyFileFacts, kind: "function" | "class"): Candidate[] {
  const out: Candidate[] = [];
  for (const s of facts.symbols) {
    if (s.kind !== kind || !s.body_start) continue;
    const parent = s.qualname.split(".").slice(0, -1).join(".");
    if (parent && facts.symbols.find((p) => p.qualname === parent)?.kind === "function") continue;
    if (/^__\w+__$/.test(s.qualname.split(".").pop()!) && s.qualname.split(".").pop() !== "__init__") continue;
    out.push({ id: `${ctx.repoSlug}-${kind}-${slug(`${file.replace(/\.py$/, "")}.${s.qualname}`)}`, file, qualnames: [s.qualname], tests: ctx.testsOf(file, s.body_start, s.end_lineno), lines: s.end_lineno - s.body_start + 1 });
  }
  return out;
}

/** "Re-implement f in a.py and g in b.py." */
export const describeSymbols = (deleted: { file: string; qualname: string }[]): string => `Re-implement ${deleted.map((d) => `${d.qualname} in ${d.file}`).join(" and ")}.`;
