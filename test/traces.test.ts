import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { classifyError, ErrorSite, ingest, type IngestedSession, readClaudeSession, Session, summarize, traceExamples, type IngestIssue } from "../lib/traces/index.js";
import { ClaudeSessionWriter } from "../lib/traces/synth.js";
import { cli, oneJson, ROOT, tmp } from "./helpers.js";

const DATA = join(ROOT, "datasets", "traces");
const CLAUDE = join(DATA, "claude", "-home-dev-inventory");

async function all(paths: string[]): Promise<IngestedSession[]> {
  const out: IngestedSession[] = [];
  for await (const s of ingest(paths)) out.push(s);
  return out;
}
const one = async (path: string): Promise<IngestedSession> => (await all([path]))[0]!;

describe("error_kind classification (one ordered table)", () => {
  it.each([
    ["/bin/bash: line 1: rg: command not found", "command_not_found"],
    ["cat: foo.txt: No such file or directory", "file_not_found"],
    ["Error: No such tool available: ReadFile", "tool_not_found"],
    ["InputValidationError: The required parameter `file_path` is missing", "schema_mismatch"],
    ["json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)", "json_decode"],
    ["  File \"x.py\", line 2\nSyntaxError: invalid syntax", "syntax_error"],
    ["FAILED tests/test_a.py::test_b - AssertionError: assert 1 == 2", "failing_test"],
    ["src/app.py:3:1: F401 'os' imported but unused", "lint_style"],
    ["bash: /etc/x: Permission denied", "permission_denied"],
    ["curl: (7) Failed to connect to localhost port 80: Connection refused", "connection_error"],
    ["Traceback (most recent call last):\n  File \"a.py\", line 1\nKeyError: 'x'", "runtime_error"],
    ["make: *** No rule to make target 'release'.  Stop.", "tool_error"],
  ])("%s → %s", (msg, kind) => expect(classifyError(msg)).toBe(kind));

  it("puts command_not_found before file_not_found and failing_test before runtime_error", () => {
    expect(classifyError("sh: 1: pytest: not found\nsh: rg: command not found: No such file or directory")).toBe("command_not_found");
    expect(classifyError("Traceback (most recent call last):\nFileNotFoundError: x\nFAILED tests/t.py::t - FileNotFoundError")).toBe("failing_test");
  });
});

describe("Claude Code reader", () => {
  it("merges records sharing message.id, pairs tool results, keeps thinking unless stripped", async () => {
    const s = (await readClaudeSession(join(CLAUDE, "7f2c1e0a-0001-4c1e-9a51-inventory0001.jsonl")))!;
    Session.parse(s);
    expect(s.id).toBe("7f2c1e0a-0001-4c1e-9a51-inventory0001");
    const first = s.turns.find((t) => t.role === "assistant")!;
    expect(first.thinking).toBe("Run the suite first to see the failure.");
    expect(first.text).toBe("I'll run the tests to reproduce.");
    expect(first.uuids).toHaveLength(2);
    expect(s.turns.filter((t) => t.role === "summary")).toHaveLength(1);
    // the compaction boundary is crossed: every record stays on the main chain
    expect(s.turns.every((t) => t.chain === "main")).toBe(true);
    const stripped = (await readClaudeSession(join(CLAUDE, "7f2c1e0a-0001-4c1e-9a51-inventory0001.jsonl"), { strip_thinking: true }))!;
    expect(stripped.turns.every((t) => t.thinking === null)).toBe(true);
  });

  it("marks sidechains and abandoned branches", async () => {
    const s = (await readClaudeSession(join(CLAUDE, "7f2c1e0a-0003-4c1e-9a51-inventory0003.jsonl")))!;
    expect(s.turns.filter((t) => t.chain === "sidechain")).toHaveLength(6);
    const branch = s.turns.filter((t) => t.chain === "branch");
    expect(branch.map((t) => t.text)).toEqual(["Let me try rewriting the whole importer."]);
  });

  it("reports each bad line with file, line and reason, and ingests the rest", async () => {
    const file = join(CLAUDE, "7f2c1e0a-0005-4c1e-9a51-inventory0005.jsonl");
    const issues: IngestIssue[] = [];
    const s = (await readClaudeSession(file, {}, issues))!;
    expect(issues.map((i) => `${i.line}: ${i.reason}`).sort()).toEqual([
      "10: malformed JSON (Unterminated string in JSON at position 135)",
      "3: not a JSON object (array)",
      "4: unknown record type \"telemetry-ping\"",
      "7: dangling parentUuid 00000000-dead-4bee-8000-000000000000",
      "7: tool_result without its tool_use (id toolu_missing)",
      "8: assistant record without a message object",
    ]);
    expect(issues.every((i) => i.file === file)).toBe(true);
    expect(s.turns.filter((t) => t.role === "assistant")).toHaveLength(2);
  });
});

