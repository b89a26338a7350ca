/** The traces stage of `composer-lab demo`: ingest datasets/traces/ (and the other agents' formats in
 *  datasets/agent-traces/), count and plot error sites. */
import { datasetsDir } from "../../core/index.js";
import type { DemoStage } from "../stage.js";
import { barChart, fromRows, histogram } from "../../viz/index.js";
import { summarize } from "../../traces/index.js";
import type { ErrorSite } from "../../traces/index.js";

export const tracesStage: DemoStage = {
  name: "traces",
  title: "Traces: ingestion and error sites",
  description: "Ingests the bundled Claude Code and chat-format traces and the other agents' logs (Codex CLI, OpenHands, SWE-agent, mini-swe-agent; Claude Code subagents linked to their call), finds error sites and classifies them (error_kind → behavior_dim).",
  async run(ctx) {
    const paths = [datasetsDir("traces")];
    const sites: ErrorSite[] = [];
    const turnChars: number[] = [];
    const sum = await summarize(paths, {
      onSession: (s) => {
        sites.push(...s.sites);
        for (const t of s.session.turns) if (t.role === "assistant") turnChars.push(t.text.length + t.toolCalls.reduce((n, c) => n + JSON.stringify(c.input ?? "").length, 0));
      },
    });
    ctx.log(`${sum.sessions} sessions, ${sum.errorSites} error sites, ${sum.issues} input issues`);
    // the other agents' formats and Claude Code's subagent layouts (datasets/agent-traces)
    const other = await summarize([datasetsDir("agent-traces")]);
    ctx.log(`other agents: ${Object.entries(other.formats).map(([f, n]) => `${n} ${f}`).join(", ")}; ${other.subagentsLinked} of ${other.subagentTranscripts} subagent transcripts linked to their call`);
    const kinds = Object.entries(sum.errorKinds).sort((a, b) => b[1] - a[1]);
    return {
      summary: `${sum.files} files → ${sum.sessions} sessions, ${sum.turns} turns (${sum.assistantTurns} assistant), ${sum.errorSites} error sites of ${kinds.length} kinds; ${sum.issues} bad input lines/records reported and skipped. ` +
        `Other agents' logs: ${Object.entries(other.formats).map(([f, n]) => `${n} ${f}`).join(", ")} sessions, ${other.errorSites} error sites; ${other.subagentsLinked} of ${other.subagentTranscripts} Claude Code subagent transcripts tied to the call that spawned them; ${other.filesSkipped} files not read, each with its reason.`,
      metrics: {
        files: sum.files, sessions: sum.sessions, turns: sum.turns, assistant_turns: sum.assistantTurns,
        sidechain_turns: sum.sidechainTurns, error_sites: sum.errorSites, error_kinds: kinds.length,
        malformed_lines: sum.malformedLines, issues: sum.issues,
        other_formats: Object.keys(other.formats).length, other_sessions: other.sessions, other_error_sites: other.errorSites,
        subagent_transcripts: other.subagentTranscripts, subagents_linked: other.subagentsLinked,
      },
      tables: [
        { title: "Error sites by kind", table: fromRows(kinds.map(([kind, n]) => ({ error_kind: kind, behavior_dim: sites.find((s) => s.error_kind === kind)?.behavior_dim ?? "", sites: n }))) },
        { title: "Error sites (first 20)", table: fromRows(sites.slice(0, 20).map((s) => ({ session: s.session_id.slice(0, 18), turn: s.turn_index, kind: s.error_kind, tool: s.tool_name ?? "", excerpt: s.source_excerpt.slice(0, 60) }))) },
        { title: "Other agents' sessions by format (datasets/agent-traces)", table: fromRows(Object.entries(other.formats).map(([format, n]) => ({ format, sessions: n }))) },
        { title: "Claude Code subagents", table: fromRows(Object.entries(other.subagentKinds).map(([kind, n]) => ({ kind, transcripts: n }))) },
        { title: "Input issues", table: fromRows(sum.issueSamples.map((i) => ({ file: i.file.split("/").slice(-1)[0], line: i.line, reason: i.reason }))) },
      ],
      figures: [
        { title: "Error kinds", figure: barChart(kinds.map(([k]) => k), { sites: kinds.map(([, n]) => n) }, { title: "error sites by kind", yTitle: "sites" }) },
        { title: "Assistant turn lengths", figure: histogram(turnChars, { title: "assistant turn length", xTitle: "characters", yTitle: "turns", bins: 20 }) },
      ],
    };
  },
};
