/**
 * Claude Code subagents, folded into the session that spawned them. Three layouts occur:
 * `<session>/subagents/agent-<id>.jsonl` (2.1), sibling `agent-<id>.jsonl` files whose records are
 * `isSidechain: true` and carry the parent's sessionId (before 2.1), and `agent_progress` records
 * in the parent itself, each carrying one of the subagent's messages (`data.message`, with
 * `data.agentId` and the record's `parentToolUseID`). A transcript is tied to the call that spawned
 * it by, in order: the agent id the Task/Agent result names (`toolUseResult.agentId`, or
 * "agentId: <id>" in its text), the progress records' parent tool-use id, or its first prompt
 * being a Task/Agent call's `prompt`. Compaction agents (`agent-acompact-*`) and warm-ups (a
 * "Warmup" sidechain no call spawned) are labelled as such. Subagent turns follow the parent's
 * turns (chain "sidechain", `agentId` set), so the parent's turn indices never move.
 */
import { basename, dirname } from "node:path";
import { claudeSession, emptyLinks, readClaudeSession, type ClaudeLinks, type ReadOptions } from "./claude.js";
import type { IngestIssue, Session, SubagentLink, Turn } from "./schema.js";

const SPAWNING_TOOL = /^(?:Task|Agent)$/;
const agentIdOfFile = (f: string): string | null => /^agent-(.+)\.jsonl$/.exec(basename(f))?.[1] ?? null;
const firstPrompt = (s: Session): string => s.turns.find((t) => t.role === "user" && t.text.trim() !== "")?.text.trim() ?? "";

export async function* readClaudeGroup(files: string[], opts: ReadOptions, issues: IngestIssue[]): AsyncGenerator<Session> {
  const [main, ...agentFiles] = files;
  const links: ClaudeLinks = emptyLinks();
  const parent = await readClaudeSession(main!, opts, issues, links);
  if (!parent) {
    // nothing to attach to: each transcript stands alone
    for (const f of agentFiles) {
      const s = await readClaudeSession(f, opts, issues);
      if (s) yield s;
    }
    return;
  }
  const subagents: SubagentLink[] = [];
  const claimed = new Set<string>();
  const spawning = parent.turns.flatMap((t) => t.toolCalls.filter((c) => SPAWNING_TOOL.test(c.name)).map((c) => ({ call: c, turn: t })));
  const turnOfCall = new Map<string, Turn>();
  for (const t of parent.turns) for (const c of t.toolCalls) if (!turnOfCall.has(c.id)) turnOfCall.set(c.id, t);

  const fold = (sub: Session, agentId: string, file: string, layout: SubagentLink["layout"]) => {
    let parentCallId: string | null = links.resultAgent.get(agentId) ?? null;
    let linkedBy: SubagentLink["linkedBy"] = parentCallId ? "result_agent_id" : null;
    if (!parentCallId && links.progressParent.has(agentId)) {
      parentCallId = links.progressParent.get(agentId)!;
      linkedBy = "progress_parent";
    }
    const prompt = firstPrompt(sub);
    if (!parentCallId && prompt) {
      const byPrompt = spawning.find(({ call }) => !claimed.has(call.id) && typeof (call.input as { prompt?: unknown } | null)?.prompt === "string" && (call.input as { prompt: string }).prompt.trim() === prompt);
      if (byPrompt) {
        parentCallId = byPrompt.call.id;
        linkedBy = "prompt";
      }
    }
    if (parentCallId) claimed.add(parentCallId);
    const kind: SubagentLink["kind"] = /^acompact/.test(agentId) ? "compaction" : !parentCallId && /^warm-?up\b/i.test(prompt) ? "warmup" : "task";
    const parentTurn = parentCallId ? turnOfCall.get(parentCallId) : undefined;
    const turns: Turn[] = sub.turns;
    for (const t of turns) {
      t.index = parent.turns.length;
      t.chain = "sidechain";
      t.agentId = agentId;
      parent.turns.push(t);
    }
    subagents.push({ agentId, file, layout, kind, parentCallId, parentTurnIndex: parentTurn?.index ?? null, linkedBy, turns: turns.length });
  };

  const folded = new Set<string>();
  for (const f of agentFiles) {
    const sub = await readClaudeSession(f, opts, issues, undefined, links.uuids);
    if (!sub) continue;
    const agentId = sub.turns.find((t) => t.agentId)?.agentId ?? agentIdOfFile(f) ?? basename(f, ".jsonl");
    folded.add(agentId);
    fold(sub, agentId, f, basename(dirname(f)) === "subagents" ? "subagents_dir" : "sibling_file");
  }
  // transcripts that exist only as agent_progress records in the parent
  for (const [agentId, records] of links.progressRecords) {
    if (folded.has(agentId)) continue;
    const sub = await claudeSession(main!, records, opts, []);
    if (sub) fold(sub, agentId, main!, "progress_records");
  }
  if (subagents.length) parent.subagents = subagents;
  yield parent;
}
