/**
 * Authors datasets/traces/ (run: npx tsx scripts/make-trace-datasets.ts). The sessions are written
 * for this project and shaped like real Claude Code sessions and open chat-format trajectories:
 * every error kind, sidechains, a compaction, thinking blocks and some malformed lines.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ChatTrajectoryWriter, ClaudeSessionWriter } from "../lib/traces/synth.js";

const root = join(import.meta.dirname, "..", "datasets", "traces");
const claudeDir = join(root, "claude", "-home-dev-inventory");
mkdirSync(join(claudeDir, "subagents"), { recursive: true });
mkdirSync(join(root, "chat"), { recursive: true });

const PYTEST_FAIL = `============================= test session starts ==============================
collected 12 items

tests/test_stock.py ....F.......                                         [100%]

=================================== FAILURES ===================================
___________________________ test_reserve_insufficient ___________________________
    def test_reserve_insufficient():
        inv = Inventory({"widget": 2})
>       with pytest.raises(OutOfStock):
E       Failed: DID NOT RAISE <class 'inventory.errors.OutOfStock'>
tests/test_stock.py:41: Failed
=========================== short test summary info ============================
FAILED tests/test_stock.py::test_reserve_insufficient - Failed: DID NOT RAISE
========================= 1 failed, 11 passed in 0.21s =========================`;

// 1. Fix a failing test: thinking, a compaction, a failing_test site, a wasted re-read.
{
  const s = new ClaudeSessionWriter("7f2c1e0a-0001-4c1e-9a51-inventory0001");
  s.snapshot();
  s.user("The test test_reserve_insufficient fails. Fix the implementation, not the test.");
  s.assistant({ thinking: "Run the suite first to see the failure.", text: "I'll run the tests to reproduce." });
  s.act("Bash", { command: "python -m pytest -q tests/test_stock.py", description: "Run stock tests" }, `Exit code 1\n${PYTEST_FAIL}`, true);
  s.assistant({ thinking: "reserve() must raise OutOfStock when quantity exceeds stock.", text: "The reservation doesn't check stock. Let me read it." });
  s.act("Read", { file_path: "/home/dev/project/inventory/stock.py" }, "     1\tfrom .errors import OutOfStock\n     2\t\n     3\tclass Inventory:\n     4\t    def reserve(self, sku, qty):\n     5\t        self._levels[sku] -= qty\n");
  s.act("Read", { file_path: "/home/dev/project/inventory/stock.py" }, "     1\tfrom .errors import OutOfStock\n     2\t\n     3\tclass Inventory:\n     4\t    def reserve(self, sku, qty):\n     5\t        self._levels[sku] -= qty\n");
  s.compact("Fixing Inventory.reserve to raise OutOfStock; the test file is tests/test_stock.py.");
  s.act("Edit", { file_path: "/home/dev/project/inventory/stock.py", old_string: "        self._levels[sku] -= qty", new_string: "        if self._levels.get(sku, 0) < qty:\n            raise OutOfStock(sku, qty)\n        self._levels[sku] -= qty" }, "The file /home/dev/project/inventory/stock.py has been updated.");
  s.act("Bash", { command: "python -m pytest -q tests/test_stock.py" }, "............                                                             [100%]\n12 passed in 0.19s");
  s.assistant({ text: "Fixed: `reserve` now raises `OutOfStock` when the requested quantity exceeds the stock level. All 12 tests pass." });
  writeFileSync(join(claudeDir, "7f2c1e0a-0001-4c1e-9a51-inventory0001.jsonl"), s.text());
}

// 2. Tool misuse: one site per tool-use error kind.
{
  const s = new ClaudeSessionWriter("7f2c1e0a-0002-4c1e-9a51-inventory0002");
  s.user("Add a --json flag to the report command and make sure lint passes.");
  s.act("ReadFile", { path: "inventory/cli.py" }, "<tool_use_error>Error: No such tool available: ReadFile</tool_use_error>", true);
  s.act("Read", {}, "<tool_use_error>InputValidationError: Read failed due to the following issue:\nThe required parameter `file_path` is missing</tool_use_error>", true);
  s.act("Read", { file_path: "/home/dev/project/inventory/report_cli.py" }, "<tool_use_error>File does not exist.</tool_use_error>", true);
  s.act("Bash", { command: "rg -n 'def report' inventory" }, "Exit code 127\n/bin/bash: line 1: rg: command not found", true);
  s.act("Grep", { pattern: "def report", path: "inventory" }, "Found 1 file\n/home/dev/project/inventory/cli.py");
  s.act("Read", { file_path: "/home/dev/project/inventory/cli.py" }, "     1\timport argparse\n     2\tfrom .report import render\n");
  s.act("Bash", { command: "python -c 'import inventory.cli as c; c.main([\"report\", \"--json\"]'" }, "Exit code 1\n  File \"<string>\", line 1\n    import inventory.cli as c; c.main([\"report\", \"--json\"]\n                                                         ^\nSyntaxError: '(' was never closed", true);
  s.act("Bash", { command: "python -m inventory.cli report --json" }, "Exit code 1\nTraceback (most recent call last):\n  File \"/home/dev/project/inventory/cli.py\", line 31, in main\n    fmt = FORMATS[args.format]\nKeyError: 'json'", true);
  s.act("Bash", { command: "python -m inventory.cli report --json > /etc/report.json" }, "Exit code 1\n/bin/bash: line 1: /etc/report.json: Permission denied", true);
  s.act("Bash", { command: "pip install orjson" }, "Exit code 1\nWARNING: Retrying (Retry(total=4)) after connection broken by 'NewConnectionError: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution'\nERROR: Could not find a version that satisfies the requirement orjson", true);
  s.act("Bash", { command: "python scripts/load_fixture.py fixtures/stock.json" }, "Exit code 1\njson.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 3 column 5 (char 18)", true);
  s.act("Edit", { file_path: "/home/dev/project/inventory/cli.py", old_string: "FORMATS = {\"text\": render}", new_string: "FORMATS = {\"text\": render, \"json\":render_json}" }, "The file /home/dev/project/inventory/cli.py has been updated.");
  s.act("Bash", { command: "ruff check inventory" }, "Exit code 1\ninventory/cli.py:12:43: E231 Missing whitespace after ':'\ninventory/cli.py:2:1: F401 `json` imported but unused\nFound 2 errors.", true);
  s.act("Bash", { command: "make release" }, "Exit code 2\nmake: *** No rule to make target 'release'.  Stop.", true);
  s.assistant({ text: "Added `--json` to `report` (renders through `render_json`) and fixed the two ruff findings." });
  writeFileSync(join(claudeDir, "7f2c1e0a-0002-4c1e-9a51-inventory0002.jsonl"), s.text());
}

// 3. Repeated failure and a subagent (Task) whose sidechain also errs; an abandoned branch.
{
  const s = new ClaudeSessionWriter("7f2c1e0a-0003-4c1e-9a51-inventory0003");
  s.user("Make the CSV importer accept semicolon-separated files.");
  for (let i = 0; i < 3; i++) {
    s.act("Edit", { file_path: "/home/dev/project/inventory/importer.py", old_string: `delimiter=${i === 0 ? "','" : "sniff"}`, new_string: "delimiter=sniff" }, "The file /home/dev/project/inventory/importer.py has been updated.");
    s.act("Bash", { command: "python -m pytest -q tests/test_importer.py" }, `Exit code 1\nF..\n=================================== FAILURES ===================================\nE   AssertionError: assert ['a;b;c'] == ['a', 'b', 'c']\nFAILED tests/test_importer.py::test_semicolon - AssertionError\n1 failed, 2 passed in 0.0${i + 4}s`, true);
  }
  const fork = s.head;
  s.assistant({ text: "Let me try rewriting the whole importer." });
  s.head = fork; // the user interrupted; the branch above is abandoned
  s.user("Don't rewrite it. Ask a subagent to find how other readers sniff the dialect.");
  const [task] = s.assistant({ text: "I'll delegate the search.", tools: [{ name: "Task", input: { description: "Find dialect sniffing", prompt: "Find how csv dialects are sniffed in this repo", subagent_type: "general-purpose" } }] });
  const main = s.head;
  s.sidechain = true;
  s.head = null;
  s.user("Find how csv dialects are sniffed in this repo");
  s.act("Grep", { pattern: "Sniffer", path: "." }, "Found 1 file\n/home/dev/project/inventory/exporter.py");
  s.act("Read", { file_path: "/home/dev/project/inventory/exporters.py" }, "<tool_use_error>File does not exist.</tool_use_error>", true);
  s.assistant({ text: "exporter.py uses csv.Sniffer().sniff(sample, delimiters=',;\\t')." });
  s.sidechain = false;
  s.head = main;
  s.result(task!, "exporter.py uses csv.Sniffer().sniff(sample, delimiters=',;\\t').");
  s.act("Edit", { file_path: "/home/dev/project/inventory/importer.py", old_string: "delimiter=sniff", new_string: "dialect=csv.Sniffer().sniff(sample, delimiters=',;\\t')" }, "The file has been updated.");
  s.act("Bash", { command: "python -m pytest -q tests/test_importer.py" }, "...\n3 passed in 0.04s");
  s.assistant({ text: "The importer now sniffs `,`, `;` and tab delimiters; tests pass." });
  writeFileSync(join(claudeDir, "7f2c1e0a-0003-4c1e-9a51-inventory0003.jsonl"), s.text());
}

// 4. A subagent file as Claude Code stores them (isSidechain records in their own file).
{
  const s = new ClaudeSessionWriter("7f2c1e0a-0003-4c1e-9a51-inventory0003");
  s.sidechain = true;
  s.user("List the public functions of inventory/report.py");
  s.act("Bash", { command: "python - <<'EOF'\nimport ast,sys\nprint([n.name for n in ast.parse(open('inventory/report.py').read()).body if isinstance(n, ast.FunctionDef)])\nEOF" }, "['render', 'render_json', 'totals']");
  s.assistant({ text: "render, render_json, totals." });
  writeFileSync(join(claudeDir, "subagents", "agent-a1b2c3d4.jsonl"), s.text());
}

// 5. Damaged file: every kind of bad input, around a session that is still ingested.
{
  const s = new ClaudeSessionWriter("7f2c1e0a-0005-4c1e-9a51-inventory0005");
  s.user("Why does `inventory totals` print nothing?");
  s.raw("");
  s.raw("[1, 2, 3]");
  s.raw(JSON.stringify({ type: "telemetry-ping", uuid: "x" }));
  s.act("Bash", { command: "python -m inventory.cli totals" }, "Exit code 1\nTraceback (most recent call last):\n  File \"inventory/report.py\", line 9, in totals\nZeroDivisionError: division by zero", true);
  s.raw(JSON.stringify({ parentUuid: "00000000-dead-4bee-8000-000000000000", isSidechain: false, type: "user", uuid: "11111111-1111-4111-8111-111111111111", sessionId: s.sessionId, timestamp: "2026-10-01T10:00:00.000Z", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_missing", content: "orphan output" }] } }));
  s.raw(JSON.stringify({ type: "assistant", uuid: "22222222-2222-4222-8222-222222222222", parentUuid: null, sessionId: s.sessionId }));
  s.assistant({ text: "totals() divides by the item count, which is zero for an empty store; I'll guard it." });
  s.raw('{"parentUuid":"x","type":"assistant","message":{"id":"msg_trunc","role":"assistant","content":[{"type":"text","text":"Guarding the divi');
  writeFileSync(join(claudeDir, "7f2c1e0a-0005-4c1e-9a51-inventory0005.jsonl"), s.text().replace(/\n$/, ""));
}

// Claude Code 2.x sessions (-home-dev-ledger): parallel tool calls written interleaved, progress
// records in the parentUuid chain, a sibling cascade, Claude Code's own tool errors, stderr before
// stdout. Every site is counted exactly in test/traces.test.ts.
const ledgerDir = join(root, "claude", "-home-dev-ledger");
mkdirSync(ledgerDir, { recursive: true });
const bashProgress = (lines: string[]) => lines.map((_, i) => ({ type: "bash_progress", output: lines.slice(0, i + 1).join("\n"), fullOutput: lines.slice(0, i + 1).join("\n"), elapsedTimeSeconds: 3 * (i + 1), totalLines: i + 1 }));
const hookProgress = (tool: string) => ({ type: "hook_progress", hookEvent: "PostToolUse", hookName: `PostToolUse:${tool}`, command: "ruff format --quiet \"$CLAUDE_FILE_PATHS\"" });
const PYTEST_LEDGER_FAIL = `============================= test session starts ==============================
platform linux -- Python 3.12.7, pytest-8.3.3, pluggy-1.5.0
rootdir: /home/dev/ledger
configfile: pyproject.toml
plugins: cov-5.0.0, hypothesis-6.112.1
collected 18 items

tests/test_totals.py .......F..........                                  [100%]

=================================== FAILURES ===================================
_____________________________ test_total_rounds_half_even _____________________________

    def test_total_rounds_half_even():
        entries = [Entry("a", Decimal("0.125")), Entry("b", Decimal("0.01"))]
>       assert total(entries) == Decimal("0.14")
E       AssertionError: assert Decimal('0.13') == Decimal('0.14')
E        +  where Decimal('0.13') = total([Entry(name='a', amount=Decimal('0.125')), Entry(name='b', amount=Decimal('0.01'))])

tests/test_totals.py:27: AssertionError
=========================== short test summary info ============================
FAILED tests/test_totals.py::test_total_rounds_half_even - AssertionError: assert Decimal('0.13') == Decimal('0.14')
========================= 1 failed, 17 passed in 0.31s =========================`;
const TOTALS_PY = "     1\tfrom decimal import Decimal, ROUND_HALF_EVEN\n     2\t\n     3\tdef total(entries):\n     4\t    s = sum((e.amount for e in entries), Decimal(0))\n     5\t    return s.quantize(Decimal(\"0.01\"))\n";

// 1. Parallel reads, a failing test whose parallel sibling is cancelled, an old_string that does not match.
{
  const s = new ClaudeSessionWriter("3c9e5b1d-2101-4b7e-8c1a-ledger000001", "/home/dev/ledger", Date.UTC(2026, 10, 3, 14, 0, 0), "2.1.3");
  s.snapshot();
  s.user("ledger totals are off by a cent for half-cent amounts. Fix the rounding (banker's rounding, two places).");
  s.message({
    thinking: "Read the implementation and the test side by side, and find every place that rounds.",
    text: "Let me look at the totals code, its tests and other rounding sites.",
    tools: [
      { name: "Read", input: { file_path: "/home/dev/ledger/ledger/totals.py" }, output: TOTALS_PY },
      { name: "Read", input: { file_path: "/home/dev/ledger/tests/test_totals.py" }, output: "    25\tdef test_total_rounds_half_even():\n    26\t    entries = [Entry(\"a\", Decimal(\"0.125\")), Entry(\"b\", Decimal(\"0.01\"))]\n    27\t    assert total(entries) == Decimal(\"0.14\")\n" },
      { name: "Grep", input: { pattern: "quantize\\(", path: "/home/dev/ledger/ledger", output_mode: "content", "-n": true }, output: "ledger/totals.py:5:    return s.quantize(Decimal(\"0.01\"))\nledger/report.py:31:        amount.quantize(CENT, rounding=ROUND_HALF_EVEN)" },
    ],
  });
  s.message({
    text: "Reproducing first, and checking the CLI output at the same time.",
    tools: [
      { name: "Bash", input: { command: "python -m pytest -q tests/test_totals.py", description: "Run the totals tests" }, output: `Exit code 1\n${PYTEST_LEDGER_FAIL}`, isError: true, progress: bashProgress(["collected 18 items", "tests/test_totals.py .......F.........."]) },
      { name: "Bash", input: { command: "python -m ledger.cli totals data/sample.csv", description: "Totals of the sample" }, output: "<tool_use_error>Sibling tool call errored</tool_use_error>", isError: true },
    ],
  });
  s.message({
    thinking: "quantize without a rounding mode uses the context default (ROUND_HALF_EVEN)... but the sum is rounded per entry somewhere.",
    tools: [{ name: "Edit", input: { file_path: "/home/dev/ledger/ledger/totals.py", old_string: "    return round(s, 2)", new_string: "    return s.quantize(Decimal(\"0.01\"), rounding=ROUND_HALF_EVEN)" }, output: "<tool_use_error>String to replace not found in file.\nString:     return round(s, 2)</tool_use_error>", isError: true }],
  });
  s.message({
    tools: [{ name: "Edit", input: { file_path: "/home/dev/ledger/ledger/totals.py", old_string: "    return s.quantize(Decimal(\"0.01\"))", new_string: "    return s.quantize(Decimal(\"0.01\"), rounding=ROUND_HALF_EVEN)" }, output: "The file /home/dev/ledger/ledger/totals.py has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n     5\t    return s.quantize(Decimal(\"0.01\"), rounding=ROUND_HALF_EVEN)", progress: [hookProgress("Edit")] }],
  });
  s.message({ tools: [{ name: "Bash", input: { command: "python -m pytest -q tests/test_totals.py", description: "Run the totals tests" }, output: "..................                                                       [100%]\n18 passed in 0.29s", progress: bashProgress(["collected 18 items"]) }] });
  s.message({ tools: [{ name: "Bash", input: { command: "python -m ledger.cli totals data/sample.csv", description: "Totals of the sample" }, output: "total: 1204.14" }] });
  s.assistant({ text: "Fixed: `total()` now quantizes with `ROUND_HALF_EVEN` explicitly; the 18 totals tests pass and the sample totals to 1204.14." });
  writeFileSync(join(ledgerDir, "3c9e5b1d-2101-4b7e-8c1a-ledger000001.jsonl"), s.text());
}

// 2. Edit before Read (then the same Edit after the Read: the fix, not waste), a Python error from
//    the program with stderr before stdout, a file too large to read, a ruff finding in a parallel pair.
{
  const s = new ClaudeSessionWriter("3c9e5b1d-2102-4b7e-8c1a-ledger000002", "/home/dev/ledger", Date.UTC(2026, 10, 4, 9, 30, 0), "2.1.3");
  s.user("Add `ledger export --format csv --sep ';'`.");
  const editExport = { file_path: "/home/dev/ledger/ledger/export.py", old_string: "def write_csv(rows, path):", new_string: "def write_csv(rows, path, sep=\",\"):" };
  s.message({ text: "I'll add a separator parameter to write_csv.", tools: [{ name: "Edit", input: editExport, output: "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>", isError: true }] });
  s.message({ tools: [{ name: "Read", input: { file_path: "/home/dev/ledger/ledger/export.py" }, output: "     1\timport csv\n     2\t\n     3\tdef write_csv(rows, path):\n     4\t    with open(path, \"w\", newline=\"\") as f:\n     5\t        csv.writer(f).writerows(rows)\n" }] });
  s.message({ tools: [{ name: "Edit", input: editExport, output: "The file /home/dev/ledger/ledger/export.py has been updated.", progress: [hookProgress("Edit")] }] });
  s.message({
    tools: [{
      name: "Bash", input: { command: "python -m ledger.cli export --format csv --sep ';' out.csv", description: "Try the export" },
      output: "Exit code 1\nTraceback (most recent call last):\n  File \"/home/dev/ledger/ledger/cli.py\", line 44, in main\n    write_csv(rows, path=args.out, delimiter=args.sep)\nTypeError: write_csv() got an unexpected keyword argument 'delimiter'\nLoading ledger from data/ledger.db\nLoaded 1,204 entries\nExporting 1,204 rows to out.csv",
      isError: true, progress: bashProgress(["Loading ledger from data/ledger.db", "Loaded 1,204 entries"]),
    }],
  });
  s.message({ tools: [{ name: "Read", input: { file_path: "/home/dev/ledger/ledger/cli.py" }, output: "<tool_use_error>File content (41234 tokens) exceeds maximum allowed tokens (25000). Please use offset and limit parameters to read specific portions of the file, or use the GrepTool to search for specific content.</tool_use_error>", isError: true }] });
  s.message({ tools: [{ name: "Read", input: { file_path: "/home/dev/ledger/ledger/cli.py", offset: 30, limit: 30 }, output: "    44\t    write_csv(rows, path=args.out, delimiter=args.sep)\n" }] });
  s.message({ tools: [{ name: "Edit", input: { file_path: "/home/dev/ledger/ledger/cli.py", old_string: "delimiter=args.sep", new_string: "sep=args.sep" }, output: "The file /home/dev/ledger/ledger/cli.py has been updated.", progress: [hookProgress("Edit")] }] });
  s.message({
    text: "Running the tests and the linter together.",
    tools: [
      { name: "Bash", input: { command: "python -m pytest -q", description: "Full suite" }, output: "..............................                                           [100%]\n30 passed in 0.88s", progress: bashProgress(["collected 30 items"]) },
      { name: "Bash", input: { command: "ruff check ledger", description: "Lint" }, output: "Exit code 1\nF401 [*] `sys` imported but unused\n --> ledger/export.py:2:8\n  |\n1 | import csv\n2 | import sys\n  |        ^^^\n  |\nhelp: Remove unused import: `sys`\n\nFound 1 error.\n[*] 1 fixable with the `--fix` option.", isError: true },
    ],
  });
  s.message({ tools: [{ name: "Edit", input: { file_path: "/home/dev/ledger/ledger/export.py", old_string: "import csv\nimport sys\n", new_string: "import csv\n" }, output: "The file /home/dev/ledger/ledger/export.py has been updated." }] });
  s.message({ tools: [{ name: "Bash", input: { command: "ruff check ledger", description: "Lint" }, output: "All checks passed!" }] });
  s.assistant({ text: "`ledger export --format csv --sep ';'` works: `write_csv` takes `sep`, the CLI passes it, tests and ruff are clean." });
  writeFileSync(join(ledgerDir, "3c9e5b1d-2102-4b7e-8c1a-ledger000002.jsonl"), s.text());
}

// 3. The user rejects a call, Claude Code's permission system refuses two, a command times out.
{
  const s = new ClaudeSessionWriter("3c9e5b1d-2103-4b7e-8c1a-ledger000003", "/home/dev/ledger", Date.UTC(2026, 10, 5, 16, 10, 0), "2.1.3");
  s.user("Clean the build output and run the slow suite.");
  s.message({ tools: [{ name: "Bash", input: { command: "rm -rf build/ dist/", description: "Remove build output" }, output: "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.", isError: true }] });
  s.user("[Request interrupted by user for tool use]");
  s.user("Keep dist/, only remove build/.");
  s.message({ text: "Understood: only build/.", tools: [{ name: "Bash", input: { command: "rm -rf build/", description: "Remove build/" }, output: "" }] });
  s.message({ tools: [{ name: "Bash", input: { command: "cd /var/cache/ledger && ls", description: "Look at the cache" }, output: "cd to '/var/cache/ledger' was blocked. For security, Claude Code may only change directories to child directories of the allowed working directories for this session (including '/home/dev/ledger').", isError: true }] });
  s.message({ tools: [{ name: "Bash", input: { command: "python -m pytest -q tests/slow", description: "Slow suite", timeout: 120000 }, output: "Command timed out after 2m 0.0s\n........................", isError: true, progress: bashProgress(["collected 212 items", "........", "................", "........................"]) }] });
  s.message({ text: "The backfill tests dominate; running the rest and the backfill ones separately.", tools: [{ name: "Bash", input: { command: "python -m pytest -q tests/slow -k 'not backfill'", description: "Slow suite without backfill" }, output: "204 passed, 8 deselected in 41.02s", progress: bashProgress(["collected 212 items / 8 deselected / 204 selected"]) }] });
  s.message({ tools: [{ name: "WebFetch", input: { url: "https://docs.pytest.org/en/stable/how-to/xdist.html", prompt: "How to run tests in parallel" }, output: "Claude requested permissions to use WebFetch, but you haven't granted it yet.", isError: true }] });
  s.assistant({ text: "build/ is removed (dist/ kept). The slow suite passes without the 8 backfill tests (41 s); the backfill tests need more than the 2-minute limit, run them with `pytest -n auto` or in the background." });
  writeFileSync(join(ledgerDir, "3c9e5b1d-2103-4b7e-8c1a-ledger000003.jsonl"), s.text());
}

// Chat-format trajectories.
{
  const tools = ["read_file", "write_file", "run_tests", "bash"];
  const lines: string[] = [];
  lines.push(
    new ChatTrajectoryWriter("toolz-curry-001", tools)
      .user("Implement toolz.curry's support for keyword-only arguments.")
      .call("open_file", { path: "toolz/functoolz.py" }, "Error: unknown tool open_file", { isError: true, text: "Opening the module." })
      .call("read_file", { path: "toolz/functoolz.py" }, "class curry(object):\n    def __init__(self, *args, **kwargs):\n        ...")
      .call("write_file", {}, "", { rawArgs: "{'path': 'toolz/functoolz.py', 'content': 'class curry: ...'}" })
      .call("write_file", { path: "toolz/functoolz.py", content: "class curry(object): ..." }, "wrote 1 file")
      .call("run_tests", { tests: ["toolz/tests/test_functoolz.py"] }, "4 passed")
      .say("curry now binds keyword-only arguments; the functoolz tests pass.")
      .line(),
  );
  lines.push(
    new ChatTrajectoryWriter("sorted-bisect-002", tools)
      .user("SortedList.bisect_key_left raises on an empty list; fix it.")
      .call("bash", { command: "python -c 'from sortedcontainers import SortedKeyList as S; S(key=abs).bisect_key_left(1)'" }, "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n  File \"sortedcontainers/sortedlist.py\", line 2140, in bisect_key_left\n    pos = bisect_left(_maxes, key)\nTypeError: 'NoneType' object is not iterable", { isError: true })
      .call("bash", { command: "cat sortedcontainers/sortedlist.py | sed -n 2130,2150p" }, "[TOOL_RESULT (ERROR)] sed: can't read sortedcontainers/sortedlist.py: No such file or directory")
      .call("read_file", { path: "src/sortedcontainers/sortedlist.py" }, "    def bisect_key_left(self, key):\n        _maxes = self._maxes\n")
      .call("read_file", { path: "src/sortedcontainers/sortedlist.py" }, "    def bisect_key_left(self, key):\n        _maxes = self._maxes\n")
      .call("write_file", { path: "src/sortedcontainers/sortedlist.py", content: "..." }, "wrote 1 file")
      .say("An empty list now returns 0 from bisect_key_left.")
      .line(),
  );
  const rep = new ChatTrajectoryWriter("jinja-filter-003", tools).user("Add a `|shuffle` filter with a seed argument.");
  for (let i = 0; i < 4; i++) {
    rep.call("write_file", { path: "src/jinja2/filters.py", content: `# attempt ${i}` }, "wrote 1 file");
    rep.call("run_tests", { tests: ["tests/test_filters.py::test_shuffle"] }, `FAILED tests/test_filters.py::test_shuffle - AssertionError: assert [3, 1, 2] == [2, 3, 1]\n1 failed in 0.${i + 1}s`, { isError: true });
  }
  lines.push(rep.say("I could not make the shuffle deterministic; the seed is not threaded through.").line());
  lines.push("{\"id\": \"broken-004\", \"messages\": [{\"role\": \"user\", \"content\": \"trunc");
  lines.push("\"just a string\"");
  lines.push(JSON.stringify({ id: "no-messages-005", prompt: "hello" }));
  lines.push(
    new ChatTrajectoryWriter("lint-006", tools)
      .user("Run the linter and fix what it finds.")
      .call("bash", { command: "flake8 src" }, "src/app.py:3:1: F401 'os' imported but unused\nsrc/app.py:10:80: E501 line too long (88 > 79 characters)", { isError: true })
      .call("write_file", { path: "src/app.py", content: "..." }, "wrote 1 file")
      .call("bash", { command: "flake8 src" }, "")
      .say("Removed the unused import and wrapped the long line; flake8 is clean.")
      .line(),
  );
  writeFileSync(join(root, "chat", "trajectories.jsonl"), lines.join("\n") + "\n");
  // Results that say they failed only in their text (no is_error, no tag): found by the text rules.
  const textOnly = new ChatTrajectoryWriter("attrs-frozen-007", ["view", "edit", "run"])
    .user("Make attrs.frozen classes hashable by default.")
    .call("view", { path: "src/attr/_make.py" }, "Error: File not found: src/attr/_make.py")
    .call("view", { path: "src/attr/_make.py", root: "." }, "   1 def _make_hash(cls, attrs, frozen, cache_hash):\n   2     ...")
    .call("edit", { path: "src/attr/_make.py", search: "frozen=False", replace: "frozen=True" }, "src/attr/_make.py:212:9: E999 SyntaxError: invalid syntax")
    .call("edit", { path: "src/attr/_make.py", search: "frozen=False", replace: "frozen = True" }, "Edited src/attr/_make.py")
    .call("run", { command: "pytest -q tests/test_make.py" }, "..F\n=================================== FAILURES ===================================\nE       AssertionError: assert None is not None\nFAILED tests/test_make.py::test_frozen_hash - AssertionError: assert None is not None\n[Command finished with exit code 1]")
    .say("Frozen classes now get a __hash__ unless eq=False; one test still fails on cached hashes.")
    .line();
  writeFileSync(join(root, "chat", "unflagged-errors.jsonl"), textOnly + "\n");
}
console.log("wrote", root);
