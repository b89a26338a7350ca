/**
 * Routing a grown tree into the store's six prefixes, per systems-framing.md's keystone ("type the
 * signal and route it"): clean winning leaves → sft_corpus; at every fork, (sibling winner, loser)
 * → dpo_pairs with the full state messages; every step of every branch → wm_tuples (a failed branch
 * is poison for the policy gradient but gold for the world model); forks → divergence_pairs with
 * the measured divergence and the sibling subtree that separated first; tasks → rl_task_pool with a
 * difficulty from their outcomes; held-out tasks → holdout only, never expanded.
 *
 * Writes are idempotent: every item's id derives from node ids, and a DedupWriter skips ids the run
 * already holds (a resumed run re-routes an unfinished task without duplicating anything).
 */
import type { RunLayout, Section, SectionItem } from "../store/index.js";
import { SECTIONS } from "../store/index.js";
import { actionCall, actionText, renderState } from "./actions.js";
import type { ChatMessage } from "./models.js";
import { treeStats, type Tree, type TreeNode } from "./tree.js";

export type PrefixCounts = Record<Section, number>;
export const emptyCounts = (): PrefixCounts => Object.fromEntries(Object.keys(SECTIONS).map((s) => [s, 0])) as PrefixCounts;

/** Adds items to a run's sections, skipping ids the run (or this writer) already has. */
export class DedupWriter {
  private seen = new Map<Section, Set<string>>();
  readonly written = emptyCounts();
  skipped = 0;
  private constructor(readonly run: RunLayout) {}

  static async open(run: RunLayout): Promise<DedupWriter> {
    const w = new DedupWriter(run);
    for (const s of Object.keys(SECTIONS) as Section[]) w.seen.set(s, new Set((await run.read(s)).map((x) => x.id)));
    return w;
  }

  async add<S extends Section>(section: S, item: SectionItem<S>): Promise<boolean> {
    const ids = this.seen.get(section)!;
    if (ids.has(item.id)) {
      this.skipped++;
      return false;
    }
    ids.add(item.id);
    await this.run.writer(section).add(item);
    this.written[section]++;
    return true;
  }

  has(section: Section, id: string): boolean {
    return this.seen.get(section)!.has(id);
  }

  flush(): Promise<void> {
    return this.run.flushAll();
  }
}

export { renderState };

const strip = (messages: ChatMessage[]) => messages.map(({ role, content, tool_calls, tool_call_id, name, is_error }) => ({ role, content, ...(tool_calls ? { tool_calls } : {}), ...(tool_call_id ? { tool_call_id } : {}), ...(name ? { name } : {}), ...(is_error ? { is_error } : {}) }));

export interface RouteOptions {
  round: number;
  /** The task pool folder, recorded in rl_task_pool / holdout entries. */
  pool?: string;
  /** The task's difficulty after this round's outcomes (1 − the curriculum's p̂). */
  difficulty: number;
}

