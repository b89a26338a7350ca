/**
 * TRL datasets from a store run and a collate output, each checked by readers other than the
 * writer: pandas reads the JSONL, hyparquet (a JavaScript Parquet reader independent of the
 * arrow-rs writer in parquet-wasm) reads the Parquet; the columns are TRL's documented names.
 */
import { spawnSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parquetReadObjects } from "hyparquet";
import { describe, expect, it } from "vitest";
import { HeldoutSplit, openStore, RunLayout } from "../lib/store/index.js";
import { cli, oneJson, ROOT, tmp } from "./helpers.js";

const readJsonl = (f: string) => readFileSync(f, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, any>);
/** The JSONL rows with every optional message field present (null when absent), as the Parquet columns hold them. */
const filled = (rows: Record<string, any>[]) =>
  rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Array.isArray(v) && v.length && typeof v[0] === "object" ? v.map((m: any) => ({ role: m.role, content: m.content, tool_calls: m.tool_calls ?? null, tool_call_id: m.tool_call_id ?? null, name: m.name ?? null })) : v])));

describe("composer-lab export trl", () => {
  it("writes sft, dpo, grpo and sdpo in TRL's formats, JSONL and Parquet agreeing, read by pandas and hyparquet", async () => {
    const dir = tmp("trl-");
    const store = join(dir, "store");
    cpSync(join(ROOT, "datasets", "fd-micro", "store"), store, { recursive: true });
    cpSync(join(ROOT, "datasets", "fd-micro", "pool"), join(dir, "pool"), { recursive: true }); // the entries name it as ../pool
    // the bundled run has no dpo_pairs: add two, one with a tool call in its state
    const run = new RunLayout(openStore(store), "micro-s0", new HeldoutSplit(0));
    const w = run.writer("dpo_pairs");
    await w.add({ id: "p1", task_id: "t1", state_messages: [{ role: "user", content: "fix count_5" }], chosen: "return 5", rejected: "return 4", source: "tree", round: 0, node_id: "n1", chosen_models: ["a"] });
    await w.add({ id: "p2", state_messages: [{ role: "user", content: "go" }, { role: "assistant", content: "", tool_calls: [{ id: "c1", type: "function", function: { name: "read_file", arguments: "{\"path\":\"a.py\"}" } }] }, { role: "tool", content: "x = 1", tool_call_id: "c1", name: "read_file" }], chosen: "ok", rejected: "bad", source: "teacher_replay" });
    await run.flushAll();
    const collated = join(dir, "collated");
    expect(cli(["collate", join(ROOT, "datasets", "agent-traces", "claude-subagents"), "--out", collated, "--json"]).code).toBe(0);
    const out = join(dir, "trl");
    const r = cli(["export", "trl", "--store", store, "--run", "micro-s0", "--collated", collated, "--out", out, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const res = oneJson(r.stdout);
    // counted off the raw shards, not through the store's reader
    const shardDir = join(store, "runs", "micro-s0", "sft_corpus");
    const sftItems = readdirSync(shardDir).filter((f) => f.endsWith(".jsonl")).reduce((n, f) => n + readJsonl(join(shardDir, f)).length, 0);
    expect(res.rows).toEqual({ sft: sftItems, dpo: 2, grpo: 33, sdpo: 5 });

    // TRL's column names and conversational shapes
    const sft = readJsonl(join(out, "sft", "train.jsonl"));
    expect(Object.keys(sft[0]!)).toContain("messages");
    expect(sft.every((x) => x.messages.every((m: any) => typeof m.role === "string" && typeof m.content === "string") && x.hack_verdict === "clean")).toBe(true);
    const dpo = readJsonl(join(out, "dpo", "train.jsonl"));
    expect(dpo.map((x) => [x.prompt.length, x.chosen[0].role, x.rejected[0].content])).toEqual([[1, "assistant", "return 4"], [3, "assistant", "bad"]]);
    expect(dpo[1]!.prompt[1].tool_calls[0].function.name).toBe("read_file");
    expect("tool_calls" in dpo[0]!.prompt[0]).toBe(false); // absent, not null, in JSONL
    const grpo = readJsonl(join(out, "grpo", "train.jsonl"));
    expect(grpo.every((x) => x.prompt[0].role === "user" && x.prompt[0].content.includes(x.task_id.split("-").pop().split(".").pop()) && typeof x.pool_ref === "string")).toBe(true);
    const sdpo = readJsonl(join(out, "sdpo", "train.jsonl"));
    expect(sdpo.every((x) => x.privileged_context.length > 0 && x.prompt[0].role === "user" && x.completion[0].role === "assistant")).toBe(true);
    // the student never sees the hint
    expect(sdpo.every((x) => !x.prompt[0].content.includes(x.privileged_context))).toBe(true);

    // Parquet (hyparquet) holds the same rows as the JSONL
    for (const name of ["sft", "dpo", "grpo", "sdpo"]) {
      const buf = readFileSync(join(out, name, "train.parquet"));
      const rows = await parquetReadObjects({ file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer });
      expect(JSON.parse(JSON.stringify(rows)), name).toEqual(filled(readJsonl(join(out, name, "train.jsonl"))));
    }

    // pandas reads the JSONL: row counts, column names, the first message's fields
    const py = spawnSync("/usr/bin/python3", ["-c", `
import json, sys, pandas as pd
out = {}
for name in ["sft", "dpo", "grpo", "sdpo"]:
    df = pd.read_json(sys.argv[1] + "/" + name + "/train.jsonl", lines=True)
    col = "messages" if name == "sft" else "prompt"
    out[name] = {"rows": len(df), "columns": list(df.columns), "first": sorted(df[col].iloc[0][0].keys())}
print(json.dumps(out))
`, out], { encoding: "utf8" });
    expect(py.status, py.stderr).toBe(0);
    const pd = JSON.parse(py.stdout);
    expect(pd.sft.rows).toBe(sftItems);
    expect(pd.dpo.columns).toEqual(expect.arrayContaining(["prompt", "chosen", "rejected"]));
    expect(pd.grpo.columns).toEqual(expect.arrayContaining(["prompt", "task_id", "pool_ref"]));
    expect(pd.sdpo.columns).toEqual(expect.arrayContaining(["prompt", "completion", "privileged_context"]));
    expect(pd.sft.first).toEqual(["content", "role"]);

    // the card's configs name the Parquet files that exist
    const card = readFileSync(join(out, "README.md"), "utf8");
    const configs = [...card.matchAll(/config_name: (\w+)\n  data_files:\n  - split: train\n    path: (\S+)/g)].map((m) => [m[1], m[2]]);
    expect(configs).toEqual([["sft", "sft/train.parquet"], ["dpo", "dpo/train.parquet"], ["grpo", "grpo/train.parquet"], ["sdpo", "sdpo/train.parquet"]]);
  });

  it("names what is wrong: no such run, nothing to export", () => {
    const r = cli(["export", "trl", "--store", join(ROOT, "datasets", "fd-micro", "store"), "--run", "no-such-run", "--out", tmp("trl-"), "--json"]);
    expect(r.code).not.toBe(0);
    expect(oneJson(r.stdout).error).toMatch(/runs\/no-such-run has no items/);
    const r2 = cli(["export", "trl", "--out", tmp("trl-"), "--json"]);
    expect(oneJson(r2.stdout).error).toMatch(/give --store and --run/);
  });
});
