/**
 * One agent session as a page: its turns in order, each subagent's transcript nested (collapsible)
 * under the tool call that spawned it, tool calls and results, error sites highlighted with their
 * kind and the hint each layer would give, token and cost counts where the format records them,
 * and a search box. Self-contained HTML (inline style and script, nothing fetched), so the same
 * page renders in a notebook output, in a browser from `composer-lab traces view`, and offline.
 */
import type { ErrorSite, Session, SubagentLink, Turn } from "../traces/index.js";
import { displayBundle } from "./notebook.js";
import { escapeHtml } from "./render.js";

/** What each hint layer gives at one site (null: the layer declines it). */
export interface LayerHint {
  layer: string;
  hint: string | null;
}

export interface SessionViewOptions {
  /** Hints per site, by the site's position in `sites`. */
  hints?: LayerHint[][];
  /** Characters of a tool result shown before "show all" (default 3000). */
  clip?: number;
  title?: string;
}

const CSS = `
.cl-session{font:13px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1b1f24;max-width:1100px}
.cl-session header{border-bottom:1px solid #d0d7de;padding:6px 0 8px;margin-bottom:8px}
.cl-session h2{font-size:16px;margin:0 0 4px}
.cl-session .meta{color:#57606a;font-size:12px}
.cl-session .meta span{margin-right:14px}
.cl-session .search{margin-top:6px}
.cl-session .search input{width:320px;padding:3px 6px;font-size:13px}
.cl-session .turn{border-left:3px solid #d0d7de;margin:6px 0;padding:4px 8px;background:#fff}
.cl-session .turn.user{border-color:#54aeff;background:#f6faff}
.cl-session .turn.assistant{border-color:#8250df}
.cl-session .turn.system,.cl-session .turn.summary{border-color:#afb8c1;background:#f6f8fa;color:#57606a}
.cl-session .turn .who{font-weight:600;font-size:11px;text-transform:uppercase;color:#57606a;margin-right:6px}
.cl-session .turn .idx{color:#8c959f;font-size:11px}
.cl-session .text{white-space:pre-wrap;margin:2px 0}
.cl-session pre{white-space:pre-wrap;word-break:break-word;background:#f6f8fa;border:1px solid #eaeef2;padding:4px 6px;margin:3px 0;font:12px/1.4 ui-monospace,Menlo,Consolas,monospace;max-height:420px;overflow:auto}
.cl-session .call{margin:3px 0}
.cl-session .call .name{font-family:ui-monospace,monospace;font-weight:600;color:#0550ae}
.cl-session .result.error pre{border-color:#ff8182;background:#fff5f5}
.cl-session .site{border:1px solid #ff8182;background:#fff8f8;border-radius:4px;padding:4px 6px;margin:4px 0}
.cl-session .site .kind{font-weight:600;color:#cf222e}
.cl-session .site .hint{margin:2px 0 0 10px}
.cl-session .site .hint .layer{font-family:ui-monospace,monospace;color:#57606a}
.cl-session details.subagent{border:1px dashed #8250df;border-radius:4px;margin:6px 0 6px 18px;padding:2px 8px;background:#fbf8ff}
.cl-session details.subagent>summary{cursor:pointer;color:#6639ba;font-weight:600}
.cl-session .hit{outline:2px solid #d4a72c;background:#fff8c5}
.cl-session .hidden{display:none}
.cl-session .thinking summary{color:#8c959f;cursor:pointer}
`;

/** The search box: marks the turns whose text holds the query (case-insensitive), opens the
 *  subagents that hold a hit, and says how many turns match. */
const SCRIPT = (root: string) => `
(function(){var r=document.getElementById(${JSON.stringify(root)});if(!r)return;var q=r.querySelector('input[type=search]');var n=r.querySelector('.search .count');
q.addEventListener('input',function(){var s=q.value.toLowerCase();var k=0;r.querySelectorAll('.turn').forEach(function(t){var own=t.getAttribute('data-text')||'';var on=s!==''&&own.toLowerCase().indexOf(s)>=0;t.classList.toggle('hit',on);if(on){k++;var p=t.parentElement;while(p&&p!==r){if(p.tagName==='DETAILS')p.open=true;p=p.parentElement;}}});n.textContent=s===''?'':k+' turn'+(k===1?'':'s')+' match';});})();`;