/** Routes one grown tree; returns what it added per prefix. */
export async function routeTree(w: DedupWriter, tree: Tree, opts: RouteOptions): Promise<PrefixCounts> {
  const before = { ...w.written };
  const { round } = opts;
  const task_id = tree.task.task_id;
  const { value, firstLeafDepth, leaves, forks } = treeStats(tree);
  const node = (id: string) => tree.nodes.get(id)!;
  const text = (n: TreeNode) => actionText(n.actions ?? []);

  for (const leaf of leaves) {
    if (!leaf.passed) continue; // a failed branch never enters sft_corpus
    await w.add("sft_corpus", { id: leaf.id, node_id: leaf.id, task_id, messages: strip(leaf.messages), reward: leaf.reward ?? 0, models: leaf.models, round });
  }

  // one tuple per env step: the state before it, the step's action, what the env answered
  for (const n of tree.nodes.values()) {
    const parent = n.parent ? node(n.parent) : null;
    for (const [k, t] of stepTransitions(n, parent).entries()) {
      await w.add("wm_tuples", {
        id: k === 0 && parent ? n.id : `${n.id}:${k}`, node_id: n.id, parent_id: parent?.id ?? null, task_id, depth: n.depth, step: k, models: n.models, ok: t.ok, done: t.done, round,
        state: t.state, action: t.action, next_state: t.next_state, outcome: value.get(n.id) ?? 0,
      });
    }
  }

  for (const f of forks) {
    const kids = f.children.map(node);
    const vals = kids.map((k) => value.get(k.id) ?? 0);
    const best = Math.max(...vals);
    // separated first: among siblings whose outcome differs from another's, the one with the shallowest graded leaf
    const differs = kids.filter((_, i) => vals.some((v) => v !== vals[i]));
    const first = differs.sort((a, b) => firstLeafDepth.get(a.id)! - firstLeafDepth.get(b.id)! || value.get(b.id)! - value.get(a.id)!)[0];
    await w.add("divergence_pairs", {
      id: `${f.id}:fork`, node_id: f.id, task_id, round, state_messages: strip(f.messages), divergence: f.divergence ?? 0, logprob_spread: f.logprob_spread,
      branches: kids.map((k, i) => ({ action: text(k), reward: vals[i]!, models: k.models, node_id: k.id })),
      separated_first: first ? { node_id: first.id, models: first.models, depth: firstLeafDepth.get(first.id)!, reward: value.get(first.id)! } : null,
    });
    // (sibling winner, loser): the best sibling whose subtree holds a clean win, against each lower sibling
    const winner = kids.find((k, i) => vals[i] === best && best >= 1 && subtreePassed(tree, k.id));
    if (!winner) continue;
    for (const [i, k] of kids.entries()) {
      if (k === winner || vals[i]! >= best) continue;
      await w.add("dpo_pairs", {
        id: `${winner.id}>${k.id}`, node_id: f.id, task_id, round, source: "tree", state_messages: strip(f.messages),
        chosen: text(winner), rejected: text(k), chosen_models: winner.models, rejected_models: k.models,
      });
    }
  }

  const graded = leaves.length;
  const passed = leaves.filter((l) => l.passed).length;
  await w.add("rl_task_pool", { id: task_id, task_id, difficulty_prior: Math.min(1, Math.max(0, opts.difficulty)), ...(opts.pool ? { pool: opts.pool } : {}), leaves: graded, passed, round });
  const after = emptyCounts();
  for (const s of Object.keys(after) as Section[]) after[s] = w.written[s] - before[s];
  return after;
}

function subtreePassed(tree: Tree, id: string): boolean {
  const n = tree.nodes.get(id)!;
  return n.passed || n.children.some((c) => subtreePassed(tree, c));
}

/** A held-out task: recorded in holdout, nothing else (never expanded, never fed back). */
export async function routeHoldout(w: DedupWriter, task_id: string, opts: { round: number; pool?: string }): Promise<boolean> {
  return w.add("holdout", { id: task_id, task_id, round: opts.round, ...(opts.pool ? { pool: opts.pool } : {}) });
}

/**
 * A node's env steps as transitions: the state before each step (the parent's messages, then each
 * earlier step of the same edge as its tool call and result), the step's action and the env's
 * observation. A node submitted at the budget's end adds its submit step (state: the node's messages).
 */
export function stepTransitions(n: TreeNode, parent: TreeNode | null): { state: string; action: string; next_state: string; ok: boolean; done: boolean }[] {
  const steps = n.steps ?? [];
  const before: ChatMessage[] = parent ? [...parent.messages] : [];
  return steps.map((s, k) => {
    const edgeStep = k < (n.actions?.length ?? 0);
    const state = renderState(edgeStep ? before : n.messages);
    if (edgeStep) {
      const id = `step_${k}`;
      before.push({ role: "assistant", content: "", tool_calls: [{ id, type: "function", function: actionCall(s.action) }] }, { role: "tool", tool_call_id: id, name: s.action.type, content: s.observation });
    }
    return { state, action: actionText([s.action]), next_state: s.observation, ok: s.ok, done: s.done };
  });
}
