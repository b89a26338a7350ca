import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { initBackend } from "../lib/backend/index.js";
import {
  buildFromConfig, contextFromSite, contextsFromTraces, defaultLayered, ErrorContext, hintCoverage, hintShift, IntrospectionHintGenerator,
  JudgeHintGenerator, judgeCacheKey, loadHintsConfig, openAILogprobModel, RawErrorHintGenerator,
  SiblingBootstrapGenerator, TemplateHintGenerator, TemplateRegistry, type HintGenerator,
} from "../lib/hints/index.js";
import { LayeredHintGenerator } from "../lib/hints/layered.js";
import { collect } from "../lib/traces/index.js";
import { Policy, policyLogprobModel, policySelfCritique } from "../lib/train/index.js";
import { cliAsync, oneJson, ROOT, tmp } from "./helpers.js";
import { startOpenAIServer, type ChatReply, type OpenAIServer } from "./support/openai-server.js";

const DATA = join(ROOT, "datasets", "traces");
const ctx = (c: Partial<ErrorContext> & { error_kind: string }): ErrorContext => ErrorContext.parse({ behavior_dim: "tool_use", ...c });

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("template layer", () => {
  const t = new TemplateHintGenerator();

  it("ships the §3 strings verbatim, with slots filled from the context", () => {
    expect(t.generate(ctx({ error_kind: "tool_not_found", available_tools: ["Read", "Edit", "Bash"] }))).toBe(
      "Reminder: Available tools are: Read, Edit, Bash. The tool you called does not exist — use one of these.",
    );
    expect(t.generate(ctx({ error_kind: "json_decode" }))).toBe(t.generate(ctx({ error_kind: "malformed_args" })));
    expect(t.generate(ctx({ error_kind: "repeated_failure", n: 4 }))).toMatch(/^Reminder: this approach has failed 4 times\. Step back/);
    expect(t.generate(ctx({ error_kind: "verbose_communication", behavior_dim: "communication" }))).toBe(
      "Reminder: keep the response concise and focused on the user's request. State what you did and why in 1–2 sentences; omit restating the task and step-by-step narration.",
    );
    expect(t.generate(ctx({ error_kind: "schema_mismatch", tool_name: "Read", tool_schema: { file_path: "string" }, bad_fields: "file_path" }))).toBe(
      'Reminder: `Read` expects arguments matching this schema:\n {"file_path":"string"}\nYour call is missing/mistyped: file_path. Re-issue with arguments matching the schema.',
    );
  });

  it("declines instead of emitting a literal slot, and cuts excerpts to 200 characters", () => {
    expect(t.generate(ctx({ error_kind: "tool_not_found" }))).toBeNull();
    expect(t.generate(ctx({ error_kind: "failing_test", test_name: "t::x" }))).toBeNull();
    const hint = t.generate(ctx({ error_kind: "failing_test", test_name: "t::x", assertion_excerpt: "a".repeat(500) }))!;
    expect(hint).not.toMatch(/\{\w+\}/);
    expect(hint.match(/a+/)![0].length).toBeLessThanOrEqual(200);
    expect(t.generate(ctx({ error_kind: "no_such_kind" }))).toBeNull();
  });

  it("register() adds a template that dispatch() uses", () => {
    const reg = new TemplateRegistry().register("permission_denied", "Reminder: you may not write there ({tool_name}); write inside the repository.");
    expect(reg.dispatch("permission_denied", ctx({ error_kind: "permission_denied", tool_name: "Bash" }))).toBe("Reminder: you may not write there (Bash); write inside the repository.");
  });

  it("fills failing_test and lint_style slots from real error text", async () => {
    const { sessions } = await collect([DATA]);
    const all = sessions.flatMap(({ session, sites }) => sites.map((s) => contextFromSite(s, session)));
    const failing = all.find((c) => c.error_kind === "failing_test" && c.session_id === "7f2c1e0a-0001-4c1e-9a51-inventory0001")!;
    expect(failing.test_name).toBe("tests/test_stock.py::test_reserve_insufficient");
    expect(failing.assertion_excerpt).toBe("Failed: DID NOT RAISE <class 'inventory.errors.OutOfStock'>");
    const lint = all.filter((c) => c.error_kind === "lint_style");
    expect(lint.map((c) => [c.linter, c.rule_id]).sort()).toEqual([["flake8", "F401"], ["ruff", "E231"], ["ruff", "F401"]]);
    expect(failing.recovery).toContain("Let me read it");
  });
});

