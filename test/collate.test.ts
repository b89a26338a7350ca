import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  assistantBody, collateSdpo, collateToFiles, dpoPairsFromGroup, dpoPairsFromTraces, DpoPair, padBatch, readRows, SdpoRow, sdpoSequences, sftRows, sftRowsFromPairs,
  SftRow, writeRows, type Tokenizer,
} from "../lib/collate/index.js";
import { contextFromSite, defaultLayered, teacherContext, TemplateHintGenerator, type ErrorContext, type HintGenerator } from "../lib/hints/index.js";
import { collect, type IngestedSession } from "../lib/traces/index.js";
import { ClaudeSessionWriter } from "../lib/traces/synth.js";
import { BOS, decode, encode } from "../lib/train/tokenizer.js";
import { ROOT, tmp } from "./helpers.js";

const DATA = join(ROOT, "datasets", "traces");
const tok: Tokenizer = { encode: (t) => encode(t), decode, bos: BOS };
const noBos: Tokenizer = { encode: (t) => encode(t), decode };

let sessions: IngestedSession[];
beforeAll(async () => {
  sessions = (await collect([DATA])).sessions;
});

/** A generator that is one layer and answers after a delay (out of order under concurrency). */
const delayed = (answer: (ctx: ErrorContext) => string | null): HintGenerator => ({
  layer: "judge",
  generate: (ctx) => new Promise((res) => setTimeout(() => res(answer(ctx)), (ctx.turn_index ?? 0) % 3)),
});

/** The runs of consecutive masked positions, decoded. */
function maskedRuns(ids: number[], mask: number[]): string[] {
  const runs: string[] = [];
  let cur: number[] = [];
  ids.forEach((id, i) => {
    if (mask[i]) cur.push(id);
    else if (cur.length) runs.push(decode(cur.splice(0)));
  });
  if (cur.length) runs.push(decode(cur));
  return runs;
}

