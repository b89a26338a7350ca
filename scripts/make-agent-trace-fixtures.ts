/**
 * Authors the fixtures of the other agents' log formats and of Claude Code's subagent layouts
 * (run: npx tsx scripts/make-agent-trace-fixtures.ts). Written for this project from the formats'
 * documented shapes (Codex CLI's rollout items, OpenHands' event stream, SWE-agent's .traj,
 * mini-swe-agent's trajectory file, Claude Code 2.x session and subagent files); no third-party data.
 *
 *   datasets/agent-traces/codex/          two rollouts: shell + apply_patch calls, failed outputs, a
 *                                   turn_aborted, a compaction, a resumed session (two ids)
 *   datasets/agent-traces/openhands/      a file-store events/ folder, a trajectory export (JSON array),
 *                                   an evaluation output.jsonl, a V1 SDK event list
 *   datasets/agent-traces/swe-agent/      one .traj
 *   datasets/agent-traces/mini-swe-agent/ one .traj.json (bash blocks, a format error, a timeout)
 *   datasets/agent-traces/claude-subagents/  the three subagent layouts, a compaction agent, a warm-up,
 *                                   a summary-only file, an empty file, a notes file
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ClaudeSessionWriter } from "../lib/traces/synth.js";

const root = join(import.meta.dirname, "..", "datasets", "agent-traces");
const fresh = (d: string) => {
  rmSync(join(root, d), { recursive: true, force: true });
  mkdirSync(join(root, d), { recursive: true });
  return join(root, d);
};
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
let clock = Date.UTC(2026, 10, 20, 10, 0, 0);
const at = () => new Date((clock += 1700)).toISOString();

// ─── Codex CLI ────────────────────────────────────────────────────────────────
{
  const dir = fresh("codex");
  mkdirSync(join(dir, "2026", "11", "20"), { recursive: true });
  const item = (payload: Record<string, unknown>) => ({ timestamp: at(), type: "response_item", payload });
  const ev = (payload: Record<string, unknown>) => ({ timestamp: at(), type: "event_msg", payload });
  const shell = (id: string, cmd: string) => item({ type: "function_call", name: "shell", arguments: JSON.stringify({ command: ["bash", "-lc", cmd], workdir: "/home/dev/ledger" }), call_id: id });
  const out = (id: string, output: string, exit: number) => item({ type: "function_call_output", call_id: id, output: JSON.stringify({ output, metadata: { exit_code: exit, duration_seconds: 0.4 } }) });
  const tokens = (input: number, output: number) => ev({ type: "token_count", info: { total_token_usage: { input_tokens: input, cached_input_tokens: 0, output_tokens: output, total_tokens: input + output }, last_token_usage: { input_tokens: 900, output_tokens: 120 } } });
  const a = [
    { timestamp: at(), type: "session_meta", payload: { id: "0199a1b2-c3d4-7e5f-8a9b-codex0000001", timestamp: at(), cwd: "/home/dev/ledger", originator: "codex_cli_rs", cli_version: "0.58.0", instructions: null, git: { branch: "main" } } },
    item({ type: "message", role: "user", content: [{ type: "input_text", text: "<environment_context>\n  <cwd>/home/dev/ledger</cwd>\n  <sandbox_mode>workspace-write</sandbox_mode>\n</environment_context>" }] }),
    item({ type: "message", role: "user", content: [{ type: "input_text", text: "The totals test fails after the refactor. Fix it and push the branch." }] }),
    { timestamp: at(), type: "turn_context", payload: { cwd: "/home/dev/ledger", approval_policy: "on-request", model: "gpt-5-codex", effort: "medium" } },
    item({ type: "reasoning", summary: [{ type: "summary_text", text: "**Reproducing the failure**\n\nRun the tests first." }], content: null, encrypted_content: "gAAAA…" }),
    shell("call_c1", "python -m pytest -q tests/test_totals.py"),
    out("call_c1", "F.\n=================================== FAILURES ===================================\nE       AssertionError: assert Decimal('10.50') == Decimal('10.05')\nFAILED tests/test_totals.py::test_rounding - AssertionError: assert Decimal('10.50') == Decimal('10.05')\n1 failed, 1 passed in 0.12s", 1),
    tokens(9000, 400),
    item({ type: "message", role: "assistant", content: [{ type: "output_text", text: "The rounding uses the wrong quantize exponent. I'll patch it." }] }),
    item({ type: "custom_tool_call", status: "completed", call_id: "call_c2", name: "apply_patch", input: "*** Begin Patch\n*** Update File: ledger/totals.py\n@@\n-    return value.quantize(Decimal('0.1'))\n+    return value.quantize(Decimal('0.01'))\n*** End Patch\n" }),
    ev({ type: "patch_apply_end", call_id: "call_c2", success: false, stdout: "", stderr: "apply_patch verification failed" }),
    item({ type: "custom_tool_call_output", call_id: "call_c2", output: JSON.stringify({ output: "apply_patch verification failed: Failed to find expected lines in ledger/totals.py:\n    return value.quantize(Decimal('0.1'))", metadata: { exit_code: 1, duration_seconds: 0 } }) }),
    shell("call_c3", "sed -n 1,40p ledger/totals.py"),
    out("call_c3", "from decimal import Decimal\n\ndef total(values):\n    value = sum(values, Decimal(0))\n    return value.quantize(Decimal(\"0.1\"))\n", 0),
    item({ type: "custom_tool_call", status: "completed", call_id: "call_c4", name: "apply_patch", input: "*** Begin Patch\n*** Update File: ledger/totals.py\n@@\n-    return value.quantize(Decimal(\"0.1\"))\n+    return value.quantize(Decimal(\"0.01\"))\n*** End Patch\n" }),
    item({ type: "custom_tool_call_output", call_id: "call_c4", output: JSON.stringify({ output: "Success. Updated the following files:\nM ledger/totals.py\n", metadata: { exit_code: 0, duration_seconds: 0 } }) }),
    // two calls in one response (parallel), one fails: a usage error
    shell("call_c5", "python -m pytest -q --no-such-flag"),
    shell("call_c6", "git status --short"),
    out("call_c5", "ERROR: usage: __main__.py [options] [file_or_dir] [file_or_dir] [...]\n__main__.py: error: unrecognized arguments: --no-such-flag", 4),
    out("call_c6", " M ledger/totals.py", 0),
    shell("call_c7", "python -m pytest -q"),
    out("call_c7", "..........\n10 passed in 0.20s", 0),
    shell("call_c8", "git push origin fix/rounding"),
    ev({ type: "exec_command_end", call_id: "call_c8", exit_code: 1, stdout: "", stderr: "" }),
    item({ type: "function_call_output", call_id: "call_c8", output: "To github.com:dev/ledger.git\n ! [rejected]        fix/rounding -> fix/rounding (non-fast-forward)\nerror: failed to push some refs to 'github.com:dev/ledger.git'\nhint: Updates were rejected because the tip of your current branch is behind" }),
    tokens(21000, 1300),
    item({ type: "message", role: "user", content: [{ type: "input_text", text: "stop, don't force push" }] }),
    ev({ type: "turn_aborted", reason: "interrupted" }),
    { timestamp: at(), type: "compacted", payload: { message: "The rounding bug in ledger/totals.py is fixed (quantize to 0.01); tests pass; the push was rejected (non-fast-forward)." } },
    item({ type: "message", role: "assistant", content: [{ type: "output_text", text: "Understood: I won't force push. The fix is committed locally; rebase on origin before pushing." }] }),
  ];
  writeFileSync(join(dir, "2026", "11", "20", "rollout-2026-11-20T10-00-00-0199a1b2-c3d4-7e5f-8a9b-codex0000001.jsonl"), jsonl(a));

  // a resumed session: the new session's meta, the earlier one's history replayed, then new work
  const b = [
    { timestamp: at(), type: "session_meta", payload: { id: "0199a1b2-c3d4-7e5f-8a9b-codex0000002", timestamp: at(), cwd: "/home/dev/ledger", originator: "codex_cli_rs", cli_version: "0.58.0", instructions: null } },
    { timestamp: at(), type: "session_meta", payload: { id: "0199a1b2-c3d4-7e5f-8a9b-codex0000001", timestamp: at(), cwd: "/home/dev/ledger", originator: "codex_cli_rs", cli_version: "0.58.0" } },
    item({ type: "message", role: "user", content: [{ type: "input_text", text: "Rebase on origin/main and push." }] }),
    shell("call_r1", "git rebase origin/main"),
    out("call_r1", "CONFLICT (content): Merge conflict in ledger/totals.py\nerror: could not apply 3f2a1bc... fix rounding", 1),
    shell("call_r1", "git rebase origin/main"), // the same call written again (replayed): read once
    shell("call_r2", "curl -sS https://pypi.org/simple/decimal-tools/"),
    out("call_r2", "curl: (6) Could not resolve host: pypi.org", 6),
    item({ type: "local_shell_call", call_id: "call_r3", status: "completed", action: { type: "exec", command: ["bash", "-lc", "make release"] } }),
    item({ type: "function_call_output", call_id: "call_r3", output: "Exit code: 2\nWall time: 0.1 seconds\nOutput:\n" }),
    item({ type: "function_call", name: "shell", arguments: "{\"command\": [\"bash\", \"-lc\", \"ls\"", call_id: "call_r4" }),
    item({ type: "function_call_output", call_id: "call_r4", output: "failed to parse function arguments: EOF while parsing a list at line 1 column 34" }),
    item({ type: "message", role: "assistant", content: [{ type: "output_text", text: "The rebase conflicts in ledger/totals.py; I need your call on which rounding to keep." }] }),
  ];
  writeFileSync(join(dir, "2026", "11", "20", "rollout-2026-11-20T11-00-00-0199a1b2-c3d4-7e5f-8a9b-codex0000002.jsonl"), jsonl(b));
}

// ─── OpenHands ────────────────────────────────────────────────────────────────
{
  const dir = fresh("openhands");
  let id = 0;
  const ts = () => at().replace("Z", "");
  const meta = (fn: string, call: string, resp: string, n = 1) => ({ function_name: fn, tool_call_id: call, model_response: { id: resp, model: "claude-sonnet-4-5" }, total_calls_in_response: n });
  const act = (action: string, args: Record<string, unknown>, m?: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ id: id++, timestamp: ts(), source: "agent", message: String(args.command ?? args.path ?? action), action, args, ...(m ? { tool_call_metadata: m } : {}), ...extra });
  const obs = (cause: number, observation: string, content: string, extras: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({ id: id++, timestamp: ts(), source: "agent", message: content.slice(0, 60), cause, observation, content, extras, ...extra });
  const events = (): Record<string, unknown>[] => {
    id = 0;
    const e: Record<string, unknown>[] = [];
    e.push({ id: id++, timestamp: ts(), source: "agent", message: "You are OpenHands agent…", action: "system", args: { content: "You are OpenHands agent, a helpful AI assistant that can interact with a computer to solve tasks.", tools: [] } });
    e.push({ id: id++, timestamp: ts(), source: "user", message: "Fix the failing slugify test in textkit.", action: "message", args: { content: "Fix the failing slugify test in textkit.", image_urls: null, wait_for_response: false } });
    e.push({ id: id++, timestamp: ts(), source: "environment", message: "", observation: "agent_state_changed", content: "", extras: { agent_state: "running" } });
    const a1 = act("run", { command: "cd /workspace/textkit && python -m pytest -q tests/test_slug.py", thought: "Reproduce the failure first.", is_input: false, blocking: false }, meta("execute_bash", "toolu_oh1", "resp_1"), { llm_metrics: { accumulated_cost: 0.012, accumulated_token_usage: { prompt_tokens: 4200, completion_tokens: 150 } } });
    e.push(a1);
    e.push(obs(a1.id as number, "run", "F\n=================================== FAILURES ===================================\nE       AssertionError: assert 'hello_world' == 'hello-world'\nFAILED tests/test_slug.py::test_separator - AssertionError\n1 failed in 0.05s", { command: a1.args.command, metadata: { exit_code: 1, pid: -1, working_dir: "/workspace/textkit", py_interpreter_path: "/usr/bin/python", prefix: "", suffix: "\n[The command completed with exit code 1.]" }, hidden: false }, { tool_call_metadata: meta("execute_bash", "toolu_oh1", "resp_1") }));
    const a2 = act("read", { path: "/workspace/textkit/textkit/slug.py", start: 0, end: -1, thought: "", impl_source: "oh_aci", view_range: null }, meta("str_replace_editor", "toolu_oh2", "resp_2", 2));
    const a3 = act("read", { path: "/workspace/textkit/textkit/slugs.py", start: 0, end: -1, thought: "", impl_source: "oh_aci", view_range: null }, meta("str_replace_editor", "toolu_oh3", "resp_2", 2));
    e.push(a2, a3);
    e.push(obs(a2.id as number, "read", "Here's the result of running `cat -n` on /workspace/textkit/textkit/slug.py:\n     1\tdef slugify(text, sep='_'):\n     2\t    return sep.join(text.lower().split())\n", { path: a2.args.path, impl_source: "oh_aci" }));
    e.push(obs(a3.id as number, "error", "ERROR:\nInvalid `path` parameter: /workspace/textkit/textkit/slugs.py. The path /workspace/textkit/textkit/slugs.py does not exist. Please provide a valid path.", { error_id: "" }));
    const a4 = act("edit", { path: "/workspace/textkit/textkit/slug.py", command: "str_replace", old_str: "sep='_'", new_str: "sep='-'", thought: "The default separator must be a hyphen.", impl_source: "oh_aci" }, meta("str_replace_editor", "toolu_oh4", "resp_3"));
    e.push(a4);
    e.push(obs(a4.id as number, "edit", "The file /workspace/textkit/textkit/slug.py has been edited. Here's the result of running `cat -n` on a snippet:\n     1\tdef slugify(text, sep='-'):", { path: a4.args.path, impl_source: "oh_aci", diff: "-sep='_'\n+sep='-'" }));
    const a5 = act("run", { command: "git push", thought: "", is_input: false, blocking: false }, meta("execute_bash", "toolu_oh5", "resp_4"));
    e.push(a5);
    e.push(obs(a5.id as number, "run", "fatal: The current branch fix-slug has no upstream branch.\nTo push the current branch and set the remote as upstream, use\n\n    git push --set-upstream origin fix-slug", { command: "git push", metadata: { exit_code: 128, suffix: "\n[The command completed with exit code 128.]" } }));
    const a6 = act("run", { command: "python -m pytest -q", thought: "", is_input: false, blocking: false }, meta("execute_bash", "toolu_oh6", "resp_5"));
    e.push(a6);
    e.push(obs(a6.id as number, "run", "........\n8 passed in 0.06s", { command: "python -m pytest -q", metadata: { exit_code: 0 } }, { llm_metrics: { accumulated_cost: 0.041, accumulated_token_usage: { prompt_tokens: 15800, completion_tokens: 720 } } }));
    e.push({ id: id++, timestamp: ts(), source: "agent", message: "The separator default is fixed; all tests pass.", action: "finish", args: { final_thought: "The separator default is fixed; all tests pass.", outputs: {}, thought: "" }, tool_call_metadata: meta("finish", "toolu_oh7", "resp_6") });
    return e;
  };
  // the conversation's file store: sessions/<id>/events/<n>.json
  const store = join(dir, "sessions", "4f3e2d1c0b0a49e8a7b6c5d4e3f2a1b0", "events");
  mkdirSync(store, { recursive: true });
  events().forEach((e, i) => writeFileSync(join(store, `${i}.json`), JSON.stringify(e)));
  writeFileSync(join(dir, "sessions", "4f3e2d1c0b0a49e8a7b6c5d4e3f2a1b0", "metadata.json"), JSON.stringify({ conversation_id: "4f3e2d1c0b0a49e8a7b6c5d4e3f2a1b0", title: "Fix slugify" }));
  // a trajectory export: one JSON array
  writeFileSync(join(dir, "trajectory-fix-slug.json"), JSON.stringify(events(), null, 2));
  // evaluation output: one instance a line
  const inst = (iid: string, e: Record<string, unknown>[]) => ({ instance_id: iid, instruction: "Fix the failing slugify test.", history: e, metrics: { accumulated_cost: 0.041 }, test_result: { git_patch: "diff --git a/textkit/slug.py b/textkit/slug.py" } });
  writeFileSync(join(dir, "output.jsonl"), jsonl([inst("textkit__textkit-101", events()), inst("textkit__textkit-102", events().slice(0, 5))]));
  // the V1 SDK's events
  const v1 = [
    { kind: "SystemPromptEvent", id: "e0", timestamp: ts(), source: "agent", system_prompt: { type: "text", text: "You are OpenHands agent." }, tools: [] },
    { kind: "MessageEvent", id: "e1", timestamp: ts(), source: "user", llm_message: { role: "user", content: [{ type: "text", text: "Count the lines of README.md" }] } },
    { kind: "ActionEvent", id: "e2", timestamp: ts(), source: "agent", thought: [{ type: "text", text: "Use wc." }], action: { kind: "ExecuteBashAction", command: "wc -l README.mdd" }, tool_name: "execute_bash", tool_call_id: "call_v1", llm_response_id: "r1" },
    { kind: "ObservationEvent", id: "e3", timestamp: ts(), source: "environment", tool_name: "execute_bash", tool_call_id: "call_v1", observation: { kind: "ExecuteBashObservation", content: [{ type: "text", text: "wc: README.mdd: No such file or directory" }], exit_code: 1 }, action_id: "e2" },
    { kind: "ActionEvent", id: "e4", timestamp: ts(), source: "agent", thought: [], action: { kind: "ExecuteBashAction", command: "wc -l README.md" }, tool_name: "execute_bash", tool_call_id: "call_v2", llm_response_id: "r2" },
    { kind: "AgentErrorEvent", id: "e5", timestamp: ts(), source: "agent", tool_name: "execute_bash", tool_call_id: "call_v2", error: "Error validating args {\"cmd\": \"wc\"} for tool 'execute_bash': missing required field 'command'" },
    { kind: "MessageEvent", id: "e6", timestamp: ts(), source: "agent", llm_message: { role: "assistant", content: [{ type: "text", text: "README.md has 42 lines." }] } },
  ];
  writeFileSync(join(dir, "v1-events.json"), JSON.stringify(v1, null, 2));
}

// ─── SWE-agent ────────────────────────────────────────────────────────────────
{
  const dir = fresh("swe-agent");
  const steps = [
    { thought: "Let me find the function the issue mentions.", action: "find_file \"parse_dates.py\"", observation: "No matches found for \"parse_dates.py\" in /ledger__ledger" },
    { thought: "Search the repository instead.", action: "search_dir \"def parse_date\"", observation: "Found 1 matches for \"def parse_date\" in /ledger__ledger:\n/ledger__ledger/ledger/dates.py (1 matches)\nEnd of matches for \"def parse_date\" in /ledger__ledger" },
    { thought: "Open it.", action: "open ledger/dates.py 1000", observation: "Warning: <line_number> (1000) is greater than the number of lines in the file (31)\nWarning: Setting <line_number> to 31\n[File: /ledger__ledger/ledger/dates.py (31 lines total)]\n1:from datetime import date\n2:\n3:def parse_date(text):\n4:    y, m, d = text.split('/')\n5:    return date(int(y), int(m), int(d))" },
    { thought: "Allow ISO dates too.", action: "edit 4:5\n    sep = '-' if '-' in text else '/'\n    y, m, d = text.split(sep)\n  return date(int(y), int(m), int(d))\nend_of_edit", observation: "Your proposed edit has introduced new syntax error(s). Please read this error message carefully and then retry editing the file.\n\nERRORS:\n- E999 IndentationError: unindent does not match any outer indentation level\n\nThis is how your edit would have looked if applied\n-------------------------------------------------\n[File: /ledger__ledger/ledger/dates.py (32 lines total)]" },
    { thought: "Fix the indentation.", action: "edit 4:5\n    sep = '-' if '-' in text else '/'\n    y, m, d = text.split(sep)\n    return date(int(y), int(m), int(d))\nend_of_edit", observation: "[File: /ledger__ledger/ledger/dates.py (32 lines total)]\n3:def parse_date(text):\n4:    sep = '-' if '-' in text else '/'\n5:    y, m, d = text.split(sep)\n6:    return date(int(y), int(m), int(d))\nFile updated. Please review the changes and make sure they are correct." },
    { thought: "Run the reproduction script.", action: "python reproduce.py", observation: "Traceback (most recent call last):\n  File \"/ledger__ledger/reproduce.py\", line 3, in <module>\n    print(parse_date('2026-11-20T10:00'))\n  File \"/ledger__ledger/ledger/dates.py\", line 6, in parse_date\n    return date(int(y), int(m), int(d))\nValueError: invalid literal for int() with base 10: '20T10:00'" },
    { thought: "Strip the time part.", action: "edit 4:4\n    text = text.split('T')[0]\n    sep = '-' if '-' in text else '/'\nend_of_edit", observation: "[File: /ledger__ledger/ledger/dates.py (33 lines total)]\nFile updated." },
    { thought: "Run the tests.", action: "pytest -q tests/test_dates.py", observation: "....\n4 passed in 0.02s" },
    { thought: "Done.", action: "submit", observation: "diff --git a/ledger/dates.py b/ledger/dates.py\n--- a/ledger/dates.py\n+++ b/ledger/dates.py" },
  ].map((s) => ({ ...s, response: `DISCUSSION\n${s.thought}\n\n\`\`\`\n${s.action}\n\`\`\``, state: "{\"open_file\": \"/ledger__ledger/ledger/dates.py\", \"working_dir\": \"/ledger__ledger\"}", execution_time: 0.3, messages: [] }));
  const history = [
    { role: "system", content: "SETTING: You are an autonomous programmer, and you're working directly in the command line with a special interface.", agent: "primary", message_type: "system_prompt" },
    { role: "user", content: "Here is a demonstration of how to correctly accomplish this task.", agent: "primary", is_demo: true, message_type: "demonstration" },
    { role: "user", content: "We're currently solving the following issue within our repository.\nISSUE:\nparse_date rejects ISO dates such as 2026-11-20.", agent: "primary", message_type: "observation" },
    ...steps.flatMap((s) => [{ role: "assistant", content: s.response, thought: s.thought, action: s.action, agent: "primary", message_type: "action" }, { role: "user", content: s.observation, agent: "primary", message_type: "observation" }]),
  ];
  const traj = { environment: "swe_main", trajectory: steps, history, info: { exit_status: "submitted", submission: steps[steps.length - 1]!.observation, model_stats: { instance_cost: 0.35, tokens_sent: 41000, tokens_received: 1200, api_calls: 9 }, swe_agent_version: "1.0.1" }, replay_config: "{}" };
  writeFileSync(join(dir, "ledger__ledger-17.traj"), JSON.stringify(traj, null, 2));
}

// ─── mini-swe-agent ───────────────────────────────────────────────────────────
{
  const dir = fresh("mini-swe-agent");
  const obs = (rc: number, out: string) => `<returncode>${rc}</returncode>\n<output>\n${out}</output>`;
  const messages = [
    { role: "system", content: "You are a helpful assistant that can interact with a computer. Your response must contain exactly ONE bash code block." },
    { role: "user", content: "<pr_description>\nCounter.most_common ignores ties.\n</pr_description>" },
    { role: "assistant", content: "THOUGHT: Look at the code first.\n\n```bash\ngrep -rn \"def most_common\" src/\n```" },
    { role: "user", content: obs(0, "src/tally/counter.py:41:    def most_common(self, n=None):\n") },
    { role: "assistant", content: "THOUGHT: Read the function and run the tests together.\n\n```bash\nsed -n 35,60p src/tally/counter.py\n```\n\n```bash\npytest -q\n```" },
    { role: "user", content: "Please always provide EXACTLY ONE action in triple backticks, found 2 actions.\n\nPlease format your action in triple backticks as shown in <response_example>." },
    { role: "assistant", content: "THOUGHT: One at a time.\n\n```bash\nsed -n 35,60p src/tally/counter.py\n```" },
    { role: "user", content: obs(0, "    def most_common(self, n=None):\n        items = sorted(self.items(), key=lambda kv: kv[1])\n        return items[:n]\n") },
    { role: "assistant", content: "THOUGHT: Run the full suite to see the failure.\n\n```bash\npython -m pytest -q tests/ --timeout=1000\n```" },
    { role: "user", content: "The last command <command>python -m pytest -q tests/ --timeout=1000</command> timed out and has been killed.\nThe output of the command was:\n<output>\n...........\n</output>\nPlease try another command and make sure to avoid those requiring interactive input." },
    { role: "assistant", content: "THOUGHT: Run only the counter tests.\n\n```bash\npython -m pytest -q tests/test_counter.py\n```" },
    { role: "user", content: obs(1, "F.\nE       AssertionError: assert [('b', 2), ('a', 2)] == [('a', 2), ('b', 2)]\n1 failed, 1 passed in 0.03s\n") },
    { role: "assistant", content: "THOUGHT: Sort by count descending, then insertion order.\n\n```bash\nsed -i 's/key=lambda kv: kv\\[1\\])/key=lambda kv: -kv[1])/' src/tally/counter.py && python -m pytest -q tests/test_counter.py\n```" },
    { role: "user", content: obs(0, "..\n2 passed in 0.02s\n") },
    { role: "assistant", content: "THOUGHT: Submit.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached\n```" },
  ];
  const traj = { info: { exit_status: "Submitted", submission: "diff --git a/src/tally/counter.py b/src/tally/counter.py", model_stats: { instance_cost: 0.021, api_calls: 7 }, mini_version: "1.17.2", config: { agent_type: "minisweagent.agents.default.DefaultAgent", model: { model_name: "claude-sonnet-4-5" } } }, messages, trajectory_format: "mini-swe-agent-1" };
  writeFileSync(join(dir, "tally__tally-3.traj.json"), JSON.stringify(traj, null, 2));
}

// ─── Claude Code subagent layouts ─────────────────────────────────────────────
{
  const dir = fresh("claude-subagents");
  const project = join(dir, "-home-dev-tally");
  mkdirSync(project, { recursive: true });

  // (1) the 2.1 layout: <session>/subagents/agent-<id>.jsonl; the Task result names the agent id
  {
    const sid = "5b1c9e2a-0001-4d2e-8f3a-tally0000001";
    const s = new ClaudeSessionWriter(sid, "/home/dev/tally", Date.UTC(2026, 10, 21, 9, 0, 0), "2.1.39");
    s.user("Find every caller of most_common and fix the tie order.");
    const [task] = s.assistant({ text: "I'll have an agent map the callers.", tools: [{ name: "Task", input: { description: "Map callers", prompt: "List every caller of Counter.most_common in src/ with file:line.", subagent_type: "Explore" } }] });
    s.raw(JSON.stringify({ type: "user", uuid: "b0000000-0000-4000-8000-000000000001", parentUuid: s.head, isSidechain: false, sessionId: sid, version: "2.1.39", timestamp: "2026-11-21T09:01:00.000Z", message: { role: "user", content: [{ type: "tool_result", tool_use_id: task, content: [{ type: "text", text: "Callers: src/tally/report.py:12, src/tally/cli.py:40" }, { type: "text", text: "agentId: a7f3c21 (for resuming to continue this agent's work if needed)" }] }] }, toolUseResult: { status: "completed", prompt: "List every caller of Counter.most_common in src/ with file:line.", agentId: "a7f3c21", totalDurationMs: 8100, totalTokens: 5400, totalToolUseCount: 2 } }));
    s.head = "b0000000-0000-4000-8000-000000000001";
    s.act("Edit", { file_path: "/home/dev/tally/src/tally/counter.py", old_string: "key=lambda kv: kv[1]", new_string: "key=lambda kv: -kv[1]" }, "The file /home/dev/tally/src/tally/counter.py has been updated.");
    s.assistant({ text: "Fixed the ordering; both callers get ties in insertion order now." });
    writeFileSync(join(project, `${sid}.jsonl`), s.text());
    mkdirSync(join(project, sid, "subagents"), { recursive: true });
    const a = new ClaudeSessionWriter(sid, "/home/dev/tally", Date.UTC(2026, 10, 21, 9, 0, 10), "2.1.39");
    a.sidechain = true;
    const tag = (w: ClaudeSessionWriter, agentId: string) => w.lines.splice(0, w.lines.length, ...w.lines.map((l) => JSON.stringify({ ...JSON.parse(l), agentId })));
    a.user("List every caller of Counter.most_common in src/ with file:line.");
    a.act("Grep", { pattern: "most_common(", path: "src/", output_mode: "content", "-n": true }, "src/tally/report.py:12:    top = counts.most_common(3)\nsrc/tally/cli.py:40:    for k, v in c.most_common():");
    a.act("Bash", { command: "rg --no-such-option most_common src/" }, "error: Found argument '--no-such-option' which wasn't expected, or isn't valid in this context\n\nUSAGE:\n    rg [OPTIONS] PATTERN [PATH ...]", true);
    a.assistant({ text: "Callers: src/tally/report.py:12, src/tally/cli.py:40" });
    tag(a, "a7f3c21");
    writeFileSync(join(project, sid, "subagents", "agent-a7f3c21.jsonl"), a.text());
    // a compaction agent of the same session
    const c = new ClaudeSessionWriter(sid, "/home/dev/tally", Date.UTC(2026, 10, 21, 9, 30, 0), "2.1.39");
    c.sidechain = true;
    c.user("Your task is to create a detailed summary of the conversation so far.");
    c.assistant({ text: "<summary>The tie order in most_common was fixed.</summary>" });
    tag(c, "acompact-5e21b0");
    writeFileSync(join(project, sid, "subagents", "agent-acompact-5e21b0.jsonl"), c.text());
  }

  // (2) older sibling files agent-<id>.jsonl (isSidechain, the parent's sessionId), linked by prompt;
  //     a warm-up sidechain no call spawned
  {
    const sid = "5b1c9e2a-0002-4d2e-8f3a-tally0000002";
    const s = new ClaudeSessionWriter(sid, "/home/dev/tally", Date.UTC(2026, 10, 21, 10, 0, 0), "1.0.51");
    s.user("Check that the changelog mentions the fix.");
    s.act("Task", { description: "Check changelog", prompt: "Does CHANGELOG.md mention the most_common tie fix? Quote the line." }, "Yes: '- most_common keeps ties in insertion order (#3)'");
    s.assistant({ text: "The changelog mentions it." });
    writeFileSync(join(project, `${sid}.jsonl`), s.text());
    const a = new ClaudeSessionWriter(sid, "/home/dev/tally", Date.UTC(2026, 10, 21, 10, 0, 5), "1.0.51");
    a.sidechain = true;
    a.user("Does CHANGELOG.md mention the most_common tie fix? Quote the line.");
    a.act("Read", { file_path: "/home/dev/tally/CHANGES.md" }, "<tool_use_error>File does not exist.</tool_use_error>", true);
    a.act("Bash", { command: "git log --oneline -- CHANGELOG.md" }, "fatal: ambiguous argument 'CHANGELOG.md': unknown revision or path not in the working tree.", true);
    a.act("Read", { file_path: "/home/dev/tally/CHANGELOG.md" }, "     1\t# Changes\n     2\t- most_common keeps ties in insertion order (#3)");
    a.assistant({ text: "Yes: '- most_common keeps ties in insertion order (#3)'" });
    writeFileSync(join(project, "agent-9c04e1d2.jsonl"), a.text());
    const w = new ClaudeSessionWriter(sid, "/home/dev/tally", Date.UTC(2026, 10, 21, 9, 59, 0), "1.0.51");
    w.sidechain = true;
    w.user("Warmup");
    w.assistant({ text: "I'm ready to help." });
    writeFileSync(join(project, "agent-1f2e3d4c.jsonl"), w.text());
  }

  // (3) agent_progress records nested in the parent (no transcript file)
  {
    const sid = "5b1c9e2a-0003-4d2e-8f3a-tally0000003";
    const s = new ClaudeSessionWriter(sid, "/home/dev/tally", Date.UTC(2026, 10, 21, 11, 0, 0), "2.1.12");
    s.user("Run the linter through an agent.");
    const [task] = s.assistant({ tools: [{ name: "Task", input: { description: "Lint", prompt: "Run ruff on src/ and report.", subagent_type: "general-purpose" } }] });
    const nested = (m: Record<string, unknown>) => s.progress(task!, { type: "agent_progress", agentId: "b81d2f0", prompt: "Run ruff on src/ and report.", message: m });
    nested({ type: "user", uuid: "c1000000-0000-4000-8000-000000000001", timestamp: "2026-11-21T11:00:02.000Z", message: { role: "user", content: "Run ruff on src/ and report." } });
    nested({ type: "assistant", uuid: "c1000000-0000-4000-8000-000000000002", timestamp: "2026-11-21T11:00:03.000Z", message: { id: "msg_nested_1", role: "assistant", content: [{ type: "tool_use", id: "toolu_nested_1", name: "Bash", input: { command: "ruf check src/" } }], usage: { input_tokens: 800, output_tokens: 30 } } });
    nested({ type: "user", uuid: "c1000000-0000-4000-8000-000000000003", timestamp: "2026-11-21T11:00:04.000Z", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_nested_1", content: "/bin/bash: line 1: ruf: command not found", is_error: true }] } });
    nested({ type: "assistant", uuid: "c1000000-0000-4000-8000-000000000004", timestamp: "2026-11-21T11:00:05.000Z", message: { id: "msg_nested_2", role: "assistant", content: [{ type: "tool_use", id: "toolu_nested_2", name: "Bash", input: { command: "ruff check src/" } }] } });
    nested({ type: "user", uuid: "c1000000-0000-4000-8000-000000000005", timestamp: "2026-11-21T11:00:06.000Z", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_nested_2", content: "All checks passed!" }] } });
    // Claude Code repeats a record when it re-sends progress: read once
    nested({ type: "user", uuid: "c1000000-0000-4000-8000-000000000005", timestamp: "2026-11-21T11:00:06.000Z", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_nested_2", content: "All checks passed!" }] } });
    s.result(task!, "ruff: all checks passed on src/.");
    s.act("Skill", { skill: "release-notes" }, "<tool_use_error>Unknown skill: release-notes</tool_use_error>", true);
    s.assistant({ text: "Lint is clean." });
    writeFileSync(join(project, `${sid}.jsonl`), s.text());
  }

  // files that hold no session, each reported with why
  writeFileSync(join(project, "5b1c9e2a-0004-4d2e-8f3a-tally0000004.jsonl"), JSON.stringify({ type: "summary", summary: "Tally tie fix", leafUuid: "0000" }) + "\n");
  writeFileSync(join(project, "5b1c9e2a-0005-4d2e-8f3a-tally0000005.jsonl"), "");
  writeFileSync(join(project, "notes.txt"), "not a trace\n");
}
console.log("fixtures written under", root);