describe("raw-error and sibling layers", () => {
  it("raw error splices the head and tail of the environment's text (200 characters with the ellipsis)", () => {
    const h = new RawErrorHintGenerator().generate(ctx({ error_kind: "tool_error", error_message: "x".repeat(300) }))!;
    expect(h).toBe(`Reminder: the previous action returned this error:\n${"x".repeat(65)} … ${"x".repeat(132)}\nFix the cause and retry.`);
    expect(new RawErrorHintGenerator().generate(ctx({ error_kind: "tool_error", error_message: "  " }))).toBeNull();
  });

  it("sibling bootstrap uses the best passing sibling above the threshold and declines otherwise", () => {
    const g = new SiblingBootstrapGenerator(0.5);
    expect(g.generate(ctx({ error_kind: "tool_error", sibling_rollouts: [{ reward: 0.4, solution_excerpt: "low" }] }))).toBeNull();
    expect(g.generate(ctx({ error_kind: "tool_error" }))).toBeNull();
    const h = g.generate(ctx({ error_kind: "tool_error", sibling_rollouts: [{ reward: 0.6, solution_excerpt: "ok" }, { reward: 1, solution_excerpt: "b".repeat(300) }] }))!;
    expect(h).toBe(`Reminder: a working approach for this task looks like:\n${"b".repeat(200)}\nAdapt this to the current step.`);
  });
});

describe("layered generator", () => {
  it("takes the first non-empty hint and records the layer; the collator hook has the (kind, meta) shape", async () => {
    const gen = defaultLayered();
    expect(await gen.generate(ctx({ error_kind: "tool_not_found", available_tools: ["Read"], error_message: "No such tool" }))).toEqual({ layer: "template", hint: expect.stringContaining("Read") });
    expect((await gen.generate(ctx({ error_kind: "tool_not_found", error_message: "No such tool" })))!.layer).toBe("raw_error");
    expect((await gen.generate(ctx({ error_kind: "tool_error", sibling_rollouts: [{ reward: 1, solution_excerpt: "fix" }] })))!.layer).toBe("sibling");
    expect(await gen.generate(ctx({ error_kind: "tool_error" }))).toBeNull();
    const hook = gen.asCollatorHook();
    expect(await hook("repeated_failure", { n: 3 })).toMatch(/failed 3 times/);
    expect(await hook("tool_error", {})).toBeNull();
  });

  it("per-layer coverage over the bundled traces", async () => {
    const cov = await hintCoverage(await contextsFromTraces([DATA]), defaultLayered());
    expect(cov.sites).toBe(44);
    // none: a sibling cascade (never hinted) and a user's rejection (left to the judge)
    // (the make usage error has a template: 31 → 32 template, 11 → 10 raw error)
    expect(cov.byLayer).toEqual({ template: 32, raw_error: 10, judge: 0, introspection: 0, sibling: 0, none: 2 });
    expect(cov.byKind.file_not_found).toMatchObject({ raw_error: 4, template: 0 });
    expect(cov.byDim.effort).toMatchObject({ template: 4 });
  });
});

