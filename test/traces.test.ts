import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { contextFromSite, defaultTemplates, extractSlots, RawErrorHintGenerator, TemplateHintGenerator } from "../lib/hints/index.js";
import {
  classifyError, ERROR_KIND_HINTING, ErrorKind, ErrorSite, exceptionLine, failingAssertion, failingTestName, headTail, ingest, type IngestedSession,
  listTraceFiles, readClaudeSession, Session, summarize, traceExamples, type IngestIssue,
} from "../lib/traces/index.js";
import { ChatTrajectoryWriter, ClaudeSessionWriter } from "../lib/traces/synth.js";
import { cli, oneJson, ROOT, tmp } from "./helpers.js";

const DATA = join(ROOT, "datasets", "traces");
/** The Claude Code and chat datasets (the other formats. fixtures are in datasets/agent-traces: see agent-traces.test.ts). */
const CLAUDE_AND_CHAT = [join(DATA, "claude"), join(DATA, "chat")];
const CLAUDE = join(DATA, "claude", "-home-dev-inventory");
const LEDGER = join(DATA, "claude", "-home-dev-ledger");
const ledger = (n: number) => join(LEDGER, `3c9e5b1d-210${n}-4b7e-8c1a-ledger00000${n}.jsonl`);

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
    ["make: *** No rule to make target 'release'.  Stop.", "usage_error"],
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
    const sum = await summarize(CLAUDE_AND_CHAT);
    expect(sum).toMatchObject({
      // the inventory subagent transcript (subagents/agent-a1b2c3d4.jsonl) folds into the session it names
      files: 10, sessions: 12, turns: 202, assistantTurns: 97, sidechainTurns: 10, branchTurns: 2, summaries: 1, toolCalls: 84,
      errorSites: 44, malformedLines: 2, issues: 9, formats: { chat: 5, claude: 7 }, subagentTranscripts: 1, subagentTurns: 4,
    });
    expect(sum.errorKinds).toEqual({
      failing_test: 10, runtime_error: 4, file_not_found: 4, tool_not_found: 2, wasteful_action: 2, repeated_failure: 2, lint_style: 3,
      malformed_args: 1, schema_mismatch: 1, command_not_found: 1, syntax_error: 2, permission_denied: 1, connection_error: 1, json_decode: 1,
      usage_error: 1, // "make: *** No rule to make target 'release'" (was the catch-all tool_error)
      // Claude Code 2.x (the ledger sessions)
      file_not_read: 1, edit_no_match: 1, file_too_large: 1, tool_denied: 2, command_timeout: 1, sibling_cascade: 1, user_rejected: 1,
    });
    expect(sum.behaviorDims).toEqual({ tool_use: 36, effort: 4, style: 3, communication: 1 });
  });

  it("chat format: malformed args, undeclared tools, flags and tags", async () => {
    const sessions = await all([join(DATA, "chat")]);
    expect(sessions.map((s) => s.session.id)).toEqual(["toolz-curry-001", "sorted-bisect-002", "jinja-filter-003", "lint-006", "attrs-frozen-007"]);
    expect(sessions[0]!.sites.map((s) => s.error_kind)).toEqual(["tool_not_found", "malformed_args"]);
    expect(sessions[0]!.sites[0]!.available_tools).toEqual(["read_file", "write_file", "run_tests", "bash"]);
    expect(sessions[1]!.sites.map((s) => s.error_kind)).toEqual(["runtime_error", "file_not_found", "wasteful_action"]);
    expect(sessions[2]!.sites.find((s) => s.error_kind === "repeated_failure")!.repeat_count).toBe(4);
  });

  it("worker threads give the same summary and the same issues in the same order", async () => {
    const one: string[] = [];
    const many: string[] = [];
    const a = await summarize(CLAUDE_AND_CHAT, { workers: 1, onIssue: (i) => one.push(`${i.file}:${i.line}: ${i.reason}`) });
    const b = await summarize(CLAUDE_AND_CHAT, { workers: 3, onIssue: (i) => many.push(`${i.file}:${i.line}: ${i.reason}`) });
    expect(b).toEqual(a);
    expect(many).toEqual(one);
    expect(one).toHaveLength(9);
  });

  it("auto-detects the format, and --format forces one", async () => {
    const forced = await summarize([join(DATA, "chat")], { format: "claude" });
    expect(forced.sessions).toBe(0);
    expect(forced.issues).toBeGreaterThan(0);
  });
});