const fmt = (n: number | undefined, digits = 0) => (n === undefined ? "" : n.toLocaleString("en-US", { maximumFractionDigits: digits }));

function clipped(text: string, clip: number): string {
  if (text.length <= clip) return `<pre>${escapeHtml(text)}</pre>`;
  return `<pre>${escapeHtml(text.slice(0, clip))}…</pre><details><summary>show all ${fmt(text.length)} characters</summary><pre>${escapeHtml(text)}</pre></details>`;
}

function argsText(input: unknown, raw?: string): string {
  if (input === null && raw !== undefined) return raw;
  if (input && typeof input === "object" && Object.keys(input).length === 1 && typeof (input as Record<string, unknown>).command === "string") return (input as { command: string }).command;
  return JSON.stringify(input, null, 1) ?? "";
}

/** The page for one session (a fragment: a <div> with its own style and script). */
export function sessionHTML(session: Session, sites: ErrorSite[] = [], opts: SessionViewOptions = {}): string {
  const clip = opts.clip ?? 3000;
  const root = `cl-session-${session.id.replace(/[^\w-]/g, "_")}-${Math.random().toString(36).slice(2, 8)}`;
  // where each site shows: the turn holding the errored result (or the repeated call)
  const sitesAt = new Map<number, { site: ErrorSite; n: number }[]>();
  sites.forEach((site, n) => {
    const at = site.error_turn_index ?? site.turn_index;
    if (!sitesAt.has(at)) sitesAt.set(at, []);
    sitesAt.get(at)!.push({ site, n });
  });
  const subagentTurns = new Map<string, Turn[]>();
  for (const t of session.turns) if (t.agentId) (subagentTurns.get(t.agentId) ?? subagentTurns.set(t.agentId, []).get(t.agentId)!).push(t);
  const linksByCall = new Map<string, SubagentLink[]>();
  const unplaced: SubagentLink[] = [];
  for (const a of session.subagents ?? []) {
    if (a.parentCallId) (linksByCall.get(a.parentCallId) ?? linksByCall.set(a.parentCallId, []).get(a.parentCallId)!).push(a);
    else unplaced.push(a);
  }

  const siteBlock = ({ site, n }: { site: ErrorSite; n: number }) => {
    const hints = (opts.hints?.[n] ?? []).map((h) => `<div class="hint"><span class="layer">${escapeHtml(h.layer)}</span>: ${h.hint ? escapeHtml(h.hint) : "<em>declines</em>"}</div>`).join("");
    return `<div class="site" data-kind="${escapeHtml(site.error_kind)}"><span class="kind">${escapeHtml(site.error_kind)}</span> → ${escapeHtml(site.behavior_dim)}${site.repeat_count > 1 ? ` (×${site.repeat_count})` : ""}${site.tool_name ? ` · ${escapeHtml(site.tool_name)}` : ""} · line ${site.line}${hints}</div>`;
  };
  const placed = new Set<string>();
  const subagentBlock = (a: SubagentLink): string => {
    if (placed.has(a.agentId)) return ""; // each transcript once, whatever ids its own calls reuse
    placed.add(a.agentId);
    const turns = subagentTurns.get(a.agentId) ?? [];
    const how = a.linkedBy ? `linked by ${a.linkedBy.replace(/_/g, " ")}` : "no parent call";
    return `<details class="subagent" open data-agent="${escapeHtml(a.agentId)}"><summary>subagent ${escapeHtml(a.agentId)} · ${a.kind} · ${turns.length} turns · ${how}</summary>${turns.map(turnBlock).join("")}</details>`;
  };
  function turnBlock(t: Turn): string {
    const parts: string[] = [];
    if (t.thinking) parts.push(`<details class="thinking"><summary>thinking</summary><div class="text">${escapeHtml(t.thinking)}</div></details>`);
    if (t.text) parts.push(`<div class="text">${escapeHtml(t.text)}</div>`);
    for (const c of t.toolCalls) {
      parts.push(`<div class="call" data-call="${escapeHtml(c.id)}">→ <span class="name">${escapeHtml(c.name)}</span>${c.argsError ? ` <span class="kind">(arguments do not parse: ${escapeHtml(c.argsError)})</span>` : ""}${clipped(argsText(c.input, c.rawArgs), clip)}</div>`);
      if (!t.agentId) for (const a of linksByCall.get(c.id) ?? []) parts.push(subagentBlock(a));
    }
    for (const r of t.toolResults) {
      const err = r.isError ?? (r.errorTag || r.errorText === true);
      parts.push(`<div class="result${err ? " error" : ""}">← ${err ? "<b>error</b> " : ""}${clipped(r.content, clip)}</div>`);
    }
    for (const s of sitesAt.get(t.index) ?? []) parts.push(siteBlock(s));
    const usage = t.usage ? ` · ${fmt(t.usage.input_tokens)} in / ${fmt(t.usage.output_tokens)} out tokens` : "";
    const searchable = [t.text, t.thinking ?? "", ...t.toolCalls.map((c) => `${c.name} ${argsText(c.input, c.rawArgs)}`), ...t.toolResults.map((r) => r.content)].join("\n");
    return `<div class="turn ${t.role}" data-index="${t.index}" data-text="${escapeHtml(searchable.slice(0, 20000))}"><span class="who">${t.role}</span><span class="idx">#${t.index}${t.chain === "branch" ? " · abandoned branch" : ""}${usage}</span>${parts.join("")}</div>`;
  }

  const st = session.stats ?? {};
  const own = session.turns.filter((t) => !t.agentId);
  const tokens = st.input_tokens !== undefined || st.output_tokens !== undefined
    ? { input: st.input_tokens, output: st.output_tokens }
    : session.turns.some((t) => t.usage)
      ? { input: session.turns.reduce((a, t) => a + (t.usage?.input_tokens ?? 0), 0), output: session.turns.reduce((a, t) => a + (t.usage?.output_tokens ?? 0), 0) }
      : null;
  const meta = [
    `<span>${escapeHtml(session.format)}</span>`,
    `<span>${own.length} turns</span>`,
    `<span>${session.turns.reduce((a, t) => a + t.toolCalls.length, 0)} tool calls</span>`,
    `<span>${sites.length} error sites</span>`,
    (session.subagents?.length ? `<span>${session.subagents.length} subagents</span>` : ""),
    st.model ? `<span>model ${escapeHtml(st.model)}</span>` : "",
    tokens ? `<span>${fmt(tokens.input)} in / ${fmt(tokens.output)} out tokens</span>` : "",
    st.cost_usd !== undefined ? `<span>$${fmt(st.cost_usd, 4)}</span>` : "",
    st.exit_status ? `<span>exit: ${escapeHtml(st.exit_status)}</span>` : "",
  ].filter(Boolean).join("");
  return `<div class="cl-session" id="${root}"><style>${CSS}</style><header><h2>${escapeHtml(opts.title ?? session.id)}</h2><div class="meta">${meta}</div><div class="meta">${escapeHtml(session.file)}</div>` +
    `<div class="search"><input type="search" placeholder="search turns…"> <span class="count"></span></div></header>` +
    own.map(turnBlock).join("") + [...unplaced, ...(session.subagents ?? [])].map(subagentBlock).join("") +
    `<script>${SCRIPT(root)}</script></div>`;
}

/** A whole HTML document of the page (for `composer-lab traces view --out`). */
export const sessionPage = (session: Session, sites: ErrorSite[] = [], opts: SessionViewOptions = {}): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(opts.title ?? session.id)}</title></head><body>${sessionHTML(session, sites, opts)}</body></html>`;

/** Shows the session in a notebook output (returns false outside a kernel). */
export function showSession(session: Session, sites: ErrorSite[] = [], opts: SessionViewOptions = {}): boolean {
  return displayBundle({ "text/html": sessionHTML(session, sites, opts), "text/plain": `session ${session.id}: ${session.turns.length} turns, ${sites.length} error sites` });
}
