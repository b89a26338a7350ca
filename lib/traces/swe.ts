/**
 * SWE-agent and mini-swe-agent trajectories (one JSON document a run).
 *
 * SWE-agent `<instance>.traj`: `trajectory: [{thought, action, observation, response, state,
 * execution_time}]` (one step per action), `history: [{role, content, agent, message_type,
 * is_demo?, tool_calls?}]` (what the model was shown), `info: {exit_status, submission,
 * model_stats: {instance_cost, tokens_sent, tokens_received, api_calls}}`. The steps are the turns;
 * the history gives the system prompt and the task (demonstrations skipped). An action's tool is
 * its command's first word (SWE-agent's tools are commands: `open`, `edit`, `str_replace_editor`,
 * `python`, `submit`, …). Observations carry no exit code: errors come from the format's text rules.
 *
 * mini-swe-agent `*.traj.json`: `{info: {exit_status, submission, model_stats, mini_version,
 * config}, messages: [...], trajectory_format: "mini-swe-agent-1" | "mini-swe-agent-1.1"}`. Each
 * assistant message holds exactly one ```bash block (its action); the next user message is the
 * observation, `<returncode>N</returncode><output>…</output>` (the structural exit status), or a
 * format error when the response held no single action (a malformed_args site), or a timeout notice.
 * Tool-calling models write OpenAI tool_calls and role "tool" results instead; both are read.
 */
import { basename } from "node:path";
import { SessionBuilder, num, obj, str } from "./builder.js";
import type { ReadOptions } from "./claude.js";
import { contentText } from "./lines.js";
import type { IngestIssue, Session } from "./schema.js";

const base = (file: string) => basename(file).replace(/\.traj(?:\.json)?$|\.json$/, "");

export function isSweAgentTrajectory(doc: unknown): boolean {
  const d = obj(doc);
  if (!d || !Array.isArray(d.trajectory)) return false;
  const first = obj((d.trajectory as unknown[])[0]);
  return (!first && Array.isArray(d.history)) || (!!first && ("action" in first || "observation" in first) && ("thought" in first || "response" in first));
}

export function isMiniSweAgentTrajectory(doc: unknown): boolean {
  const d = obj(doc);
  if (!d || !Array.isArray(d.messages)) return false;
  if (typeof d.trajectory_format === "string" && d.trajectory_format.startsWith("mini-swe-agent")) return true;
  const info = obj(d.info);
  return !!info && ("mini_version" in info || /minisweagent/.test(String(obj(info.config)?.agent_type ?? "")));
}

const stats = (b: SessionBuilder, info: Record<string, unknown> | null) => {
  if (!info) return;
  const ms = obj(info.model_stats) ?? {};
  b.stats.exit_status = str(info.exit_status) ?? undefined;
  b.stats.cost_usd = num(ms.instance_cost);
  b.stats.input_tokens = num(ms.tokens_sent);
  b.stats.output_tokens = num(ms.tokens_received);
  b.stats.model = str(obj(obj(obj(info.config)?.model))?.model_name) ?? undefined;
};

const command = (action: string) => /^\s*([^\s]+)/.exec(action)?.[1] ?? "";

export function readSweAgentTrajectory(file: string, doc: Record<string, unknown>, opts: ReadOptions, issues: IngestIssue[]): Session | null {
  const b = new SessionBuilder(file, "swe-agent", str(obj(doc.info)?.instance_id) ?? str(doc.instance_id) ?? base(file), opts, issues);
  const history = Array.isArray(doc.history) ? (doc.history as unknown[]).map(obj).filter((m): m is Record<string, unknown> => !!m && m.is_demo !== true) : [];
  const system = history.find((m) => m.role === "system");
  const task = history.find((m) => m.role === "user");
  if (system) b.say("system", contentText(system.content), 1);
  if (task) b.say("user", contentText(task.content), 1);
  (doc.trajectory as unknown[]).forEach((raw, i) => {
    const step = obj(raw);
    if (!step) {
      issues.push({ file, line: 1, reason: `trajectory[${i}] is not an object` });
      return;
    }
    const action = typeof step.action === "string" ? step.action.trim() : "";
    const thought = str(step.thought) ?? (action ? "" : (str(step.response) ?? ""));
    b.endResponse();
    if (thought) b.text(1, thought);
    if (action) {
      b.call(1, { id: `step-${i}`, name: command(action), input: { command: action } });
      b.result(1, `step-${i}`, typeof step.observation === "string" ? step.observation : contentText(step.observation), null);
    }
  });
  stats(b, obj(doc.info));
  return b.session();
}

