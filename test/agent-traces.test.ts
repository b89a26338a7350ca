/**
 * The other agents' logs (Codex CLI, OpenHands, SWE-agent, mini-swe-agent) and Claude Code's
 * subagent layouts, on the fixtures in datasets/agent-traces (scripts/make-agent-trace-fixtures.ts,
 * written from each format's documented shapes). Expected counts are read off the raw files by
 * counters written here, independently of the readers, or stated from the fixture by hand.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { describe, expect, it } from "vitest";
import { chromiumPath } from "../lib/core/index.js";
import { collect, planSources, siteTurns, summarize, type IngestedSession } from "../lib/traces/index.js";
import { CHROMIUM_ARGS, sessionPage } from "../lib/viz/index.js";
import { cli, oneJson, ROOT, tmp } from "./helpers.js";

const DATA = join(ROOT, "datasets", "agent-traces");
const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]));
const lines = (f: string) => readFileSync(f, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, any>);
const kindsOf = (s: IngestedSession) => s.sites.map((x) => x.error_kind);

describe("Codex CLI rollouts", () => {
  it("calls, outputs and errors as the raw items count them; a resumed file is one session with both ids", async () => {
    const files = walk(join(DATA, "codex"));
    const { sessions, issues } = await collect([join(DATA, "codex")]);
    expect(issues).toEqual([]);
    expect(sessions.map((s) => s.session.format)).toEqual(["codex", "codex"]);
    // independent count: distinct call ids of calls, and of outputs
    let calls = 0;
    let outputs = 0;
    for (const f of files) {
      const items = lines(f).filter((r) => r.type === "response_item").map((r) => r.payload);
      calls += new Set(items.filter((p) => ["function_call", "custom_tool_call", "local_shell_call"].includes(p.type)).map((p) => p.call_id)).size;
      outputs += new Set(items.filter((p) => /_output$/.test(p.type)).map((p) => p.call_id)).size;
    }
    const ours = sessions.flatMap((s) => s.session.turns);
    expect(ours.reduce((a, t) => a + t.toolCalls.length, 0)).toBe(calls);
    expect(ours.reduce((a, t) => a + t.toolResults.length, 0)).toBe(outputs);
    const [first, resumed] = sessions;
    expect(first!.session.id).toBe("0199a1b2-c3d4-7e5f-8a9b-codex0000001");
    // stated from the fixture: pytest failure, apply_patch refused, usage error, rejected push
    expect(kindsOf(first!)).toEqual(["failing_test", "edit_no_match", "usage_error", "vcs_error"]);
    expect(first!.session.turns.some((t) => t.role === "system" && /turn aborted: interrupted/.test(t.text))).toBe(true);
    expect(first!.session.turns.filter((t) => t.role === "summary")).toHaveLength(1);
    expect(first!.session.turns.filter((t) => t.role === "system" && /environment_context/.test(t.text))).toHaveLength(1);
    expect(first!.session.stats).toMatchObject({ model: "gpt-5-codex", input_tokens: 21000, output_tokens: 1300 });
    // the parallel pair (a usage error and a status) is one response and one environment turn
    const pair = first!.session.turns.find((t) => t.toolCalls.length === 2)!;
    expect(pair.toolCalls.map((c) => c.id)).toEqual(["call_c5", "call_c6"]);
    expect(resumed!.session.id).toBe("0199a1b2-c3d4-7e5f-8a9b-codex0000002");
    expect(resumed!.session.stats?.other_ids).toEqual(["0199a1b2-c3d4-7e5f-8a9b-codex0000001"]);
    expect(kindsOf(resumed!)).toEqual(["vcs_error", "connection_error", "nonzero_exit", "malformed_args"]);
  });
});

describe("OpenHands event streams", () => {
  it("the file store's events/ folder, a trajectory export, evaluation output and V1 SDK events", async () => {
    const { sessions, issues } = await collect([join(DATA, "openhands")]);
    expect(sessions.map((s) => [s.session.id, s.session.format])).toEqual([
      ["textkit__textkit-101", "openhands"], ["textkit__textkit-102", "openhands"],
      ["4f3e2d1c0b0a49e8a7b6c5d4e3f2a1b0", "openhands"], ["trajectory-fix-slug", "openhands"], ["v1-events", "openhands"],
    ]);
    // the conversation's metadata.json is no event list: reported, not silently dropped
    expect(issues.map((i) => [i.file.split("/").pop(), i.line])).toEqual([["metadata.json", 0]]);
    const store = sessions[2]!;
    // independent count over the raw events: actions that are tool calls, observations that answer one
    const events = readdirSync(join(DATA, "openhands", "sessions", "4f3e2d1c0b0a49e8a7b6c5d4e3f2a1b0", "events")).map((n) => JSON.parse(readFileSync(join(DATA, "openhands", "sessions", "4f3e2d1c0b0a49e8a7b6c5d4e3f2a1b0", "events", n), "utf8")));
    const toolActions = events.filter((e) => e.action && !["system", "message", "think", "finish"].includes(e.action));
    const answers = events.filter((e) => e.observation && typeof e.cause === "number");
    expect(store.session.turns.reduce((a, t) => a + t.toolCalls.length, 0)).toBe(toolActions.length);
    expect(store.session.turns.reduce((a, t) => a + t.toolResults.length, 0)).toBe(answers.length);
    expect(kindsOf(store)).toEqual(["failing_test", "file_not_found", "vcs_error"]);
    // two reads from one model response are one turn
    expect(store.session.turns.find((t) => t.toolCalls.length === 2)!.toolCalls.map((c) => c.name)).toEqual(["str_replace_editor", "str_replace_editor"]);
    expect(store.session.stats).toMatchObject({ cost_usd: 0.041, input_tokens: 15800, output_tokens: 720 });
    expect(kindsOf(sessions[3]!)).toEqual(kindsOf(store));
    expect(kindsOf(sessions[4]!)).toEqual(["file_not_found", "schema_mismatch"]);
  });
});

describe("SWE-agent and mini-swe-agent trajectories", () => {
  it("SWE-agent: a step is a call and its observation; demonstrations skipped; errors from the observation text", async () => {
    const file = join(DATA, "swe-agent", "ledger__ledger-17.traj");
    const raw = JSON.parse(readFileSync(file, "utf8"));
    const [s] = (await collect([file])).sessions;
    expect(s!.session.format).toBe("swe-agent");
    expect(s!.session.turns.reduce((a, t) => a + t.toolCalls.length, 0)).toBe(raw.trajectory.length);
    expect(s!.session.turns.some((t) => /demonstration/.test(t.text))).toBe(false);
    expect(s!.session.turns.map((t) => t.toolCalls[0]?.name).filter(Boolean)).toEqual(raw.trajectory.map((x: { action: string }) => x.action.split(/\s/)[0]));
    expect(kindsOf(s!)).toEqual(["syntax_error", "runtime_error"]);
    expect(s!.session.stats).toMatchObject({ exit_status: "submitted", cost_usd: 0.35, input_tokens: 41000 });
  });

  it("mini-swe-agent: one bash block a response; <returncode> is the exit status; a format error is a malformed call", async () => {
    const file = join(DATA, "mini-swe-agent", "tally__tally-3.traj.json");
    const raw = JSON.parse(readFileSync(file, "utf8"));
    const [s] = (await collect([file])).sessions;
    expect(s!.session.format).toBe("mini-swe-agent");
    const assistant = raw.messages.filter((m: { role: string }) => m.role === "assistant").length;
    expect(s!.session.turns.filter((t) => t.role === "assistant")).toHaveLength(assistant);
    const nonZero = raw.messages.filter((m: { content: string }) => /^<returncode>[1-9]/.test(m.content)).length;
    expect(s!.session.turns.flatMap((t) => t.toolResults).filter((r) => r.isError === true && /^<returncode>/.test(r.content))).toHaveLength(nonZero);
    expect(kindsOf(s!)).toEqual(["malformed_args", "command_timeout", "failing_test"]);
  });
});

describe("Claude Code subagents, linked to the call that spawned them", () => {
  it("the three layouts, compaction agents and warm-ups", async () => {
    const sum = await summarize([join(DATA, "claude-subagents")]);
    expect(sum).toMatchObject({ sessions: 3, subagentTranscripts: 5, subagentsLinked: 3, subagentKinds: { task: 3, compaction: 1, warmup: 1 }, formats: { claude: 3 } });
    const { sessions } = await collect([join(DATA, "claude-subagents")]);
    const links = Object.fromEntries(sessions.flatMap((s) => s.session.subagents ?? []).map((a) => [a.agentId, [a.layout, a.kind, a.linkedBy]]));
    expect(links).toEqual({
      a7f3c21: ["subagents_dir", "task", "result_agent_id"],
      "acompact-5e21b0": ["subagents_dir", "compaction", null],
      "9c04e1d2": ["sibling_file", "task", "prompt"],
      "1f2e3d4c": ["sibling_file", "warmup", null],
      b81d2f0: ["progress_records", "task", "progress_parent"],
    });
    for (const { session } of sessions) {
      for (const a of session.subagents ?? []) {
        if (!a.parentCallId) continue;
        // the link points at a real Task call of the parent, in the turn it names
        const turn = session.turns[a.parentTurnIndex!]!;
        expect(turn.agentId ?? null).toBeNull();
        expect(turn.toolCalls.some((c) => c.id === a.parentCallId && c.name === "Task")).toBe(true);
      }
      // the parent's own turns come first; indices are positions
      session.turns.forEach((t, i) => expect(t.index).toBe(i));
    }
    // sites inside a subagent carry it, its file and the parent call
    const inside = sessions.flatMap((s) => s.sites).filter((x) => x.agent_id);
    expect(inside.map((x) => [x.agent_id, x.error_kind, x.file.split("/").pop(), !!x.parent_call_id])).toEqual([
      ["a7f3c21", "usage_error", "agent-a7f3c21.jsonl", true],
      ["9c04e1d2", "file_not_found", "agent-9c04e1d2.jsonl", true],
      ["9c04e1d2", "vcs_error", "agent-9c04e1d2.jsonl", true],
      ["b81d2f0", "command_not_found", "5b1c9e2a-0003-4d2e-8f3a-tally0000003.jsonl", true],
    ]);
    // the progress-only transcript: its records once each (one was sent twice)
    const progress = sessions[2]!.session;
    const agentRecords = new Set(lines(progress.file).filter((r) => r.data?.type === "agent_progress").map((r) => r.data.message.uuid));
    expect(progress.turns.filter((t) => t.agentId === "b81d2f0")).toHaveLength(agentRecords.size);
    // an unknown skill is a tool the agent does not have
    expect(sessions[2]!.sites.filter((x) => !x.agent_id).map((x) => x.error_kind)).toEqual(["tool_not_found"]);
    // and they can be left out
    const without = await summarize([join(DATA, "claude-subagents")], { subagents: "exclude" });
    expect(without).toMatchObject({ sessions: 3, subagentTranscripts: 0, subagentTurns: 0, errorSites: 1 });
  });

  it("collate and hints can leave subagent turns out", () => {
    const dir = join(DATA, "claude-subagents");
    const withSub = oneJson(cli(["collate", dir, "--out", tmp("col-"), "--json"]).stdout);
    const without = oneJson(cli(["collate", dir, "--out", tmp("col-"), "--no-subagents", "--json"]).stdout);
    expect([withSub.sites, without.sites]).toEqual([5, 1]);
    expect(without.sdpo_rows).toBe(1);
    const cov = oneJson(cli(["hints", "coverage", dir, "--no-subagents", "--json"]).stdout);
    expect(cov.sites).toBe(1);
  });

  it("from a site to its session and turns in one call (siteTurns), inside a subagent too", async () => {
    const { sessions, sites } = await collect([join(DATA, "claude-subagents")]);
    const inside = sites.find((x) => x.agent_id === "a7f3c21")!;
    const { session, turns } = siteTurns(sessions, inside, 2);
    expect(session.id).toBe("5b1c9e2a-0001-4d2e-8f3a-tally0000001");
    expect(turns.every((t) => t.agentId === "a7f3c21")).toBe(true);
    expect(turns[turns.length - 1]!.index).toBe(inside.turn_index);
    expect(turns.some((t) => t.toolResults.some((r) => /wasn't expected/.test(r.content)))).toBe(true);
    expect(() => siteTurns([], inside)).toThrow(/no session 5b1c9e2a-0001/);
  });

  it("a session file named on its own brings its subagents along", async () => {
    const file = join(DATA, "claude-subagents", "-home-dev-tally", "5b1c9e2a-0002-4d2e-8f3a-tally0000002.jsonl");
    const { sessions } = await collect([file]);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.session.subagents!.map((a) => a.agentId).sort()).toEqual(["1f2e3d4c", "9c04e1d2"]);
  });
});

describe("no silent skip", () => {
  it("every file under the paths is read or reported with why; counts per format", async () => {
    const { sources, skipped } = planSources([DATA]);
    const seen = new Set([...sources.flatMap((s) => s.files), ...skipped.map((i) => i.file)]);
    for (const f of walk(DATA)) expect(seen.has(f), f).toBe(true);
    const sum = await summarize([DATA]);
    expect(sum.formats).toEqual({ codex: 2, openhands: 5, "swe-agent": 1, "mini-swe-agent": 1, claude: 3 });
    const why = sum.issueSamples.filter((i) => i.line === 0).map((i) => `${i.file.split("/").pop()}: ${i.reason.replace(/\(.*$/, "").trim()}`).sort();
    expect(why).toEqual(["5b1c9e2a-0004-4d2e-8f3a-tally0000004.jsonl: summary-only file", "5b1c9e2a-0005-4d2e-8f3a-tally0000005.jsonl: empty file", "metadata.json: could not tell the format", "notes.txt: unsupported extension"]);
    expect(sum.filesSkipped).toBe(4);
    expect(sum.files).toBe(walk(DATA).length);
  });

  it("`traces summarize` of a folder with nothing readable fails, saying what it skipped", () => {
    const dir = tmp("notraces-");
    writeFileSync(join(dir, "notes.txt"), "hi\n");
    writeFileSync(join(dir, "export.json"), JSON.stringify({ hello: "world" }));
    const r = cli(["traces", "summarize", dir, "--json"]);
    expect(r.code).toBe(1);
    const out = oneJson(r.stdout);
    expect(out.ok).toBe(false);
    expect(out.error).toMatch(/no session read/);
    expect(out.issueSamples.map((i: { reason: string }) => i.reason.replace(/\(.*$/, "").trim()).sort()).toEqual(["could not tell the format", "unsupported extension"]);
  });

  it("--format forces a reader; the formats on the CLI come from the registry", () => {
    const r = cli(["traces", "summarize", join(DATA, "codex"), "--format", "openhands", "--json"]);
    expect(oneJson(r.stdout).sessions).toBe(0);
    const ok = oneJson(cli(["traces", "summarize", join(DATA, "codex"), "--format", "codex", "--json"]).stdout);
    expect(ok).toMatchObject({ ok: true, sessions: 2, formats: { codex: 2 } });
  });
});

describe("the session viewer", () => {
  it("draws in Chromium: subagents nested under their call, sites with each layer's hint, a search that finds", async () => {
    const file = join(DATA, "claude-subagents", "-home-dev-tally", "5b1c9e2a-0001-4d2e-8f3a-tally0000001.jsonl");
    const out = join(tmp("view-"), "session.html");
    const r = cli(["traces", "view", file, "--out", out, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(oneJson(r.stdout)).toMatchObject({ ok: true, subagents: 2, errorSites: 1 });
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      await page.goto(`file://${out}`);
      // the subagent sits inside the parent turn that holds the Task call that spawned it
      const nested = await page.evaluate(() => {
        const d = (globalThis as any).document.querySelector('details.subagent[data-agent="a7f3c21"]');
        const turn = d?.closest(".turn") as any;
        return { inTurn: !!turn, turnHasTask: !!turn?.querySelector(":scope > .call .name") && turn!.querySelector(":scope > .call .name")!.textContent === "Task", innerTurns: d?.querySelectorAll(".turn").length ?? 0 };
      });
      expect(nested).toEqual({ inTurn: true, turnHasTask: true, innerTurns: 6 });
      expect(await page.locator(".site .kind").allTextContents()).toEqual(["usage_error"]);
      expect(await page.locator(".site .hint .layer").allTextContents()).toEqual(["template", "raw_error", "sibling"]);
      await page.fill("input[type=search]", "most_common(3)");
      expect(await page.locator(".search .count").textContent()).toBe("1 turn match");
      expect(await page.locator(".turn.hit").count()).toBe(1);
      const png = await page.screenshot();
      expect(png.length).toBeGreaterThan(20_000);
    } finally {
      await browser.close();
    }
  });

  it("renders every fixture format without losing a turn", async () => {
    const { sessions } = await collect([DATA]);
    for (const { session, sites } of sessions) {
      const html = sessionPage(session, sites);
      expect((html.match(/class="turn /g) ?? []).length, session.id).toBe(session.turns.length);
    }
  });
});
