/** `composer-lab traces …` */
import { Option, type Command } from "commander";
import { loadConfigFile, progress } from "../../core/index.js";
import { writeFileSync } from "node:fs";
import { collect, summarize, TextErrorConfig, TraceFormat, type FormatOption } from "../../traces/index.js";
import { emit, jsonOpt, log } from "../output.js";
import { wholeNumber } from "../args.js";

export function registerTraces(program: Command): void {
  const traces = program.command("traces").description("agent traces: ingestion and error sites");
  traces
    .command("summarize")
    .description("ingest agent sessions — Claude Code (with subagents), Codex CLI, OpenHands, SWE-agent, mini-swe-agent, chat trajectories — (files or folders, recursive) and count turns and error sites; every file not read is listed with why")
    .argument("<paths...>", "trace files or folders")
    .addOption(new Option("--format <format>", "input format (auto: told from each file's content)").choices([...TraceFormat.options, "auto"]).default("auto"))
    .option("--no-subagents", "drop subagent turns (Claude Code transcripts folded into their parent session)")
    .option("--strip-thinking", "drop thinking blocks")
    .option("--issues", "print every input issue (file:line: reason) on stderr")
    .option("--text-errors <file>", "error rules for results without an is_error flag, by format and by source (JSON or YAML, see TextErrorConfig)")
    .option("--workers <n>", "worker threads (default: one per core, up to 8, for corpora over 32 MB)", wholeNumber(1))
    .addOption(jsonOpt())
    .action(async (paths: string[], o: { format: FormatOption; stripThinking?: boolean; issues?: boolean; workers?: number; textErrors?: string; json?: boolean; subagents: boolean }) => {
      const textErrors = o.textErrors ? loadConfigFile(o.textErrors, TextErrorConfig) : undefined;
      // the bar learns the number of sources from the first one read (planning them twice walks the tree twice)
      let bar: ReturnType<typeof progress> | undefined;
      const sum = await summarize(paths, {
        format: o.format, strip_thinking: !!o.stripThinking, workers: o.workers, textErrors, subagents: o.subagents ? "include" : "exclude",
        onFile: (f, _done, total) => (bar ??= progress(total, "traces")).tick(1, f.split("/").pop()),
        onIssue: o.issues ? (i) => log(`${i.file}:${i.line}: ${i.reason}`) : undefined,
      });
      bar?.stop();
      // tables (arquero) only for human output: --json starts faster without them
      const { fromRows, tableText } = o.json ? ({} as typeof import("../../viz/index.js")) : await import("../../viz/index.js");
      // nothing read is not a result: say so, with what was skipped and why
      const ok = sum.sessions > 0;
      if (!ok) process.exitCode = 1;
      emit(!!o.json, { ok, ...(ok ? {} : { error: `no session read from ${paths.join(", ")} (${sum.files} file(s) seen; ${sum.issues} issue(s): ${Object.keys(sum.issuesByReason).slice(0, 4).join("; ") || "no trace files"})` }), ...sum }, () => {
        const { errorKinds, behaviorDims, issuesByReason, issueSamples, formats, ...counts } = sum;
        return [
          tableText(fromRows(Object.entries(counts).map(([k, v]) => ({ count: k, value: v })))),
          "",
          tableText(fromRows(Object.entries(errorKinds).sort((a, b) => b[1] - a[1]).map(([kind, n]) => ({ error_kind: kind, sites: n })))),
          "",
          tableText(fromRows(Object.entries(behaviorDims).map(([dim, n]) => ({ behavior_dim: dim, sites: n })))),
          ...(sum.issues ? ["", `${sum.issues} input issue(s) skipped (--issues lists them):`, ...Object.entries(issuesByReason).map(([r, n]) => `  ${n} × ${r}`)] : []),
          ...(ok ? [] : ["", `no session read from ${paths.join(", ")}`]),
        ].join("\n");
      });
    });

  traces
    .command("view")
    .description("write one session as an HTML page: turns in order, subagents nested under the call that spawned them, error sites with the hint each layer would give, a search box")
    .argument("<file>", "a trace file (or an OpenHands events/ folder)")
    .requiredOption("--out <file>", "the HTML file to write")
    .option("--session <id>", "which session, when the file holds several (default: the first)")
    .addOption(new Option("--format <format>", "input format").choices([...TraceFormat.options, "auto"]).default("auto"))
    .addOption(jsonOpt())
    .action(async (file: string, o: { out: string; session?: string; format: FormatOption; json?: boolean }) => {
      const { sessions, issues } = await collect([file], { format: o.format });
      const chosen = o.session ? sessions.find((s) => s.session.id === o.session) : sessions[0];
      if (!chosen) {
        const why = o.session ? `no session "${o.session}" in ${file} (it has: ${sessions.map((s) => s.session.id).join(", ") || "none"})` : `no session read from ${file}${issues.length ? `: ${issues.slice(0, 3).map((i) => `${i.file}:${i.line}: ${i.reason}`).join("; ")}` : ""}`;
        process.exitCode = 1;
        emit(!!o.json, { ok: false, error: why }, () => why);
        return;
      }
      const { defaultLayered, contextFromSite } = await import("../../hints/index.js");
      const layered = defaultLayered();
      const hints = await Promise.all(chosen.sites.map((site) => layered.each(contextFromSite(site, chosen.session))));
      const { sessionPage } = await import("../../viz/index.js");
      writeFileSync(o.out, sessionPage(chosen.session, chosen.sites, { hints }));
      const s = chosen.session;
      emit(!!o.json, { ok: true, out: o.out, session: s.id, format: s.format, turns: s.turns.length, subagents: s.subagents?.length ?? 0, errorSites: chosen.sites.length, sessionsInFile: sessions.length }, () => `${o.out}: session ${s.id} (${s.format}), ${s.turns.length} turns, ${chosen.sites.length} error sites`);
    });
}