const BASH_BLOCK = /```(?:bash|sh)?\s*\n([\s\S]*?)\n?```/g;
const RETURNCODE = /^\s*<returncode>(-?\d+)<\/returncode>/;

export function readMiniSweAgentTrajectory(file: string, doc: Record<string, unknown>, opts: ReadOptions, issues: IngestIssue[]): Session | null {
  const b = new SessionBuilder(file, "mini-swe-agent", str(obj(doc.info)?.instance_id) ?? str(doc.instance_id) ?? base(file), opts, issues);
  let pending: string | null = null; // the call id the next observation answers
  (doc.messages as unknown[]).forEach((raw, i) => {
    const m = obj(raw);
    if (!m) {
      issues.push({ file, line: 1, reason: `messages[${i}] is not an object` });
      return;
    }
    const role = m.role;
    const content = contentText(m.content);
    if (role === "system") b.say("system", content, 1);
    else if (role === "assistant") {
      b.endResponse();
      const reasoning = m.reasoning_content ?? m.reasoning;
      if (typeof reasoning === "string") b.thinking(1, reasoning);
      const toolCalls = Array.isArray(m.tool_calls) ? (m.tool_calls as unknown[]).map(obj).filter((c): c is Record<string, unknown> => !!c) : [];
      if (toolCalls.length) {
        b.text(1, content);
        for (const c of toolCalls) {
          const fn = obj(c.function) ?? c;
          b.call(1, typeof fn.arguments === "string" ? { id: str(c.id), name: str(fn.name) ?? "bash", rawArgs: fn.arguments } : { id: str(c.id), name: str(fn.name) ?? "bash", input: fn.arguments ?? null });
        }
        pending = null;
        return;
      }
      const blocks = [...content.matchAll(BASH_BLOCK)].map((x) => x[1]!);
      const id = `message-${i}`;
      b.text(1, blocks.length === 1 ? content.replace(BASH_BLOCK, "").trim() : content);
      // exactly one block is an action; none or several is the format error the agent is told about
      b.call(1, blocks.length === 1 ? { id, name: "bash", input: { command: blocks[0] } } : { id, name: "bash", input: null, argsError: `${blocks.length} bash blocks in the response (exactly one is an action)` });
      pending = id;
    } else if (role === "tool") {
      b.result(1, str(m.tool_call_id), content, structural(m, content));
    } else if (role === "user") {
      if (pending) {
        b.result(1, pending, content, structural(m, content));
        pending = null;
      } else b.say("user", content, 1);
    } else issues.push({ file, line: 1, reason: `messages[${i}]: unknown role ${JSON.stringify(role)}` });
  });
  stats(b, obj(doc.info));
  return b.session();
}

/** An observation's exit status: `extra.returncode`, the `<returncode>` tag, a timeout notice. */
function structural(m: Record<string, unknown>, content: string): boolean | null {
  const rc = num(obj(m.extra)?.returncode) ?? (RETURNCODE.exec(content) ? Number(RETURNCODE.exec(content)![1]) : undefined);
  if (rc !== undefined) return rc !== 0;
  if (/^\s*The last command <command>[\s\S]*<\/command> timed out/.test(content)) return true;
  return null;
}