describe("error sites", () => {
  it("carry everything the hint layers need", async () => {
    const { session, sites } = await one(join(CLAUDE, "7f2c1e0a-0002-4c1e-9a51-inventory0002.jsonl"));
    const s = sites.find((x) => x.error_kind === "tool_not_found")!;
    ErrorSite.parse(s);
    expect(s).toMatchObject({ tool_name: "ReadFile", behavior_dim: "tool_use", repeat_count: 1, has_recovery: true, chain: "main" });
    expect(s.available_tools).toEqual(["Bash", "Edit", "Grep", "Read"]);
    expect(s.erroring_action).toBe('ReadFile({"path":"inventory/cli.py"})');
    expect(s.error_message).toContain("No such tool available: ReadFile");
    expect(s.state_excerpt).toContain("Add a --json flag");
    // the site sits on the assistant turn right after the error
    const recovery = session.turns[s.turn_index]!;
    expect(recovery.role).toBe("assistant");
    expect(recovery.toolCalls[0]!.name).toBe("Read");
    expect(traceExamples(session, sites).find((e) => e.turn_index === s.turn_index)!.tool_error).toBe("tool_not_found");
  });

  it("uses the string tag only as a fallback when no structural flag exists", async () => {
    const dir = tmp();
    const s = new ClaudeSessionWriter("tag-test");
    s.user("go");
    const [a] = s.assistant({ tools: [{ name: "Bash", input: { command: "ls x" } }] });
    s.raw(JSON.stringify({ type: "user", uuid: "u-1", parentUuid: s.head, sessionId: "tag-test", message: { role: "user", content: [{ type: "tool_result", tool_use_id: a, content: "[TOOL_RESULT (ERROR)] ls: cannot access 'x': No such file or directory" }] } }));
    const [b] = s.assistant({ tools: [{ name: "Bash", input: { command: "ls y" } }] });
    s.raw(JSON.stringify({ type: "user", uuid: "u-2", parentUuid: s.head, sessionId: "tag-test", message: { role: "user", content: [{ type: "tool_result", tool_use_id: b, is_error: false, content: "[TOOL_RESULT (ERROR)] but the flag says fine" }] } }));
    s.assistant({ text: "done" });
    writeFileSync(join(dir, "t.jsonl"), s.text());
    const { sites } = await one(dir);
    expect(sites.map((x) => x.error_kind)).toEqual(["file_not_found"]);
  });

  it("detects repeated_failure with n and wasteful_action", async () => {
    const { sites } = await one(join(CLAUDE, "7f2c1e0a-0003-4c1e-9a51-inventory0003.jsonl"));
    const rep = sites.filter((s) => s.error_kind === "repeated_failure");
    expect(rep).toHaveLength(1);
    expect(rep[0]).toMatchObject({ repeat_count: 3, behavior_dim: "effort" });
    expect(sites.filter((s) => s.error_kind === "failing_test").map((s) => s.repeat_count)).toEqual([1, 2, 3]);
    const { sites: s1 } = await one(join(CLAUDE, "7f2c1e0a-0001-4c1e-9a51-inventory0001.jsonl"));
    const waste = s1.filter((s) => s.error_kind === "wasteful_action");
    expect(waste).toHaveLength(1);
    expect(waste[0]!.tool_name).toBe("Read");
  });
});

describe("the bundled datasets (exact counts)", () => {
  it("summarize over both formats", async () => {
    const sum = await summarize([DATA]);
    expect(sum).toMatchObject({
      files: 6, sessions: 9, turns: 137, assistantTurns: 66, sidechainTurns: 10, branchTurns: 2, summaries: 1, toolCalls: 53,
      errorSites: 30, malformedLines: 2, issues: 9, formats: { chat: 4, claude: 5 },
    });
    expect(sum.errorKinds).toEqual({
      failing_test: 8, runtime_error: 3, file_not_found: 3, tool_not_found: 2, wasteful_action: 2, repeated_failure: 2, lint_style: 2,
      malformed_args: 1, schema_mismatch: 1, command_not_found: 1, syntax_error: 1, permission_denied: 1, connection_error: 1, json_decode: 1, tool_error: 1,
    });
    expect(sum.behaviorDims).toEqual({ tool_use: 24, effort: 4, style: 2 });
  });

  it("chat format: malformed args, undeclared tools, flags and tags", async () => {
    const sessions = await all([join(DATA, "chat")]);
    expect(sessions.map((s) => s.session.id)).toEqual(["toolz-curry-001", "sorted-bisect-002", "jinja-filter-003", "lint-006"]);
    expect(sessions[0]!.sites.map((s) => s.error_kind)).toEqual(["tool_not_found", "malformed_args"]);
    expect(sessions[0]!.sites[0]!.available_tools).toEqual(["read_file", "write_file", "run_tests", "bash"]);
    expect(sessions[1]!.sites.map((s) => s.error_kind)).toEqual(["runtime_error", "file_not_found", "wasteful_action"]);
    expect(sessions[2]!.sites.find((s) => s.error_kind === "repeated_failure")!.repeat_count).toBe(4);
  });

  it("auto-detects the format, and --format forces one", async () => {
    const forced = await summarize([join(DATA, "chat")], { format: "claude" });
    expect(forced.sessions).toBe(0);
    expect(forced.issues).toBeGreaterThan(0);
  });
});

describe("composer-lab traces summarize", () => {
  it("prints one JSON object with the counts", () => {
    const r = cli(["traces", "summarize", DATA, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const out = oneJson(r.stdout);
    expect(out).toMatchObject({ ok: true, files: 6, sessions: 9, errorSites: 30, malformedLines: 2 });
    expect(out.errorKinds.failing_test).toBe(8);
  });

  it("names a missing path", () => {
    const r = cli(["traces", "summarize", "/no/such/traces", "--json"]);
    expect(r.code).toBe(1);
    expect(oneJson(r.stdout).error).toBe("no such file or directory: /no/such/traces");
  });
});