describe("judge layer against a real OpenAI-compatible server on loopback", () => {
  const site = ctx({ error_kind: "tool_error", error_message: "make: *** No rule to make target 'release'.", erroring_action: 'Bash({"command":"make release"})', state_excerpt: "user: build it" });

  it("sends the §4.1 prompt, maps NO_HINT to null and keeps at most two sentences", async () => {
    server = await startOpenAIServer((b) => ({ content: b.messages[1].content.includes("No rule to make target") ? "Check the Makefile targets first. Use `make dist`. Then upload it." : "NO_HINT" }));
    const j = new JudgeHintGenerator({ baseURL: server.url, model: "judge-mini", cache_dir: false });
    expect(await j.generate(site)).toBe("Check the Makefile targets first. Use `make dist`.");
    const body = server.requests[0]!.body;
    expect(body.model).toBe("judge-mini");
    expect(body.messages[0].content).toMatch(/^You write a single, short corrective hint/);
    expect(body.messages[1].content).toContain("## The action that went wrong\nBash({\"command\":\"make release\"})");
    expect(body.messages[1].content).toContain("## Behavior dimension to correct (one of: tool_use | style | communication | effort)\ntool_use");
    expect(await j.generate(ctx({ ...site, error_message: "other" }))).toBeNull();
    expect(j.stats).toMatchObject({ calls: 2, no_hint: 1, failures: 0 });
  });

  it("caches on disk across restarts, keyed on (action, message, dim)", async () => {
    server = await startOpenAIServer(() => ({ content: "Run `make help` to list targets." }));
    const dir = tmp();
    const a = new JudgeHintGenerator({ baseURL: server.url, cache_dir: dir });
    expect(await a.generate(site)).toBe("Run `make help` to list targets.");
    const b = new JudgeHintGenerator({ baseURL: server.url, cache_dir: dir }); // a new process would do the same
    expect(await b.generate(site)).toBe("Run `make help` to list targets.");
    expect(b.stats).toMatchObject({ calls: 0, cache_hits: 1 });
    expect(server.requests).toHaveLength(1);
    expect(judgeCacheKey(site)).toBe(judgeCacheKey({ ...site, state_excerpt: "different state" }));
    expect(judgeCacheKey(site)).not.toBe(judgeCacheKey({ ...site, behavior_dim: "effort" }));
    // concurrent writers of the same key leave one whole entry and no temp files
    const writers = Array.from({ length: 6 }, () => new JudgeHintGenerator({ baseURL: server!.url, cache_dir: dir }));
    await Promise.all(writers.map((w) => w.generate(ctx({ ...site, error_message: "concurrent" }))));
    const files = readdirSync(join(dir, "gpt-4o-mini"));
    expect(files.filter((f) => f.endsWith(".tmp"))).toEqual([]);
    for (const f of files) expect(JSON.parse(readFileSync(join(dir, "gpt-4o-mini", f), "utf8")).hint).toBe("Run `make help` to list targets.");
  });

  it("gates: not on a template hit; clean turns only for style/communication/effort, sampled by seed", async () => {
    server = await startOpenAIServer(() => ({ content: "Be brief." }));
    const j = new JudgeHintGenerator({ baseURL: server.url, cache_dir: false, sample_rate: 1 });
    expect(await j.generate(ctx({ error_kind: "repeated_failure", n: 3 }))).toBeNull();
    expect(await j.generate(ctx({ error_kind: "none", clean: true, behavior_dim: "tool_use", turn_index: 1 }))).toBeNull();
    expect(await j.generate(ctx({ error_kind: "none", clean: true, behavior_dim: "communication", turn_index: 1 }))).toBe("Be brief.");
    const never = new JudgeHintGenerator({ baseURL: server.url, cache_dir: false, sample_rate: 0 });
    expect(await never.generate(ctx({ error_kind: "none", clean: true, behavior_dim: "style", turn_index: 2 }))).toBeNull();
    expect(server.requests).toHaveLength(1);
    // 15% by default, deterministic for a seed
    const sampler = new JudgeHintGenerator({ baseURL: server.url, cache_dir: false });
    const clean = Array.from({ length: 400 }, (_, i) => ctx({ error_kind: "none", clean: true, behavior_dim: "style", turn_index: i, session_id: "s" }));
    const fired = clean.filter((c) => sampler.shouldFire(c)).length;
    expect(fired).toBeGreaterThan(30);
    expect(fired).toBeLessThan(95);
    expect(clean.filter((c) => sampler.shouldFire(c)).length).toBe(fired);
  });

  it("retries 429 and 5xx with backoff, and a call that still fails declines the site without throwing", async () => {
    server = await startOpenAIServer((_, n): ChatReply => (n === 0 ? { status: 429, headers: { "retry-after": "0" } } : n === 1 ? { status: 503 } : { content: "Retry with the right target." }));
    const j = new JudgeHintGenerator({ baseURL: server.url, cache_dir: false, backoff_ms: 10 });
    expect(await j.generate(site)).toBe("Retry with the right target.");
    expect(j.stats).toMatchObject({ retries: 2, failures: 0, calls: 3 });
    await server.close();

    server = await startOpenAIServer(() => ({ status: 500 }));
    const down = new JudgeHintGenerator({ baseURL: server.url, cache_dir: false, backoff_ms: 5, max_retries: 2 });
    expect(await down.generate(site)).toBeNull();
    expect(down.stats).toMatchObject({ calls: 3, retries: 2, failures: 1 });
    await server.close();

    server = await startOpenAIServer(() => ({ delayMs: 400, content: "late" }));
    const slow = new JudgeHintGenerator({ baseURL: server.url, cache_dir: false, timeout_ms: 100, max_retries: 1, backoff_ms: 5 });
    expect(await slow.generate(site)).toBeNull();
    expect(slow.stats).toMatchObject({ calls: 2, retries: 1, failures: 1 });
  });

  it("limits concurrency and accounts tokens and cost", async () => {
    server = await startOpenAIServer(() => ({ delayMs: 50, content: "ok.", usage: { prompt_tokens: 1000, completion_tokens: 20 } }));
    const j = new JudgeHintGenerator({ baseURL: server.url, cache_dir: false, concurrency: 2, prices: { input_per_mtok: 0.15, output_per_mtok: 0.6 } });
    await Promise.all(Array.from({ length: 8 }, (_, i) => j.generate(ctx({ ...site, error_message: `e${i}` }))));
    expect(server.maxInFlight).toBe(2);
    expect(j.stats).toMatchObject({ calls: 8, prompt_tokens: 8000, completion_tokens: 160 });
    expect(j.stats.cost_usd).toBeCloseTo((8000 * 0.15 + 160 * 0.6) / 1e6, 12);
  });

  it("`hints coverage --config` with a judge layer: the judge hints flagged clean turns", async () => {
    server = await startOpenAIServer((b) => ({ content: b.messages[1].content.includes("\nstyle\n") ? "Match the surrounding code's quoting." : "NO_HINT" }));
    const dir = tmp();
    const config = join(dir, "hints.yaml");
    writeFileSync(config, `layers:\n  - type: template\n  - type: raw_error\n  - type: judge\n    base_url: ${server.url}\n    model: tiny-judge\n    sample_rate: 1\n    cache_dir: ${join(dir, "cache")}\n  - type: sibling\n`);
    const r = await cliAsync(["hints", "coverage", DATA, "--config", config, "--clean", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const out = oneJson(r.stdout);
    expect(out.byLayer.template).toBe(32);
    expect(out.byLayer.judge).toBeGreaterThan(0);
    expect(out.byLayer.judge).toBe(out.byDim.style.judge);
    expect(out.judge.model).toBe("tiny-judge");
    expect(out.judge.calls).toBe(server.requests.length);
    expect(existsSync(join(dir, "cache", "tiny-judge"))).toBe(true);
  });
});

describe("introspection layer", () => {
  it("uses a self_critique callable (the tfjs policy here) and declines when it fails", async () => {
    await initBackend();
    const policy = new Policy({ n_layer: 1, n_embd: 32, block_size: 64 });
    const g = new IntrospectionHintGenerator(policySelfCritique(policy, { maxTokens: 8 }));
    const h = await g.generate(ctx({ error_kind: "tool_error", erroring_action: "Bash(make)", error_message: "no rule" }));
    expect(h === null || typeof h === "string").toBe(true);
    const failing = new IntrospectionHintGenerator(async () => {
      throw new Error("model down");
    });
    expect(await failing.generate(ctx({ error_kind: "tool_error" }))).toBeNull();
    expect(failing.failures).toBe(1);
    policy.dispose();
  });
});

describe("config files", () => {
  it("build the layers they list, in order", () => {
    const dir = tmp();
    const f = join(dir, "h.json");
    writeFileSync(f, JSON.stringify({ layers: [{ type: "raw_error" }, { type: "template", templates: { tool_error: "Reminder: check {tool_name}." } }, { type: "sibling", threshold: 0.5 }] }));
    const gen = buildFromConfig(loadHintsConfig(f));
    expect(gen.layers.map((l: HintGenerator) => l.layer)).toEqual(["raw_error", "template", "sibling"]);
    expect((gen.layers[1] as TemplateHintGenerator).generate(ctx({ error_kind: "tool_error", tool_name: "Bash" }))).toBe("Reminder: check Bash.");
  });

  it("name the file and the field on bad input", () => {
    const dir = tmp();
    const f = join(dir, "bad.yaml");
    writeFileSync(f, "layers:\n  - type: judge\n    sample_rate: 3\n");
    expect(() => loadHintsConfig(f)).toThrow(`${f}:3: layers.0.sample_rate: Number must be less than or equal to 1`);
    writeFileSync(f, "layers:\n  - type: oracle\n");
    expect(() => loadHintsConfig(f)).toThrow(new RegExp(`^${f}:2: layers\\.0\\.type: Invalid discriminator value`));
  });
});

describe("hint shift (teacher vs student)", () => {
  it("on the tfjs policy: exact per-token KL and log-prob shift per source", async () => {
    await initBackend();
    const policy = new Policy({ n_layer: 1, n_embd: 32, block_size: 128, seed: 3 });
    const cov = await hintCoverage((await contextsFromTraces([DATA])).slice(0, 6), defaultLayered());
    const rows = await hintShift(cov.results, policyLogprobModel(policy), { threshold: 1e-9 });
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.mean_kl).not.toBeNull();
      expect(r.mean_kl!).toBeGreaterThan(0);
      expect(Number.isFinite(r.mean_logprob_shift)).toBe(true);
      expect(r.no_op).toBe(false);
    }
    // a huge threshold flags every source as a no-op to prune
    expect((await hintShift(cov.results, policyLogprobModel(policy), { threshold: 1e9 })).every((r) => r.no_op)).toBe(true);
    policy.dispose();
  });

  it("on an OpenAI-compatible endpoint with echoed logprobs: scores only the continuation", async () => {
    // toy server model: tokens are likelier when the prompt contains "Reminder"
    server = await startOpenAIServer(() => ({ content: "" }), { logprob: (prompt) => (prompt.includes("Reminder") ? -0.5 : -1.5) });
    const model = openAILogprobModel({ baseURL: server.url, model: "scorer" });
    const s = await model.score("user: fix it\n\nassistant: ", "I will read the file");
    expect(s.tokenLogprobs).toEqual([-1.5, -1.5, -1.5, -1.5, -1.5]);
    const hinted = [{ ctx: ctx({ error_kind: "tool_error", state_excerpt: "user: fix it", recovery: "I will read the file" }), result: { layer: "raw_error" as const, hint: "Reminder: read first." } }];
    const [row] = await hintShift(hinted, model);
    expect(row).toMatchObject({ source: "raw_error", sites: 1, mean_kl: null, no_op: false });
    expect(row!.mean_logprob_shift).toBeCloseTo(1, 6);
  });
});

describe("composer-lab hints", () => {
  it("show prints the site, its hint and the layer", async () => {
    const r = await cliAsync(["hints", "show", DATA, "--site", "0", "--json", "--no-judge"]);
    expect(r.code, r.stderr).toBe(0);
    const out = oneJson(r.stdout);
    expect(out).toMatchObject({ index: 0, layer: "template", site: { error_kind: "tool_not_found", tool_name: "open_file" } });
    expect(out.hint).toBe("Reminder: Available tools are: read_file, write_file, run_tests, bash. The tool you called does not exist — use one of these.");
    const bad = await cliAsync(["hints", "show", DATA, "--site", "999", "--json"]);
    expect(bad.code).toBe(1);
    expect(oneJson(bad.stdout).error).toBe("--site 999: there are 44 sites (0..43)");
  });
});

// keep the LayeredHintGenerator import honest for readers: it is the class defaultLayered returns
void LayeredHintGenerator;
