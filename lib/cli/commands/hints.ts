/** `composer-lab hints …` */
import type { Command } from "commander";
import { progress } from "../../core/index.js";
import { buildFromConfig, contextsFromTraces, defaultLayered, hintCoverage, loadHintsConfig, type JudgeHintGenerator } from "../../hints/index.js";
import { fromRows, tableText } from "../../viz/index.js";
import { jsonOpt } from "../options.js";
import { emit } from "../output.js";
import { wholeNumber } from "../args.js";

export function registerHints(program: Command): void {
  const hints = program.command("hints").description("hint generation at error sites, and its evaluation");
  const hintOptions = (c: Command) =>
    c
      .argument("<traces...>", "trace files or folders")
      .option("--config <file>", "hints config (JSON or YAML): layers and their options")
      .option("--judge-url <url>", "OpenAI-compatible endpoint for the judge layer (default: OPENAI_BASE_URL)")
      .option("--judge-model <model>", "judge model name")
      .option("--no-judge", "leave the judge out even when an endpoint is configured")
      .option("--no-cache", "do not read or write the judge's on-disk cache")
      .option("--clean", "also offer flagged clean turns (style / communication / effort) to the judge")
      .option("--no-subagents", "leave out error sites inside subagent transcripts")
      .addOption(jsonOpt());
  type HintCliOptions = { config?: string; judgeUrl?: string; judgeModel?: string; judge: boolean; cache: boolean; clean?: boolean; json?: boolean; subagents: boolean };
  const buildGenerator = (o: HintCliOptions) => {
    const cacheDir = o.cache ? undefined : (false as const);
    if (o.config) return buildFromConfig(loadHintsConfig(o.config), { judgeUrl: o.judgeUrl, judgeModel: o.judgeModel, cacheDir });
    const url = o.judgeUrl ?? process.env.OPENAI_BASE_URL;
    return defaultLayered({ judge: o.judge && url ? { baseURL: url, model: o.judgeModel, cache_dir: cacheDir } : undefined });
  };
  hintOptions(hints.command("coverage").description("per-layer coverage: which layer hinted each error site, by error_kind and behavior_dim")).action(
    async (paths: string[], o: HintCliOptions) => {
      const generator = buildGenerator(o);
      const contexts = await contextsFromTraces(paths, { clean: o.clean, subagents: o.subagents ? "include" : "exclude" });
      const bar = progress(contexts.length, "hints");
      const cov = await hintCoverage(contexts, generator, { onSite: () => bar.tick() });
      bar.stop();
      const judge = generator.layer<JudgeHintGenerator>("judge");
      const { results, ...counts } = cov;
      emit(!!o.json, { ok: true, ...counts, judge: judge ? { model: judge.model, ...judge.stats } : null }, () =>
        [
          `${cov.hinted}/${cov.sites} sites hinted`,
          tableText(fromRows(Object.entries(cov.byLayer).map(([layer, n]) => ({ layer, sites: n })))),
          "",
          tableText(fromRows(Object.entries(cov.byKind).map(([kind, l]) => ({ error_kind: kind, ...l })))),
          ...(judge ? ["", `judge ${judge.model}: ${JSON.stringify(judge.stats)}`] : []),
        ].join("\n"),
      );
    },
  );
  hintOptions(hints.command("show").description("one error site, its hint and the layer that produced it"))
    .requiredOption("--site <n>", "site index (0-based, in ingestion order; `hints coverage` counts them)", wholeNumber(0))
    .action(async (paths: string[], o: HintCliOptions & { site: number }) => {
      const contexts = await contextsFromTraces(paths, { clean: o.clean, subagents: o.subagents ? "include" : "exclude" });
      const n = o.site;
      const ctx = contexts[n];
      if (!ctx) throw new Error(`--site ${o.site}: there are ${contexts.length} sites (0..${contexts.length - 1})`);
      const r = await buildGenerator(o).generate(ctx);
      emit(!!o.json, { ok: true, index: n, site: ctx, hint: r?.hint ?? null, layer: r?.layer ?? "none" }, () =>
        [
          `site ${n}: ${ctx.error_kind} (${ctx.behavior_dim}) in ${ctx.session_id} at turn ${ctx.turn_index}`,
          `tool: ${ctx.tool_name ?? "-"}   action: ${ctx.erroring_action ?? ""}`,
          "---- error ----",
          (ctx.error_message ?? "").slice(0, 800),
          `---- hint (${r?.layer ?? "none"}) ----`,
          r?.hint ?? "(no layer produced a hint)",
        ].join("\n"),
      );
    });
}