describe("SDPO rows", () => {
  it("one row per site with a hint and a recovery, on the bundled traces (exact counts)", async () => {
    const templates = new TemplateHintGenerator();
    const r = await collateSdpo(sessions, templates, tok);
    expect(r.sites).toBe(44);
    expect(r.rows).toHaveLength(32); // 31 + the make usage error, which has a template now
    // the sibling cascade (ledger000001) is not that call's fault: no hint is asked for
    expect(r.skipped).toEqual({ no_recovery: 0, empty_recovery: 0, no_hint: 11, generator_error: 0, cascade: 1, duplicate: 0 });
    expect(r.byLayer).toEqual({ template: 32 });
    // the same count, worked out independently from the sites
    const expected = sessions.flatMap(({ session, sites }) => sites.filter((s) => s.has_recovery && templates.generate(contextFromSite(s, session)) !== null));
    expect(r.rows.map((x) => `${x.session_id}:${x.turn_index}:${x.error_kind}`)).toEqual(expected.map((s) => `${s.session_id}:${s.turn_index}:${s.error_kind}`));

    const layered = await collateSdpo(sessions, defaultLayered(), tok);
    expect(layered.rows).toHaveLength(42);
    expect(layered.byLayer).toEqual({ template: 32, raw_error: 10 });
    // the user's rejection (ledger000003) is left to the judge: raw_error declines it
    expect(layered.skipped).toMatchObject({ no_hint: 1, cascade: 1 });
    for (const row of layered.rows) SdpoRow.parse(row);
  });

  it("teacher prompt = student prompt with the hint spliced right before the recovery turn (lib/hints' teacherContext)", async () => {
    const { rows } = await collateSdpo(sessions, defaultLayered(), tok);
    const bySite = new Map(sessions.flatMap(({ session, sites }) => sites.map((s) => [`${s.session_id}:${s.turn_index}:${s.error_kind}:${s.file}` as string, { session, site: s }] as const)));
    for (const row of rows) {
      const { session, site } = bySite.get(`${row.id}:${row.file}`)!;
      const header = "assistant: ";
      expect(row.student_prompt.endsWith(`\n\n${header}`)).toBe(true);
      const cut = row.student_prompt.length - header.length;
      expect(row.teacher_prompt).toBe(`${row.student_prompt.slice(0, cut)}${row.hint}\n\n${header}`);
      // the context is the one the hint layers saw, rendered as hint evaluation renders it
      expect(row.student_prompt).toBe(teacherContext(contextFromSite(site, session), null));
      // the completion is the recovery turn's assistant content
      expect(row.completion).toBe(assistantBody(session.turns[row.turn_index]!));
      expect(session.turns[row.turn_index]!.role).toBe("assistant");
      // token level: BOS, then the same bytes with the hint's spliced in
      expect(row.student_prompt_ids[0]).toBe(BOS);
      const hintIds = encode(`${row.hint}\n\n`);
      const at = row.student_prompt_ids.length - encode(header).length;
      expect(row.teacher_prompt_ids).toEqual([...row.student_prompt_ids.slice(0, at), ...hintIds, ...row.student_prompt_ids.slice(at)]);
      expect(decode(row.completion_ids)).toBe(row.completion);
    }
    const first = rows.find((r) => r.session_id === "toolz-curry-001" && r.error_kind === "tool_not_found")!;
    expect(first).toMatchObject({ layer: "template", turn_index: 4, completion: '→ read_file({"path":"toolz/functoolz.py"})' });
    expect(first.teacher_prompt.endsWith(
      "user: ← [error] Error: unknown tool open_file\n\nReminder: Available tools are: read_file, write_file, run_tests, bash. The tool you called does not exist — use one of these.\n\nassistant: ",
    )).toBe(true);
  });

  it("k / stateTokens re-render the context before the recovery turn (Infinity: the whole chain)", async () => {
    const one = sessions.filter((s) => s.session.id === "toolz-curry-001");
    const { rows } = await collateSdpo(one, defaultLayered(), noBos, { k: Infinity, stateTokens: Infinity });
    expect(rows[0]!.student_prompt.startsWith("system: You are a coding agent")).toBe(true);
    expect(rows[0]!.student_prompt_ids[0]).not.toBe(BOS);
  });

  it("sdpoSequences: completion kept (down to maxLen/2), prompts left-truncated, masks aligned", async () => {
    const { rows } = await collateSdpo(sessions, defaultLayered(), tok);
    for (const maxLen of [48, 257, 1 << 20]) {
      for (const row of rows) {
        const { student, teacher } = sdpoSequences(row, maxLen);
        for (const s of [student, teacher]) {
          expect(s.ids.length).toBe(s.mask.length);
          expect(s.ids.length).toBeLessThanOrEqual(maxLen);
          expect(s.ids[0]).toBe(BOS);
          // the completion is the masked tail
          const n = s.mask.reduce((a, b) => a + b, 0);
          expect(s.mask.slice(s.mask.length - n).every((m) => m === 1)).toBe(true);
        }
        const picked = (s: { ids: number[]; mask: number[] }) => s.ids.filter((_, i) => s.mask[i] === 1);
        expect(picked(student)).toEqual(picked(teacher));
        const c = row.completion_ids.length;
        const expectedKept = Math.min(c, Math.max(maxLen - row.teacher_prompt_ids.length, Math.floor(maxLen / 2)));
        expect(picked(student)).toEqual(row.completion_ids.slice(0, expectedKept));
        if (maxLen === 1 << 20) {
          expect(student.ids).toEqual([...row.student_prompt_ids, ...row.completion_ids]);
          expect(teacher.ids).toEqual([...row.teacher_prompt_ids, ...row.completion_ids]);
        } else {
          // truncated prompts keep their most recent tokens (the hint sits right before the completion)
          expect(teacher.ids.length).toBe(maxLen);
          expect(decode(teacher.ids.slice(1, teacher.ids.length - expectedKept))).toBe(decode(row.teacher_prompt_ids.slice(row.teacher_prompt_ids.length - (maxLen - 1 - expectedKept))));
        }
      }
    }
    expect(() => sdpoSequences(rows[0]!, 1)).toThrow(/maxLen/);
  });

  it("a generator that declines everything mints nothing; failures and async layers are accounted for", async () => {
    const none = await collateSdpo(sessions, { layer: "template", generate: () => null }, tok);
    expect(none.rows).toEqual([]);
    expect(none.skipped).toEqual({ no_recovery: 0, empty_recovery: 0, no_hint: 43, generator_error: 0, cascade: 1, duplicate: 0 });

    const blank = await collateSdpo(sessions, { layer: "template", generate: () => "   " }, tok);
    expect(blank.skipped.no_hint).toBe(43);

    const flaky = await collateSdpo(sessions, { layer: "judge", generate: async (c) => { if (c.error_kind === "failing_test") throw new Error("judge down"); return "Try again."; } }, tok);
    expect(flaky.rows).toHaveLength(33);
    expect(flaky.skipped.generator_error).toBe(10);
    expect(flaky.errors[0]).toMatchObject({ session_id: "jinja-filter-003", turn_index: 6, message: "judge down" });

    // async answers arriving out of order still give rows in site order, with the layer recorded
    const slow = await collateSdpo(sessions, delayed((c) => `Hint for ${c.error_kind}.`), tok, { concurrency: 4 });
    const fast = await collateSdpo(sessions, { layer: "judge", generate: (c) => `Hint for ${c.error_kind}.` }, tok);
    expect(slow.rows).toEqual(fast.rows);
    expect(slow.byLayer).toEqual({ judge: 43 });
  });

  it("skips sites without a recovery turn or with an empty one, before asking for a hint", async () => {
    const dir = tmp();
    const tools = [{ type: "function", function: { name: "bash" } }];
    const call = (id: string) => ({ role: "assistant", content: "", tool_calls: [{ id, type: "function", function: { name: "bash", arguments: '{"command":"rg x"}' } }] });
    const err = (id: string) => ({ role: "tool", tool_call_id: id, is_error: true, content: "bash: rg: command not found" });
    const lines = [
      { id: "ends-on-error", tools, messages: [{ role: "user", content: "find x" }, call("c1"), err("c1")] },
      { id: "empty-recovery", tools, messages: [{ role: "user", content: "find x" }, call("c1"), err("c1"), { role: "assistant", content: "  " }] },
      { id: "recovered", tools, messages: [{ role: "user", content: "find x" }, call("c1"), err("c1"), { role: "assistant", content: "Using grep instead." }] },
    ];
    writeFileSync(join(dir, "t.jsonl"), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const synth = (await collect([dir])).sessions;
    let asked = 0;
    const r = await collateSdpo(synth, { layer: "template", generate: () => (asked++, "Reminder: rg is not installed; use grep.") }, tok);
    expect(r.skipped).toEqual({ no_recovery: 1, empty_recovery: 1, no_hint: 0, generator_error: 0, cascade: 0, duplicate: 0 });
    expect(asked).toBe(1);
    expect(r.rows.map((x) => [x.session_id, x.completion])).toEqual([["recovered", "Using grep instead."]]);
  });
});

describe("DPO pairs", () => {
  const group = [
    { text: "a", reward: 0 },
    { text: "b", reward: 1 },
    { text: "c", reward: 0.2 },
    { text: "d", reward: 1 },
    { text: "e", reward: 0 },
  ];

  it("from a rollout group: each loser (worst first) against a top-reward winner, in turn, capped", () => {
    const pairs = dpoPairsFromGroup("task: fix it\n", group, tok, { group_id: "g" });
    expect(pairs.map((p) => [p.id, p.chosen, p.rejected, p.chosen_reward, p.rejected_reward])).toEqual([
      ["g:1>0", "b", "a", 1, 0],
      ["g:3>4", "d", "e", 1, 0],
      ["g:1>2", "b", "c", 1, 0.2],
    ]);
    for (const p of pairs) {
      DpoPair.parse(p);
      expect(p).toMatchObject({ source: "group", session_id: "g", prompt: "task: fix it\n", bos: BOS });
      expect(p.prompt_ids).toEqual([BOS, ...encode("task: fix it\n")]);
      expect(decode(p.chosen_ids)).toBe(p.chosen);
      expect(decode(p.rejected_ids)).toBe(p.rejected);
    }
    expect(dpoPairsFromGroup("task: fix it\n", group, tok, { group_id: "g" })).toEqual(pairs);
    expect(dpoPairsFromGroup("p", group, tok, { maxPairs: 2 }).map((p) => p.id)).toEqual(["group:1>0", "group:3>4"]);
    expect(dpoPairsFromGroup("p", group, tok, { margin: 0.9 }).map((p) => p.rejected)).toEqual(["a", "e"]);
    // nobody passed the threshold, nobody lost, or the only loser says the same thing
    expect(dpoPairsFromGroup("p", group.map((c) => ({ ...c, reward: c.reward * 0.4 })), tok)).toEqual([]);
    expect(dpoPairsFromGroup("p", [{ text: "x", reward: 1 }, { text: "y", reward: 1 }], tok)).toEqual([]);
    expect(dpoPairsFromGroup("p", [{ text: "x", reward: 1 }, { text: "x", reward: 0 }], tok)).toEqual([]);
    expect(dpoPairsFromGroup("p", [], tok)).toEqual([]);
  });

  it("from traces: the erroring action against the recovery that worked, with the context before the error", () => {
    const pairs = dpoPairsFromTraces(sessions, tok);
    expect(pairs.map((p) => [p.id, p.error_kind])).toEqual([
      ["toolz-curry-001:2>4", "tool_not_found"],
      ["toolz-curry-001:6>8", "malformed_args"],
      ["sorted-bisect-002:4>6", "file_not_found"],
      ["attrs-frozen-007:2>4", "file_not_found"],
      ["7f2c1e0a-0002-4c1e-9a51-inventory0002:7>9", "command_not_found"],
      // Claude Code refusing the call: a better call in the same state is the preference
      ["3c9e5b1d-2101-4b7e-8c1a-ledger000001:5>7", "edit_no_match"],
      ["3c9e5b1d-2102-4b7e-8c1a-ledger000002:1>3", "file_not_read"],
      ["3c9e5b1d-2102-4b7e-8c1a-ledger000002:9>11", "file_too_large"],
    ]);
    const rg = pairs[4]!;
    expect(rg.rejected).toBe(`→ Bash({"command":"rg -n 'def report' inventory"})`);
    expect(rg.chosen).toBe(`→ Grep({"pattern":"def report","path":"inventory"})`);
    expect(rg.prompt.endsWith("\n\nassistant: ")).toBe(true);
    expect(rg.prompt).not.toContain("rg -n");
    expect(rg.prompt).toContain("report_cli.py"); // the previous error is part of the context
    const malformed = pairs[1]!;
    expect(malformed.rejected).toContain("write_file({'path': 'toolz/functoolz.py'"); // the arguments as written
    for (const p of pairs) {
      expect(p).toMatchObject({ source: "trace", chosen_reward: null });
      expect(decode(p.prompt_ids)).toBe(p.prompt);
    }
    // outcome errors (failing tests, lint, runtime) pair only when asked for
    const all = dpoPairsFromTraces(sessions, tok, { kinds: ["failing_test", "tool_not_found", "malformed_args", "file_not_found", "command_not_found"] });
    expect(all.filter((p) => p.error_kind === "failing_test").map((p) => p.id)).toEqual([
      "jinja-filter-003:8>10", "jinja-filter-003:12>14",
      "7f2c1e0a-0003-4c1e-9a51-inventory0003:3>5",
      "7f2c1e0a-0003-4c1e-9a51-inventory0003:7>9", "7f2c1e0a-0003-4c1e-9a51-inventory0003:11>15",
    ]);
  });
});

describe("SFT rows", () => {
  it("loss on exactly the assistant responses (text and tool calls), nothing else", () => {
    const rows = sftRows(sessions, tok);
    expect(rows).toHaveLength(12); // every session's main chain (the subagent file has none)
    for (const row of rows) {
      SftRow.parse(row);
      const { session } = sessions.find((s) => s.session.id === row.session_id && s.session.file === row.file)!;
      const bodies = session.turns.filter((t) => t.chain === "main" && t.role === "assistant").map(assistantBody).filter(Boolean);
      expect(maskedRuns(row.ids, row.loss_mask)).toEqual(bodies);
      expect(row.ids[0]).toBe(BOS);
      expect(row.text).toBe(decode(row.ids));
      // what is not trained on: role headers, user text, tool results
      const context = decode(row.ids.filter((_, i) => row.loss_mask[i] === 0));
      expect(context).not.toMatch(/→/);
      for (const t of session.turns.filter((x) => x.chain === "main" && x.role === "user" && x.text)) expect(context).toContain(t.text.slice(0, 40));
    }
    const toolz = rows.find((r) => r.session_id === "toolz-curry-001")!;
    expect(maskedRuns(toolz.ids, toolz.loss_mask).slice(0, 2)).toEqual(['Opening the module.\n→ open_file({"path":"toolz/functoolz.py"})', '→ read_file({"path":"toolz/functoolz.py"})']);
  });

  it("onlyClean keeps chains that end without an unrecovered error; excludeFailed keeps mistakes as context", () => {
    const clean = sftRows(sessions, tok, { onlyClean: true });
    expect(clean.map((r) => r.session_id)).toEqual([
      "toolz-curry-001", "sorted-bisect-002", "lint-006", "7f2c1e0a-0001-4c1e-9a51-inventory0001", "7f2c1e0a-0003-4c1e-9a51-inventory0003",
      "3c9e5b1d-2101-4b7e-8c1a-ledger000001", "3c9e5b1d-2102-4b7e-8c1a-ledger000002",
    ]);
    const toolz = sftRows(sessions.filter((s) => s.session.id === "toolz-curry-001"), tok, { excludeFailed: true })[0]!;
    const runs = maskedRuns(toolz.ids, toolz.loss_mask);
    expect(runs[0]).toBe('→ read_file({"path":"toolz/functoolz.py"})');
    expect(runs.join("\n")).not.toContain("open_file");
    expect(runs.join("\n")).not.toContain("'path'"); // the malformed write
    expect(toolz.text).toContain("open_file"); // still in the context
    expect(sftRows(sessions, tok, { chains: ["sidechain"] }).map((r) => r.chain)).toEqual(["sidechain", "sidechain"]);
  });

  it("maxLen windows: each fits, has assistant tokens, and together they train every assistant token once", () => {
    const whole = sftRows(sessions, tok);
    const windows = sftRows(sessions, tok, { maxLen: 256 });
    expect(windows.length).toBeGreaterThan(whole.length);
    for (const w of windows) {
      expect(w.ids.length).toBeLessThanOrEqual(256);
      expect(w.ids[0]).toBe(BOS);
      expect(w.loss_mask).toContain(1);
    }
    for (const row of whole) {
      const mine = windows.filter((w) => w.session_id === row.session_id && w.file === row.file);
      expect(mine.map((w) => w.window)).toEqual(mine.map((_, i) => i));
      const trained = (r: { ids: number[]; loss_mask: number[] }) => r.ids.filter((_, i) => r.loss_mask[i] === 1);
      expect(mine.flatMap(trained)).toEqual(trained(row));
    }
  });

  it("from prompt/response pairs: loss on the response, prompt cut first when too long", () => {
    const [a, b] = sftRowsFromPairs([{ prompt: "2+2=", response: "4" }, { prompt: "x".repeat(100), response: "y".repeat(100) }], tok, { maxLen: 64 });
    expect(a!.ids).toEqual([BOS, ...encode("2+2="), ...encode("4")]);
    expect(a!.loss_mask).toEqual([0, 0, 0, 0, 0, 1]);
    expect(b!.ids).toHaveLength(64);
    expect(b!.ids[0]).toBe(BOS);
    expect(b!.loss_mask.filter((m) => m === 1)).toHaveLength(32);
    expect(maskedRuns(b!.ids, b!.loss_mask)).toEqual(["y".repeat(32)]);
    expect(sftRowsFromPairs([{ prompt: "p", response: "r" }], noBos)[0]!.ids).toEqual(encode("pr"));
  });
});

describe("batching and JSONL", () => {
  it("padBatch right-pads to the longest with mask 0", () => {
    const b = padBatch([{ ids: [5, 6, 7], mask: [0, 1, 1] }, { ids: [8], mask: [1] }], 0);
    expect(b).toEqual({ ids: [[5, 6, 7], [8, 0, 0]], mask: [[0, 1, 1], [1, 0, 0]], lengths: [3, 1] });
    expect(padBatch([], 0)).toEqual({ ids: [], mask: [], lengths: [] });
    expect(() => padBatch([{ ids: [1, 2], mask: [1] }], 0)).toThrow(/sequence 0 has 2 ids but 1 mask/);
  });

  it("round-trips rows and names file:line and field on a bad line", async () => {
    const { rows } = await collateSdpo(sessions, defaultLayered(), tok);
    const dir = tmp();
    const file = join(dir, "nested", "sdpo.jsonl");
    expect(await writeRows(file, rows, SdpoRow)).toBe(42);
    expect(await readRows(file, SdpoRow)).toEqual(rows);
    const sft = sftRows(sessions, tok, { maxLen: 128 });
    await writeRows(join(dir, "sft.jsonl"), sft);
    expect(await readRows(join(dir, "sft.jsonl"), SftRow)).toEqual(sft);

    const good = readFileSync(file, "utf8").split("\n")[0]!;
    const bad = JSON.stringify({ ...JSON.parse(good), completion_ids: "oops" });
    writeFileSync(join(dir, "bad.jsonl"), [good, "", bad, good].join("\n"));
    await expect(readRows(join(dir, "bad.jsonl"), SdpoRow)).rejects.toThrow(`${join(dir, "bad.jsonl")}:3: completion_ids: Expected array, received string`);
    writeFileSync(join(dir, "broken.jsonl"), `${good}\n{"id": "cut`);
    await expect(readRows(join(dir, "broken.jsonl"), SdpoRow)).rejects.toThrow(new RegExp(`broken\\.jsonl:2: malformed JSON`));
    const mismatched = { ...sft[0]!, loss_mask: [1] };
    writeFileSync(join(dir, "mask.jsonl"), JSON.stringify(mismatched) + "\n");
    await expect(readRows(join(dir, "mask.jsonl"), SftRow)).rejects.toThrow(/mask\.jsonl:1: loss_mask: ids and loss_mask differ in length/);
    await expect(writeRows(join(dir, "w.jsonl"), [{ ...rows[0]!, layer: "nope" }] as unknown as SdpoRow[], SdpoRow)).rejects.toThrow(/w\.jsonl: row 0: layer: Invalid enum value/);
  });
});

describe("streaming collate", () => {
  it("collateToFiles writes, session by session, exactly the rows of the in-memory functions", async () => {
    const dir = tmp();
    const files = { sdpo: join(dir, "sdpo.jsonl"), dpo: join(dir, "dpo.jsonl"), sft: join(dir, "sft.jsonl") };
    async function* stream() {
      for (const s of sessions) yield s;
    }
    let seen = 0;
    const c = await collateToFiles(stream(), defaultLayered(), tok, files, { sft: { maxLen: 256 }, onSession: (n) => (seen = n) });
    const mem = await collateSdpo(sessions, defaultLayered(), tok);
    expect(await readRows(files.sdpo, SdpoRow)).toEqual(mem.rows);
    expect(await readRows(files.dpo, DpoPair)).toEqual(dpoPairsFromTraces(sessions, tok));
    expect(await readRows(files.sft, SftRow)).toEqual(sftRows(sessions, tok, { maxLen: 256 }));
    // 12 sessions: the inventory subagent transcript folds into the session it names
    expect(c).toMatchObject({ sessions: 12, sites: 44, sdpo_rows: 42, dpo_pairs: 8, skipped: mem.skipped, by_layer: mem.byLayer });
    expect(seen).toBe(12);
  });

  it("parallel calls failing alike share one recovery turn: one SDPO row, no duplicate ids", async () => {
    const dir = tmp();
    const w = new ClaudeSessionWriter("parallel-dup", "/home/dev/p", undefined, "2.1.3");
    w.user("Read the two configs.");
    w.message({
      tools: [
        { name: "Read", input: { file_path: "/home/dev/p/a.toml" }, output: "<tool_use_error>File does not exist.</tool_use_error>", isError: true },
        { name: "Read", input: { file_path: "/home/dev/p/b.toml" }, output: "<tool_use_error>File does not exist.</tool_use_error>", isError: true },
      ],
    });
    w.message({ tools: [{ name: "Glob", input: { pattern: "**/*.toml" }, output: "/home/dev/p/conf/a.toml\n/home/dev/p/conf/b.toml" }] });
    writeFileSync(join(dir, "s.jsonl"), w.text());
    const synth = (await collect([dir])).sessions;
    expect(synth[0]!.sites.map((x) => [x.error_kind, x.turn_index])).toEqual([["file_not_found", 3], ["file_not_found", 3]]);
    const r = await collateSdpo(synth, defaultLayered(), tok);
    expect(r.rows.map((x) => x.id)).toEqual(["parallel-dup:3:file_not_found"]);
    expect(r.skipped.duplicate).toBe(1);
  });
});
