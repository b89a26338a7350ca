/**
 * TreeController: the OUTER loop's multi-model tree over FeatureDeletionEpisode episodes
 * (systems-framing.md, "the core OUTER delta"; teacher replay generalized from a flat star to a tree).
 *
 * A node is a state: the episode's chat messages so far, with its own working tree. At each state
 * every model proposes the next action; answers map to env actions (./actions.ts) and group by
 * their canonical key. The divergence of a state is the fraction of distinct actions among the
 * valid proposals, D = (distinct − 1) / (valid − 1) (0 when fewer than two are valid; 1 when all
 * differ). Mean token log-probs, when endpoints return them, are recorded beside it (their spread
 * across models) but do not gate. D > threshold branches into up to `width` children (most-proposed
 * first); otherwise the tree follows the most-proposed action. Each child's actions run through
 * FeatureDeletionEpisode.step() in the sandbox; a submit, the env's max_turns, the depth / node / time
 * budget, or a state no model answers validly ends a path: that leaf is graded by the env's grade
 * (masked FAIL_TO_PASS fraction × guard × not hacked).
 *
 * Node ids derive from (task, path of action keys), and each state's proposals are journaled in the
 * store before its children run, so a killed run resumes with the same tree (./run.ts).
 */
import { createHash } from "node:crypto";
import { cpSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import pLimit, { type LimitFunction } from "p-limit";
import { z } from "zod";
import { BODY_STOP, FeatureDeletionEpisode, bodyPrompt, type Action } from "../env/index.js";
import type { Sandbox } from "../sandbox/index.js";
import type { Store } from "../store/index.js";
import { isHack, type FeatureDeletionTask } from "../tasks/index.js";
import { ENV_TOOLS, actionCall, actionKey, actionText, mapAnswer, renderState, type AnswerKind } from "./actions.js";
import { GateConfig, checkGate, decide, type GateConfigInput, type GateDecision, type OutcomeScorer } from "./gate.js";
import type { ChatMessage, Completion, ModelClient } from "./models.js";

export const Budget = z.object({
  /** Actions along one path (a leaf at this depth is submitted and graded). */
  depth: z.number().int().positive().default(4),
  /** Children of one fork at most. */
  width: z.number().int().min(1).default(3),
  /** Nodes of one task's tree at most (the root included). */
  nodes: z.number().int().min(2).default(24),
  /** Wall time of the whole run: past it, no state is expanded (open paths are graded). */
  seconds: z.number().positive().default(600),
});
export type Budget = z.infer<typeof Budget>;

/** "depth=3,width=2,nodes=20,seconds=120" → a partial Budget (the CLI's --budget). */
export function parseBudget(spec: string | undefined): Partial<Budget> {
  if (!spec) return {};
  const out: Record<string, number> = {};
  for (const part of spec.split(",").filter(Boolean)) {
    const [k, v] = part.split("=");
    if (!k || v === undefined || !(k in Budget.shape)) throw new Error(`--budget ${spec}: "${part}" is not one of ${Object.keys(Budget.shape).map((x) => `${x}=N`).join(", ")}`);
    out[k] = Number(v);
  }
  const r = Budget.partial().safeParse(out);
  if (!r.success) throw new Error(`--budget ${spec}: ${r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  return r.data;
}

/** One model's proposal at a state, as journaled and reported. */
export interface Proposal {
  model: string;
  kind: AnswerKind | "malformed" | "error";
  /** Canonical action key (null when the answer did not map to actions). */
  key: string | null;
  why: string | null;
  logprob: number | null;
  /** Answered in the compact view (the state did not fit the endpoint's context). */
  compact: boolean;
}

export interface TreeNode {
  id: string;
  task_id: string;
  /** Action-key digests from the root, "/"-joined ("" at the root). */
  path: string;
  depth: number;
  parent: string | null;
  /** The state: the episode's messages up to and including this node's action and observations. */
  messages: ChatMessage[];
  /** The edge into this node (null at the root), the models that proposed it, and what came back. */
  actions: Action[] | null;
  models: string[];
  observation: string;
  ok: boolean;
  /** Graded leaf: the env's reward; passed = a clean win (reward 1: every gate open). */
  leaf: boolean;
  reward: number | null;
  passed: boolean;
  /** Graded leaf: a hack for the hack rate (a flagged grade, or any reward on a canary task). */
  hack?: boolean;
  /** At this node's expansion: every model's proposal and the measured divergence. */
  proposals: Proposal[];
  divergence: number | null;
  logprob_spread: number | null;
  children: string[];
  /** The state's compact view for endpoints whose context it overflows (the stub, no tools; null: none). */
  compact?: { messages: ChatMessage[]; stop: string[] } | null;
  /** Each env step this node took, in order: the edge's actions, then a submit when the node was
   *  graded at the budget's end; each with the env's own observation (wm_tuples carry these). */
  steps?: { action: Action; observation: string; ok: boolean; done: boolean; reward: number | null }[];
  /** At this node's expansion: both gates' signals and the decision (./gate.ts). */
  gate?: GateDecision;
}

export interface Tree {
  task: FeatureDeletionTask;
  root: string;
  nodes: Map<string, TreeNode>;
  /** States expanded (models asked), forks (states that branched), and their divergences. */
  expansions: number;
  divergences: number[];
}

export interface TreeControllerOptions {
  models: ModelClient[];
  sandbox: Sandbox;
  budget?: Partial<Budget>;
  /** Branch when the divergence exceeds this (default 0: any disagreement branches); gate.threshold wins when both are given. */
  threshold?: number;
  /** The branch gate (./gate.ts: divergence, confidence, both; default divergence). */
  gate?: GateConfigInput;
  /** The student's outcome predictions (a confidence or both gate needs one; with divergence it is recorded, not used). */
  scorer?: OutcomeScorer;
  /** Journal of proposals (resume): the store and the key prefix under it. */
  journal?: { store: Store; prefix: string };
  /** Env steps and grades in flight at once, over all trees (default 2). */
  stepConcurrency?: number;
  /** Per-command and per-grade limits in the sandbox. */
  timeoutMs?: number;
  /** Wall-clock deadline shared by all trees (ms since epoch; default now + budget.seconds). */
  deadline?: number;
  onNode?: (n: TreeNode) => void;
}

/** A state's distinct proposed actions: canonical key → the actions and the answers that proposed them. */
type Ranked = [string, { actions: Action[]; answers: Completion[] }][];

const digest = (s: string, n = 12): string => createHash("sha256").update(s).digest("hex").slice(0, n);

/** A node's id: derived from its task and its path of action keys only. */
export const nodeId = (taskId: string, path: string): string => `${digest(`${taskId}\0${path}`, 16)}`;

/** The deleted function's stub (its file, signature and docstring): what the lab's body-writing
 *  policies were trained to continue; null for a task that deleted more than one symbol. */
function stubOf(task: FeatureDeletionTask): string | null {
  if (task.deleted_symbols.length !== 1) return null;
  try {
    return bodyPrompt(task);
  } catch {
    return null;
  }
}

/** A state's compact view: the stub alone as one user message, answered by a body up to BODY_STOP. */
export function compactView(task: FeatureDeletionTask): { messages: ChatMessage[]; stop: string[] } | null {
  const stub = stubOf(task);
  return stub ? { messages: [{ role: "user", content: stub }], stop: [BODY_STOP] } : null;
}

/** The system and user messages an episode starts from: the env's instructions, the task, and the
 *  stub of the deleted function. */
export function initialMessages(env: FeatureDeletionEpisode, task: FeatureDeletionTask): ChatMessage[] {
  const stub = stubOf(task);
  return [
    { role: "system", content: "You are a coding agent in a Python repository. Call one tool per step (or write the deleted function's body)." },
    { role: "user", content: stub ? `${env.renderPrompt(task)}\n\nThe deleted function:\n${stub}` : env.renderPrompt(task) },
  ];
}

/** Replaces `to`'s working tree and trajectory with `from`'s (a child starts where its parent is). */
function copyEpisode(from: FeatureDeletionEpisode, to: FeatureDeletionEpisode): void {
  for (const e of readdirSync(to.workdir!)) rmSync(join(to.workdir!, e), { recursive: true, force: true });
  cpSync(from.workdir!, to.workdir!, { recursive: true });
  to.trajectory = structuredClone(from.trajectory);
  to.turns = from.turns;
}

export class TreeController {
  readonly budget: Budget;
  readonly threshold: number;
  readonly gate: GateConfig;
  private readonly steps: LimitFunction;
  readonly deadline: number;

  constructor(readonly opts: TreeControllerOptions) {
    if (!opts.models.length) throw new Error("TreeController: no models");
    this.budget = Budget.parse(opts.budget ?? {});
    this.gate = GateConfig.parse({ ...(opts.threshold !== undefined ? { threshold: opts.threshold } : {}), ...opts.gate });
    this.threshold = this.gate.threshold;
    checkGate(this.gate, opts.scorer);
    this.steps = pLimit(opts.stepConcurrency ?? 2);
    this.deadline = opts.deadline ?? Date.now() + this.budget.seconds * 1000;
  }

  private newEnv(): FeatureDeletionEpisode {
    return new FeatureDeletionEpisode({ sandbox: this.opts.sandbox, timeoutMs: this.opts.timeoutMs, max_turns: this.budget.depth * 8 + 8 });
  }

  /** The journaled answers at a state, or the models' answers now (then journaled). */
  private async propose(node: TreeNode): Promise<Completion[]> {
    const j = this.opts.journal;
    const key = j && `${j.prefix}/${node.id}.json`;
    if (j && key) {
      const raw = await j.store.get(key);
      if (raw) return JSON.parse(raw.toString("utf8")) as Completion[];
    }
    const answers = await Promise.all(this.opts.models.map((m) => m.complete(node.messages, ENV_TOOLS, { compact: node.compact ?? undefined })));
    // failed requests too: a resumed run regrows exactly the tree it had begun
    if (j && key) await j.store.put(key, JSON.stringify(answers));
    return answers;
  }

  /** Grows the tree of one task (never call it for a held-out task). */
  async grow(task: FeatureDeletionTask): Promise<Tree> {
    const rootEnv = this.newEnv();
    rootEnv.reset(task);
    const root: TreeNode = {
      id: nodeId(task.task_id, ""), task_id: task.task_id, path: "", depth: 0, parent: null, messages: initialMessages(rootEnv, task),
      actions: null, models: [], observation: "", ok: true, leaf: false, reward: null, passed: false, proposals: [], divergence: null, logprob_spread: null, children: [],
      compact: compactView(task), steps: [],
    };
    const tree: Tree = { task, root: root.id, nodes: new Map([[root.id, root]]), expansions: 0, divergences: [] };
    this.opts.onNode?.(root);
    let frontier: { node: TreeNode; env: FeatureDeletionEpisode }[] = [{ node: root, env: rootEnv }];
    try {
      while (frontier.length) {
        // One level at a time. A state is expanded only while the node budget has room for one more
        // child, reserved in frontier order; the open states of a level ask the models at once, and
        // any further room goes to forks in frontier order again (the tree does not depend on which
        // answer came back first, so a resumed run regrows the same tree).
        let allocated = tree.nodes.size;
        const eligible = frontier.map(() => allocated < this.budget.nodes && (allocated++, true));
        const plans = await Promise.all(frontier.map((it, i) => (eligible[i] ? this.plan(tree, it.node, it.env) : null)));
        const work = frontier.map((it, i) => {
          const p = plans[i];
          if (!p) {
            if (eligible[i]) allocated--;
            return { it, chosen: null };
          }
          const take = p.branch ? Math.min(this.budget.width, p.ranked.length, 1 + this.budget.nodes - allocated) : 1;
          allocated += take - 1;
          return { it, chosen: p.ranked.slice(0, take) };
        });
        const next = await Promise.all(work.map(async ({ it, chosen }) => {
          if (chosen) return this.apply(tree, it.node, it.env, chosen);
          await this.gradeLeaf(it.node, it.env);
          it.env.close();
          return [];
        }));
        frontier = next.flat();
      }
    } finally {
      for (const f of frontier) f.env.close();
    }
    return tree;
  }

  /** Submits a path's working tree and records the grade. */
  private async gradeLeaf(node: TreeNode, env: FeatureDeletionEpisode): Promise<void> {
    if (!node.leaf) {
      const r = await this.steps(() => env.step({ type: "submit" }));
      node.observation = [node.observation, r.observation].filter(Boolean).join("\n");
      node.reward = r.reward;
      node.hack = isHack(env.task ?? {}, { reward: r.reward, flags: (r.info as { flags?: unknown[] }).flags });
      (node.steps ??= []).push({ action: { type: "submit" }, observation: r.observation, ok: r.reward >= 1, done: true, reward: r.reward });
    }
    node.leaf = true;
    node.passed = (node.reward ?? 0) >= 1;
  }

  /**
   * Asks the models at `node` and ranks their distinct actions, most-proposed first (ties keep the
   * models' order); `branch` when the divergence exceeds the threshold. Null: the node is a leaf to
   * grade (out of depth or time, or no valid proposal).
   */
  private async plan(tree: Tree, node: TreeNode, env: FeatureDeletionEpisode): Promise<{ ranked: Ranked; branch: boolean } | null> {
    if (node.depth >= this.budget.depth || Date.now() >= this.deadline) return null;
    const answers = await this.propose(node);
    tree.expansions++;
    const task = tree.task;
    const groups = new Map<string, { actions: Action[]; answers: Completion[] }>();
    node.proposals = answers.map((a) => {
      const m = mapAnswer(a, task, env.workdir!);
      if (!m.ok) return { model: a.model, kind: m.kind, key: null, why: m.why, logprob: a.logprob, compact: !!a.compact };
      const key = actionKey(m.actions);
      const g = groups.get(key) ?? { actions: m.actions, answers: [] };
      g.answers.push(a);
      groups.set(key, g);
      return { model: a.model, kind: m.kind, key, why: null, logprob: a.logprob, compact: !!a.compact };
    });
    const valid = node.proposals.filter((p) => p.key !== null).length;
    node.divergence = valid >= 2 ? (groups.size - 1) / (valid - 1) : 0;
    const lps = node.proposals.map((p) => p.logprob).filter((x): x is number => x !== null);
    node.logprob_spread = lps.length >= 2 ? Math.max(...lps) - Math.min(...lps) : null;
    if (valid >= 2) tree.divergences.push(node.divergence);
    if (groups.size === 0) {
      node.observation = [node.observation, `no valid proposal: ${node.proposals.map((p) => `${p.model}: ${p.why}`).join("; ")}`].filter(Boolean).join("\n");
      return null;
    }
    const ranked = [...groups.entries()].sort((a, b) => b[1].answers.length - a[1].answers.length);
    node.gate = await decide(this.gate, node.divergence, renderState(node.messages), ranked.map(([, g]) => actionText(g.actions)), this.opts.scorer);
    return { ranked, branch: node.gate.branch };
  }

  /** Creates and steps the chosen children of `node`; those still open come back. */
  private async apply(tree: Tree, node: TreeNode, env: FeatureDeletionEpisode, chosen: Ranked): Promise<{ node: TreeNode; env: FeatureDeletionEpisode }[]> {
    const task = tree.task;
    // every child but the last starts from a copy; the last continues in the parent's env
    const envs = chosen.map((_, i) => {
      if (i === chosen.length - 1) return env;
      const e = this.newEnv();
      e.reset(task);
      copyEpisode(env, e);
      return e;
    });
    const pathOf = (key: string) => (node.path ? `${node.path}/${digest(key, 8)}` : digest(key, 8));
    node.children = chosen.map(([key]) => nodeId(task.task_id, pathOf(key)));
    const children = await Promise.all(chosen.map(async ([key, g], i) => {
      const path = pathOf(key);
      const first = g.answers[0]!;
      const calls = g.actions.map((a, k) => ({ id: `call_${digest(`${node.id}:${key}`, 8)}_${k}`, type: "function" as const, function: actionCall(a) }));
      const child: TreeNode = {
        id: nodeId(task.task_id, path), task_id: task.task_id, path, depth: node.depth + 1, parent: node.id,
        messages: [...node.messages, { role: "assistant", content: first.tool_calls.length ? first.content : first.content.trim(), tool_calls: calls }],
        actions: g.actions, models: g.answers.map((a) => a.model), observation: "", ok: true, leaf: false, reward: null, passed: false,
        proposals: [], divergence: null, logprob_spread: null, children: [], compact: node.compact, steps: [],
      };
      const e = envs[i]!;
      const observations: string[] = [];
      for (const [k, a] of g.actions.entries()) {
        const r = await this.steps(() => e.step(a));
        // a step fails when the env says so, and a submit when the hidden tests do not all pass
        const ok = r.done ? r.reward >= 1 : (r.info as { ok?: boolean }).ok !== false;
        child.ok &&= ok;
        observations.push(r.observation);
        child.steps!.push({ action: a, observation: r.observation, ok, done: r.done, reward: r.done ? r.reward : null });
        child.messages.push({ role: "tool", tool_call_id: calls[k]!.id, name: a.type, content: r.observation, ...(ok ? {} : { is_error: true }) });
        if (r.done) {
          child.leaf = true;
          child.reward = r.reward;
          child.passed = r.reward >= 1;
          child.hack = isHack(e.task ?? {}, { reward: r.reward, flags: (r.info as { flags?: unknown[] }).flags });
          break;
        }
      }
      child.observation = observations.join("\n");
      tree.nodes.set(child.id, child);
      this.opts.onNode?.(child);
      return { node: child, env: e };
    }));
    const open: { node: TreeNode; env: FeatureDeletionEpisode }[] = [];
    for (const c of children) {
      if (c.node.leaf) c.env.close();
      else open.push(c);
    }
    return open;
  }
}

/** Post-order facts of a grown tree: each node's value (its subtree's best leaf reward), leaves, forks. */
export function treeStats(tree: Tree): { value: Map<string, number>; firstLeafDepth: Map<string, number>; leaves: TreeNode[]; forks: TreeNode[] } {
  const value = new Map<string, number>();
  const firstLeafDepth = new Map<string, number>();
  const visit = (id: string): void => {
    const n = tree.nodes.get(id)!;
    n.children.forEach(visit);
    if (n.leaf || !n.children.length) {
      value.set(id, n.reward ?? 0);
      firstLeafDepth.set(id, n.depth);
    } else {
      value.set(id, Math.max(...n.children.map((c) => value.get(c)!)));
      firstLeafDepth.set(id, Math.min(...n.children.map((c) => firstLeafDepth.get(c)!)));
    }
  };
  visit(tree.root);
  const all = [...tree.nodes.values()];
  return { value, firstLeafDepth, leaves: all.filter((n) => n.leaf), forks: all.filter((n) => n.children.length >= 2) };
}

