/** `composer-lab traces …` */
import { Option, type Command } from "commander";
import { loadConfigFile, progress } from "../../core/index.js";
import { listTraceFiles, summarize, TextErrorConfig, type FormatOption } from "../../traces/index.js";
import { emit, jsonOpt, log } from "../output.js";
import { wholeNumber } from "../args.js";

export function registerTraces(program: Command): void {
  const traces = program.command("traces").description("agent traces: ingestion and error sites");
  traces
    .command("summarize")
    .description("ingest Claude Code JSONL / chat trajectories (files or folders, recursive) and count turns and error sites")
    .argument("<paths...>", "trace files or folders")
    .addOption(new Option("--format <format>", "input format").choices(["claude", "chat", "auto"]).default("auto"))
    .option("--strip-thinking", "drop thinking blocks")
    .option("--issues", "print every input issue (file:line: reason) on stderr")
    .option("--text-errors <file>", "error rules for results without an is_error flag, by format and by source (JSON or YAML, see TextErrorConfig)")
    .option("--workers <n>", "worker threads (default: one per core, up to 8, for corpora over 32 MB)", wholeNumber(1))
    .addOption(jsonOpt())
    .action(async (paths: string[], o: { format: FormatOption; stripThinking?: boolean; issues?: boolean; workers?: number; textErrors?: string; json?: boolean }) => {
      const textErrors = o.textErrors ? loadConfigFile(o.textErrors, TextErrorConfig) : undefined;
      const files = listTraceFiles(paths);
      const bar = progress(files.length, "traces");
      const sum = await summarize(files, {
        format: o.format, strip_thinking: !!o.stripThinking, workers: o.workers, textErrors,
        onFile: (f) => bar.tick(1, f.split("/").pop()),
        onIssue: o.issues ? (i) => log(`${i.file}:${i.line}: ${i.reason}`) : undefined,
      });
      bar.stop();
      // tables (arquero) only for human output: --json starts faster without them
      const { fromRows, tableText } = o.json ? ({} as typeof import("../../viz/index.js")) : await import("../../viz/index.js");
      emit(!!o.json, { ok: true, ...sum }, () => {
        const { errorKinds, behaviorDims, issuesByReason, issueSamples, formats, ...counts } = sum;
        return [
          tableText(fromRows(Object.entries(counts).map(([k, v]) => ({ count: k, value: v })))),
          "",
          tableText(fromRows(Object.entries(errorKinds).sort((a, b) => b[1] - a[1]).map(([kind, n]) => ({ error_kind: kind, sites: n })))),
          "",
          tableText(fromRows(Object.entries(behaviorDims).map(([dim, n]) => ({ behavior_dim: dim, sites: n })))),
          ...(sum.issues ? ["", `${sum.issues} input issue(s) skipped (--issues lists them):`, ...Object.entries(issuesByReason).map(([r, n]) => `  ${n} × ${r}`)] : []),
        ].join("\n");
      });
    });
}