describe("composer-lab traces summarize", () => {
  it("prints one JSON object with the counts", () => {
    const r = cli(["traces", "summarize", ...CLAUDE_AND_CHAT, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const out = oneJson(r.stdout);
    expect(out).toMatchObject({ ok: true, files: 10, sessions: 12, errorSites: 44, malformedLines: 2 });
    expect(out.errorKinds.failing_test).toBe(10);
  });

  it("--text-errors reads the rules per source from a YAML file (and names the file and field when one is wrong)", () => {
    const dir = tmp();
    writeFileSync(join(dir, "rules.yaml"), "sources:\n  - match: unflagged-errors\n    rules: null\n");
    const r = cli(["traces", "summarize", join(DATA, "chat"), "--text-errors", join(dir, "rules.yaml"), "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(oneJson(r.stdout)).toMatchObject({ sessions: 5, errorSites: 11 }); // 14 with the default chat rules
    writeFileSync(join(dir, "bad.yaml"), "formats:\n  chat:\n    - flags: x\n");
    const bad = cli(["traces", "summarize", join(DATA, "chat"), "--text-errors", join(dir, "bad.yaml"), "--json"]);
    expect(bad.code).toBe(1);
    expect(oneJson(bad.stdout).error).toMatch(/bad\.yaml:\d+: formats\.chat\.0\.pattern: Required/);
  });

  it("names a missing path", () => {
    const r = cli(["traces", "summarize", "/no/such/traces", "--json"]);
    expect(r.code).toBe(1);
    expect(oneJson(r.stdout).error).toBe("no such file or directory: /no/such/traces");
  });
});

/** Raw counts straight from a Claude Code file (JSON.parse per line, nothing from lib/traces). */
function rawCounts(file: string) {
  const recs = readFileSync(file, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
  const blocks = (r: any, type: string) => (Array.isArray(r.message?.content) ? r.message.content.filter((b: any) => b.type === type) : []);
  return {
    messages: new Set(recs.filter((r) => r.type === "assistant").map((r) => r.message.id)).size,
    toolUses: recs.reduce((n, r) => n + (r.type === "assistant" ? blocks(r, "tool_use").length : 0), 0),
    errors: recs.reduce((n, r) => n + (r.type === "user" ? blocks(r, "tool_result").filter((b: any) => b.is_error === true).length : 0), 0),
    progress: recs.filter((r) => r.type === "progress").length,
  };
}

describe("Claude Code 2.x sessions (datasets/traces/claude/-home-dev-ledger)", () => {
  it("one assistant turn per API message, tool calls and errors counted independently from the raw records", async () => {
    const expected = [
      { turns: 14, assistant: 7, calls: 9, progress: 4, kinds: ["failing_test", "sibling_cascade", "edit_no_match"] },
      { turns: 22, assistant: 11, calls: 11, progress: 5, kinds: ["file_not_read", "runtime_error", "file_too_large", "lint_style"] },
      { turns: 16, assistant: 7, calls: 6, progress: 5, kinds: ["user_rejected", "tool_denied", "command_timeout", "tool_denied"] },
    ];
    for (const [i, want] of expected.entries()) {
      const file = ledger(i + 1);
      const { session, sites } = await one(file);
      const raw = rawCounts(file);
      expect(raw).toMatchObject({ messages: want.assistant, toolUses: want.calls, progress: want.progress });
      expect(session.turns).toHaveLength(want.turns);
      expect(session.turns.filter((t) => t.role === "assistant")).toHaveLength(raw.messages);
      expect(session.turns.reduce((n, t) => n + t.toolCalls.length, 0)).toBe(raw.toolUses);
      expect(sites.filter((x) => x.error_kind !== "wasteful_action" && x.error_kind !== "repeated_failure")).toHaveLength(raw.errors);
      expect(sites.map((x) => x.error_kind)).toEqual(want.kinds);
      // progress records sit in the chain: everything is on the main thread
      expect(session.turns.every((t) => t.chain === "main")).toBe(true);
    }
  });

  it("progress records are threaded: without them the chain would be cut", async () => {
    const dir = tmp();
    const text = readFileSync(ledger(1), "utf8");
    const cut = join(dir, "no-progress.jsonl");
    writeFileSync(cut, text.split("\n").filter((l) => !l.includes('"type":"progress"')).join("\n"));
    const issues: IngestIssue[] = [];
    const s = (await readClaudeSession(cut, {}, issues))!;
    expect(s.turns.filter((t) => t.chain === "branch").length).toBeGreaterThan(0);
    expect(issues.filter((i) => i.reason.startsWith("dangling parentUuid"))).toHaveLength(3);
    const whole: IngestIssue[] = [];
    await readClaudeSession(ledger(1), {}, whole);
    expect(whole).toEqual([]);
  });

  it("parallel results gather into one environment turn; the recovery is the next message, never a sibling fragment", async () => {
    const { session, sites } = await one(ledger(1));
    const reads = session.turns[1]!;
    expect(reads.toolCalls.map((c) => c.name)).toEqual(["Read", "Read", "Grep"]);
    expect(reads.uuids).toHaveLength(5); // thinking, text and three tool_use records
    expect(session.turns[2]!.toolResults).toHaveLength(3);
    const [test, cascade] = sites;
    const erroring = session.turns.find((t) => t.toolCalls.some((c) => test!.erroring_action.startsWith(`${c.name}(`) && t.index === 3))!;
    expect(erroring.toolCalls).toHaveLength(2);
    for (const site of [test!, cascade!]) {
      expect(site.turn_index).toBe(5);
      expect(session.turns[5]!.role).toBe("assistant");
      expect(session.turns[5]!.messageId).not.toBe(erroring.messageId);
    }
    expect(test!.line).toBe(15);
    expect(cascade!.line).toBe(17);
  });

  it("a sibling cascade is marked as such: not a failure of its own, never hinted, and retrying it later is not waste", async () => {
    const { session, sites } = await one(ledger(1));
    const cascade = sites.find((x) => x.error_kind === "sibling_cascade")!;
    expect(cascade).toMatchObject({ tool_name: "Bash", repeat_count: 1 });
    const ctx = contextFromSite(cascade, session);
    expect(new TemplateHintGenerator().generate(ctx)).toBeNull();
    expect(new RawErrorHintGenerator().generate(ctx)).toBeNull();
    // the same command, run on its own once the failure is fixed (turn 11), is not a wasteful repeat
    expect(session.turns[11]!.toolCalls[0]!.input).toEqual({ command: "python -m ledger.cli totals data/sample.csv", description: "Totals of the sample" });
    expect(sites.some((x) => x.error_kind === "wasteful_action")).toBe(false);
    // the recovery turn is marked by the call's own failure, not the cascade
    expect(traceExamples(session, sites).find((e) => e.turn_index === 5)!.tool_error).toBe("failing_test");
  });

  it("wasteful_action only when nothing changed between the repeats", async () => {
    const edit = { file_path: "/p/a.py", old_string: "x = 1", new_string: "x = 2" };
    const notRead = "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>";
    const sitesOf = async (build: (w: ClaudeSessionWriter) => void) => {
      const dir = tmp();
      const w = new ClaudeSessionWriter("waste", "/p", undefined, "2.1.3");
      w.user("go");
      build(w);
      w.assistant({ text: "done" });
      writeFileSync(join(dir, "w.jsonl"), w.text());
      return (await one(dir)).sites.map((x) => x.error_kind);
    };
    // refused Edit → Read → the same Edit: the fix, not waste (ledger000002 does this too)
    expect(await sitesOf((w) => (w.act("Edit", edit, notRead, true), w.act("Read", { file_path: "/p/a.py" }, "1\tx = 1"), w.act("Edit", edit, "updated")))).toEqual(["file_not_read"]);
    expect((await one(ledger(2))).sites.some((x) => x.error_kind === "wasteful_action")).toBe(false);
    // the same refused Edit again at once: nothing changed, nothing learned
    expect(await sitesOf((w) => (w.act("Edit", edit, notRead, true), w.act("Edit", edit, notRead, true)))).toEqual(["file_not_read", "wasteful_action", "file_not_read"]);
    // a re-read with only reads in between is waste; a re-read after an edit is not
    expect(await sitesOf((w) => (w.act("Read", { file_path: "/p/a.py" }, "1\tx = 1"), w.act("Grep", { pattern: "x" }, "a.py"), w.act("Read", { file_path: "/p/a.py" }, "1\tx = 1")))).toEqual(["wasteful_action"]);
    expect(await sitesOf((w) => (w.act("Read", { file_path: "/p/a.py" }, "1\tx = 1"), w.act("Edit", edit, "updated"), w.act("Read", { file_path: "/p/a.py" }, "1\tx = 2")))).toEqual([]);
  });
});

describe("error kinds: the wording real tools use, one fixture per kind", () => {
  const TRACEBACK_TYPEERROR = `Exit code 1
Traceback (most recent call last):
  File "/home/dev/ledger/ledger/cli.py", line 44, in main
    write_csv(rows, path=args.out, delimiter=args.sep)
TypeError: write_csv() got an unexpected keyword argument 'delimiter'
Loading ledger from data/ledger.db
Loaded 1,204 entries`;
  /** name, the tool's output, its kind, what the hint must say (null: no template, or a slot the text cannot give), the call */
  const cases: [string, string, ErrorKind, RegExp | null, string?][] = [
    // Claude Code's own tool errors
    ["Edit before Read", "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>", "file_not_read", /Read the file, then redo the edit/],
    ["stale read", "<tool_use_error>File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.</tool_use_error>", "file_not_read", /not read first \(or changed since it was read\)/],
    ["old_string missing", "<tool_use_error>String to replace not found in file.\nString:     return round(s, 2)</tool_use_error>", "edit_no_match", /exactly once \(String to replace not found in file\.\)/],
    ["old_string ambiguous", "<tool_use_error>Found 3 matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. To replace only one occurrence, please provide more context to uniquely identify the instance.\nString: pass</tool_use_error>", "edit_no_match", /Found 3 matches/],
    ["no-op edit", "<tool_use_error>No changes to make: old_string and new_string are exactly the same.</tool_use_error>", "edit_no_match", /No changes to make/],
    ["huge file", "<tool_use_error>File content (41234 tokens) exceeds maximum allowed tokens (25000). Please use offset and limit parameters to read specific portions of the file, or use the GrepTool to search for specific content.</tool_use_error>", "file_too_large", /offset and limit/],
    ["missing parameter", "<tool_use_error>InputValidationError: Read failed due to the following issue:\nThe required parameter `file_path` is missing</tool_use_error>", "schema_mismatch", null],
    ["unknown tool", "<tool_use_error>Error: No such tool available: ReadFile</tool_use_error>", "tool_not_found", /Available tools are: Bash, Read/],
    ["Bash timeout", "Command timed out after 2m 0.0s\n....", "command_timeout", /time limit \(Command timed out after 2m 0\.0s\)/],
    // a parallel sibling failed
    ["sibling cascade", "<tool_use_error>Sibling tool call errored</tool_use_error>", "sibling_cascade", null],
    // permission and rejection
    ["user rejection", "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.", "user_rejected", null],
    ["permission not granted", "Claude requested permissions to use WebFetch, but you haven't granted it yet.", "tool_denied", /WebFetch was not permitted here/],
    ["cd blocked", "cd to '/etc' was blocked. For security, Claude Code may only change directories to child directories of the allowed working directories for this session (including '/home/dev/ledger').", "tool_denied", /Do not retry the same call/],
    ["hook blocked", "PreToolUse:Bash hook error: [python3 .claude/hooks/guard.py]: rm -rf is not allowed", "tool_denied", /not permitted/],
    ["OS permission", "Exit code 1\n/bin/bash: line 1: /etc/report.json: Permission denied", "permission_denied", null],
    // test runners
    ["pytest", `Exit code 1\n${"=".repeat(29)} test session starts ${"=".repeat(30)}\ncollected 3 items\n\ntests/test_a.py .F.\n\n${"=".repeat(35)} FAILURES ${"=".repeat(35)}\n${"_".repeat(20)} test_total ${"_".repeat(20)}\n>       assert total([]) == 0\nE       AssertionError: assert None == 0\nFAILED tests/test_a.py::test_total - AssertionError: assert None == 0\n1 failed, 2 passed in 0.02s`, "failing_test", /`tests\/test_a\.py::test_total` is still failing: AssertionError: assert None == 0\./],
    ["vitest", " FAIL  test/sum.test.ts > sum > adds\nAssertionError: expected 3 to be 4 // Object.is equality\n\n- Expected\n+ Received\n\n- 4\n+ 3\n\n Test Files  1 failed (1)\n      Tests  1 failed | 3 passed (4)", "failing_test", null],
    ["jest", "FAIL src/sum.test.js\n  ● sum › adds two numbers\n\n    expect(received).toBe(expected) // Object.is equality\n\n    Expected: 4\n    Received: 3\n\nTests:       1 failed, 3 passed, 4 total", "failing_test", /`sum › adds two numbers` is still failing: Expected: 4, Received: 3\./],
    ["go test", "--- FAIL: TestTotal (0.00s)\n    total_test.go:12: got 3, want 4\nFAIL\nFAIL\texample.com/ledger\t0.004s", "failing_test", /`TestTotal` is still failing: total_test\.go:12: got 3, want 4/],
    ["cargo test", "running 2 tests\ntest tests::adds ... FAILED\n\nfailures:\n\n---- tests::adds stdout ----\nthread 'tests::adds' panicked at src/lib.rs:9:9:\nassertion `left == right` failed\n  left: 3\n right: 4\n\ntest result: FAILED. 1 passed; 1 failed", "failing_test", /`tests::adds` is still failing/],
    ["unittest", "F.\n======================================================================\nFAIL: test_total (tests.test_ledger.TotalTest)\n----------------------------------------------------------------------\nTraceback (most recent call last):\n  File \"tests/test_ledger.py\", line 9, in test_total\n    self.assertEqual(total([]), 0)\nAssertionError: None != 0\n\nFAILED (failures=1)", "failing_test", /`test_total \(tests\.test_ledger\.TotalTest\)` is still failing: AssertionError: None != 0/],
    // linters
    ["flake8", "src/app.py:3:1: F401 'os' imported but unused", "lint_style", /flake8: F401 — 'os' imported but unused/],
    ["ruff", "F401 [*] `sys` imported but unused\n --> ledger/export.py:2:8\n  |\n2 | import sys\n  |        ^^^\n\nFound 1 error.", "lint_style", /ruff: F401 — `sys` imported but unused/, 'Bash({"command":"ruff check ledger"})'],
    ["eslint", "/home/dev/web/src/app.js\n  3:7  error  'unused' is assigned a value but never used  no-unused-vars\n\n✖ 1 problem (1 error, 0 warnings)", "lint_style", /eslint: no-unused-vars — 'unused' is assigned a value but never used/, 'Bash({"command":"npx eslint src"})'],
    ["linter syntax error", "src/attr/_make.py:212:9: E999 SyntaxError: invalid syntax", "syntax_error", null],
    // Python from the program run, not from the tool call
    ["program TypeError (stderr before stdout)", TRACEBACK_TYPEERROR, "runtime_error", /raised an exception: TypeError: write_csv\(\) got an unexpected keyword argument 'delimiter'\./],
    ["program JSONDecodeError", "Traceback (most recent call last):\n  File \"load.py\", line 3, in <module>\n    json.load(f)\njson.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)", "runtime_error", /JSONDecodeError: Expecting value/],
    ["tool-call kwargs", "TypeError: run() got an unexpected keyword argument 'cwd'", "schema_mismatch", null],
    ["shell", "/bin/bash: line 1: rg: command not found", "command_not_found", null],
  ];

  it.each(cases)("%s", (_, text, kind, hint, action = 'Bash({"command":"make check"})') => {
    expect(classifyError(text)).toBe(kind);
    const site = { error_kind: kind, behavior_dim: "tool_use" as const, error_message: text, available_tools: ["Bash", "Read"], tool_name: /WebFetch/.test(text) ? "WebFetch" : "Edit", erroring_action: action };
    const rendered = new TemplateHintGenerator().generate({ ...site, ...extractSlots(kind, text, site.erroring_action) });
    if (hint) expect(rendered).toMatch(hint);
    else if (ERROR_KIND_HINTING[kind] !== "template") expect(rendered).toBeNull();
  });

  it("every kind has a template or a deliberate decision (raw_error, judge, none), and raw_error honours it", () => {
    const templates = defaultTemplates();
    for (const kind of ErrorKind.options) {
      const how = ERROR_KIND_HINTING[kind];
      expect(["template", "raw_error", "judge", "none"]).toContain(how);
      expect(templates.has(kind), kind).toBe(how === "template");
      const raw = new RawErrorHintGenerator().generate({ error_kind: kind, behavior_dim: "tool_use", error_message: "Error: something failed" });
      expect(raw === null, kind).toBe(how === "none" || how === "judge");
    }
  });
});

describe("hint slots quote the informative line", () => {
  it("the exception line of a traceback wherever it sits, the last of chained ones, or a bare one", () => {
    // Claude Code puts stderr (the traceback) before stdout (progress lines)
    expect(exceptionLine("Exit code 1\nTraceback (most recent call last):\n  File \"a.py\", line 3, in <module>\n    main()\nKeyError: 'json'\nLoaded 1,204 entries\nExporting…")).toBe("KeyError: 'json'");
    const chained = "Traceback (most recent call last):\n  File \"a.py\", line 2\nKeyError: 'x'\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File \"a.py\", line 4\nValueError: bad config\nstill running";
    expect(exceptionLine(chained)).toBe("ValueError: bad config");
    expect(exceptionLine("npm ERR! code 1\nUncaught TypeError: x is not a function\n    at main (app.js:3:5)")).toBe("Uncaught TypeError: x is not a function");
    expect(exceptionLine("all good\n3 passed")).toBeNull();
  });

  it("the failing assertion and test name across runners", () => {
    expect(failingAssertion("E       AssertionError: assert 1 == 2\nE        +  where 1 = f()")).toBe("AssertionError: assert 1 == 2");
    expect(failingAssertion("    Expected: 4\n    Received: 3")).toBe("Expected: 4, Received: 3");
    expect(failingAssertion("assertion `left == right` failed\n  left: 3\n right: 4")).toBe("assertion `left == right` failed left: 3 right: 4");
    expect(failingTestName("FAILED tests/t.py::test_x - AssertionError")).toBe("tests/t.py::test_x");
    expect(failingTestName("FAILED (failures=1)")).toBeNull();
  });

  it("raw_error keeps head and tail with an ellipsis; runtime_error quotes the exception, not the last progress line", async () => {
    const banner = "=".repeat(30) + " test session starts " + "=".repeat(30) + "\nplatform linux -- Python 3.12.7, pytest-8.3.3\n" + "collected 400 items\n".repeat(10);
    const long = `${banner}\nE   ConnectionRefusedError: [Errno 111] Connection refused\n1 failed, 399 passed in 9.1s`;
    const excerpt = headTail(long, 200);
    expect(excerpt.length).toBeLessThanOrEqual(200);
    expect(excerpt).toContain(" … ");
    expect(excerpt.startsWith("=====")).toBe(true);
    expect(excerpt.endsWith("1 failed, 399 passed in 9.1s")).toBe(true);
    const raw = new RawErrorHintGenerator().generate({ error_kind: "tool_error", behavior_dim: "tool_use", error_message: long })!;
    expect(raw).toContain("Connection refused");
    const { session, sites } = await one(ledger(2));
    const runtime = sites.find((x) => x.error_kind === "runtime_error")!;
    expect(new TemplateHintGenerator().generate(contextFromSite(runtime, session))).toBe(
      "Reminder: the last command raised an exception: TypeError: write_csv() got an unexpected keyword argument 'delimiter'. Read the innermost frame of the traceback that points into the project's code and fix that cause before re-running.",
    );
    expect(runtime.source_excerpt).toMatch(/^Exit code 1\nTraceback .* … .*unexpected keyword argument 'delimiter'\nLoading/s);
  });
});

describe("chat format: errors from the result text, configurable per source", () => {
  const FILE = join(DATA, "chat", "unflagged-errors.jsonl");

  it("finds errors that only the text shows (no is_error, no tag)", async () => {
    const { session, sites } = await one(FILE);
    expect(session.turns.flatMap((t) => t.toolResults).every((r) => r.isError === null && !r.errorTag)).toBe(true);
    expect(sites.map((x) => [x.error_kind, x.tool_name])).toEqual([["file_not_found", "view"], ["syntax_error", "edit"], ["failing_test", "run"]]);
  });

  it("a source can turn the rules off or bring its own; file contents that merely mention an error are not flagged", async () => {
    expect((await all([FILE]))[0]!.sites).toHaveLength(3); // the default chat rules
    const noRules: IngestedSession[] = [];
    for await (const s of ingest([FILE], { textErrors: { sources: [{ match: "unflagged-errors", rules: null }] } })) noRules.push(s);
    expect(noRules[0]!.sites).toEqual([]);
    const custom: IngestedSession[] = [];
    for await (const s of ingest([FILE], { textErrors: { sources: [{ match: "unflagged", rules: [{ pattern: "SyntaxError", tool: "^edit$" }] }] } })) custom.push(s);
    expect(custom[0]!.sites.map((x) => x.error_kind)).toEqual(["syntax_error"]);

    const dir = tmp();
    const t = new ChatTrajectoryWriter("mentions", ["view"]).user("show it").call("view", { path: "errors.py" }, "1 class Error(Exception):\n2     '''Error: raised when…'''").say("shown");
    writeFileSync(join(dir, "m.jsonl"), t.line() + "\n");
    expect((await one(dir)).sites).toEqual([]);
    await expect(summarize([dir], { textErrors: { formats: { chat: [{ pattern: "(" }] } } })).rejects.toThrow(/text error rule 0: Invalid regular expression/);
  });
});

describe("input edge cases", () => {
  const session = (id: string) => {
    const w = new ClaudeSessionWriter(id);
    w.user("go");
    w.act("Bash", { command: "ls x" }, "ls: cannot access 'x': No such file or directory", true);
    w.assistant({ text: "x is missing" });
    return w.text();
  };

  it("a UTF-8 byte order mark does not cost line 1", async () => {
    const dir = tmp();
    writeFileSync(join(dir, "bom.jsonl"), "\uFEFF" + session("bom"));
    const issues: IngestIssue[] = [];
    const sum = await summarize([dir], { onIssue: (i) => issues.push(i) });
    expect(issues).toEqual([]);
    expect(sum).toMatchObject({ sessions: 1, turns: 4, errorSites: 1 });
  });

  it("a first record over 256 KB is still recognised and ingested", async () => {
    const dir = tmp();
    const w = new ClaudeSessionWriter("big-first");
    w.user("x".repeat(600 * 1024));
    w.act("Read", { file_path: "/p/a" }, "<tool_use_error>File does not exist.</tool_use_error>", true);
    w.assistant({ text: "ok" });
    writeFileSync(join(dir, "big.jsonl"), w.text());
    const issues: IngestIssue[] = [];
    const sum = await summarize([dir], { onIssue: (i) => issues.push(i) });
    expect(issues).toEqual([]);
    expect(sum).toMatchObject({ sessions: 1, errorSites: 1, formats: { claude: 1 } });
  });

  it("symlinked .jsonl files and folders are followed, each real file once; dangling links are skipped", async () => {
    const dir = tmp();
    const real = join(dir, "real");
    mkdirSync(real);
    writeFileSync(join(real, "a.jsonl"), session("a"));
    const linked = join(dir, "linked");
    mkdirSync(linked);
    symlinkSync(join(real, "a.jsonl"), join(linked, "alias.jsonl"));
    writeFileSync(join(dir, "b.source"), session("b"));
    symlinkSync(join(dir, "b.source"), join(linked, "b.jsonl"));
    symlinkSync(real, join(linked, "dir-link"));
    symlinkSync(linked, join(linked, "loop"));
    symlinkSync(join(dir, "gone.jsonl"), join(linked, "dangling.jsonl"));
    expect(readdirSync(linked).sort()).toEqual(["alias.jsonl", "b.jsonl", "dangling.jsonl", "dir-link", "loop"]);
    expect(listTraceFiles([linked]).map((f) => f.slice(dir.length))).toEqual(["/linked/alias.jsonl", "/linked/b.jsonl"]);
    expect((await summarize([linked, real])).sessions).toBe(2);
  });
});
