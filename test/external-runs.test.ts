/**
 * loadRun (lib/train/external.ts) on real runs: test/fixtures/external-runs holds a TRL SDPOTrainer run
 * (event file from torch's SummaryWriter: simple_value scalars) and a TRL GRPOTrainer run (event file
 * from tensorboard.summary.Writer: TensorBoard 2 tensor scalars), each with its trainer_state.json, and
 * expected.json: what TensorBoard's own EventAccumulator read back from those event files when
 * test/fixtures/make_external_runs.py made them. A lab run is trained here (tiny, real tfjs).
 */
import { readFileSync, writeFileSync, mkdirSync, copyFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { initBackend } from "../lib/backend/index.js";
import {
  Trainer, crc32c, loadRun, loadRuns, maskedCrc32c, readEventFile, readTrainerState, runFigures, type RunRow, type TrainConfigInput,
} from "../lib/train/index.js";
import { ROOT, cli, oneJson, tmp } from "./helpers.js";

const FIX = join(ROOT, "test", "fixtures", "external-runs");
type Point = [number, number, number];
interface Expected { produced_with: Record<string, string | number>; files: Record<string, { scalars: Record<string, Point[]>; tensors: Record<string, Point[]>; other_tags: string[] }> }
const expected = JSON.parse(readFileSync(join(FIX, "expected.json"), "utf8")) as Expected;
const eventFile = (run: string) => join(FIX, run, readdirSync(join(FIX, run)).find((f) => f.startsWith("events.out.tfevents."))!);
const rowsOf = (t: ReturnType<typeof loadRun>) => t.objects() as unknown as RunRow[];

describe("CRC32C", () => {
  it("matches the standard check value and TFRecord's mask", () => {
    expect(crc32c(new TextEncoder().encode("123456789"))).toBe(0xe3069283);
    expect(crc32c(new Uint8Array(32))).toBe(0x8a9136aa); // RFC 3720 B.4: 32 bytes of zeros
    const c = crc32c(new Uint8Array([1, 2, 3]));
    expect(maskedCrc32c(new Uint8Array([1, 2, 3]))).toBe(((((c >>> 15) | (c << 17)) >>> 0) + 0xa282ead8) >>> 0);
  });
});

describe("TensorBoard event files against TensorBoard's EventAccumulator", () => {
  it.each(Object.keys(expected.files))("%s", (name) => {
    expect(Object.keys(expected.files)).toHaveLength(3);
    const e = expected.files[name]!;
    const r = readEventFile(join(FIX, name));
    expect(r.fileVersion).toBe("brain.Event:2");
    const want = { ...e.scalars, ...e.tensors };
    const byTag = new Map<string, Point[]>();
    for (const s of r.scalars) {
      if (!byTag.has(s.tag)) byTag.set(s.tag, []);
      byTag.get(s.tag)!.push([s.step, s.wall_time, s.value]);
    }
    expect([...byTag.keys()].sort()).toEqual(Object.keys(want).sort());
    for (const [tag, pts] of Object.entries(want)) expect(byTag.get(tag), tag).toEqual(pts);
    // the two writers: torch's SummaryWriter (simple_value) and tensorboard.summary.Writer (tensors)
    const forms = [...(Object.keys(e.scalars).length ? ["simple_value"] : []), ...(Object.keys(e.tensors).length ? ["tensor"] : [])];
    expect(new Set(r.scalars.map((s) => s.form))).toEqual(new Set(forms));
    for (const tag of Object.keys(e.tensors)) expect(r.scalars.filter((s) => s.tag === tag).every((s) => s.form === "tensor"), tag).toBe(true);
    expect(r.otherTags).toEqual(e.other_tags);
  });

  it("the fixtures cover both scalar forms and TRL's self-distillation metrics", () => {
    const runs = Object.entries(expected.files).filter(([k]) => !k.startsWith("encodings/"));
    expect(runs.map(([, e]) => (Object.keys(e.tensors).length ? "tensor" : "simple_value")).sort()).toEqual(["simple_value", "tensor"]);
    // the re-encoded file: each tensor form a writer uses, read back by TensorBoard
    const enc = Object.entries(expected.files).find(([k]) => k.startsWith("encodings/"))![1];
    expect(Object.keys(enc.tensors).sort()).toEqual(["data_class_only/kl", "f16_half_val/reward", "f32_content/reward", "f64_content/reward", "f64_double_val/reward", "i64_content/num_tokens", "i64_int64_val/num_tokens"]);
    expect(enc.tensors["f16_half_val/reward"]!.map((p) => p[2])).not.toEqual(enc.tensors["f64_double_val/reward"]!.map((p) => p[2])); // half is lossy: the reader must decode it, not guess
    const sdpo = Object.entries(expected.files).find(([k]) => k.startsWith("sdpo/"))![1];
    expect(Object.keys(sdpo.scalars)).toContain("train/self_distillation/success_group_fraction");
    expect(sdpo.other_tags).toEqual(["args/text_summary", "model_config/text_summary"]); // transformers' text summaries, skipped
  });
});

describe("trainer_state.json", () => {
  it.each(["sdpo", "grpo"])("%s: log_history agrees with the run's event file (float32 there)", (run) => {
    const st = readTrainerState(join(FIX, run, "trainer_state.json"));
    expect(st.global_step).toBe(expected.produced_with.steps);
    const tb = readEventFile(eventFile(run)).scalars;
    let compared = 0;
    for (const entry of st.log_history) {
      for (const [k, v] of Object.entries(entry)) {
        if (k === "step" || typeof v !== "number") continue;
        const hits = tb.filter((s) => s.tag === `train/${k}` && s.step === entry.step);
        expect(hits.length, `${k} at ${entry.step}`).toBeGreaterThan(0);
        expect(hits.map((h) => h.value), `${k} at ${entry.step}`).toContain(Math.fround(v));
        compared++;
      }
    }
    expect(compared).toBe(tb.length);
  });

  it("a file of another shape is refused, naming the file, the line and the field", () => {
    const dir = tmp();
    const bad = (name: string, text: string) => { const p = join(dir, name); writeFileSync(p, text); return p; };
    expect(() => readTrainerState(bad("a.json", JSON.stringify({ history: [] }, null, 1)))).toThrow(/a\.json is not a trainer_state\.json[\s\S]*a\.json:1: log_history: Required/);
    const st = JSON.parse(readFileSync(join(FIX, "sdpo", "trainer_state.json"), "utf8"));
    st.log_history[2].step = "three";
    const p = bad("b.json", JSON.stringify(st, null, 2));
    const line = readFileSync(p, "utf8").split("\n").findIndex((l) => l.includes('"three"')) + 1;
    expect(() => readTrainerState(p)).toThrow(new RegExp(`b\\.json:${line}: log_history\\.2\\.step: Expected number`));
    st.log_history[2].step = 3;
    st.log_history[1].loss = { nested: 1 };
    expect(() => readTrainerState(bad("c.json", JSON.stringify(st, null, 2)))).toThrow(/c\.json:\d+: log_history\.1\.loss/);
    expect(() => readTrainerState(bad("d.json", '{\n "log_history": [\n  {"step": 1,}\n ]\n}'))).toThrow(/d\.json:3: not valid JSON/);
  });
});

describe("corrupt and truncated event files", () => {
  const copy = () => { const p = join(tmp(), "events.out.tfevents.1.test"); copyFileSync(eventFile("sdpo"), p); return p; };
  it("a flipped data byte fails the data CRC, naming the file, record and offset", () => {
    const p = copy();
    const b = readFileSync(p);
    const len0 = Number(b.readBigUInt64LE(0));
    const rec1 = 12 + len0 + 4; // record 1 starts here
    b[rec1 + 12 + 3]! ^= 0x40;
    writeFileSync(p, b);
    expect(() => readEventFile(p)).toThrow(new RegExp(`events\\.out\\.tfevents\\.1\\.test: record 1 at byte ${rec1}: data CRC mismatch`));
  });
  it("a changed length fails the length CRC", () => {
    const p = copy();
    const b = readFileSync(p);
    b[0] = b[0]! + 1;
    writeFileSync(p, b);
    expect(() => readEventFile(p)).toThrow(/record 0 at byte 0: length CRC mismatch/);
  });
  it("a file cut inside a record or its header says truncated", () => {
    const p = copy();
    const b = readFileSync(p);
    writeFileSync(p, b.subarray(0, b.length - 5));
    expect(() => readEventFile(p)).toThrow(/record \d+ at byte \d+: truncated \(the record says \d+ data bytes/);
    const len0 = Number(b.readBigUInt64LE(0));
    writeFileSync(p, b.subarray(0, 12 + len0 + 4 + 7));
    expect(() => readEventFile(p)).toThrow(new RegExp(`record 1 at byte ${12 + len0 + 4}: truncated \\(a record header is 12 bytes, 7 left\\)`));
  });
  it("valid framing around bytes that are not an Event is named as such", () => {
    const p = join(tmp(), "events.out.tfevents.2.test");
    const data = new Uint8Array([0x0a, 0xff, 0xff, 0xff]); // field 1 with wire type 2 where a double belongs, and a runaway length
    const head = Buffer.alloc(12);
    head.writeBigUInt64LE(BigInt(data.length));
    head.writeUInt32LE(maskedCrc32c(head.subarray(0, 8)), 8);
    const tail = Buffer.alloc(4);
    tail.writeUInt32LE(maskedCrc32c(data));
    writeFileSync(p, Buffer.concat([head, data, tail]));
    expect(() => readEventFile(p)).toThrow(/events\.out\.tfevents\.2\.test: record 0 at byte 0: not a tensorflow\.Event protobuf/);
  });
});

describe("loadRun", () => {
  let labDir = "";
  beforeAll(async () => {
    await initBackend();
    labDir = join(tmp(), "lab-toy");
    mkdirSync(labDir);
    const cfg: TrainConfigInput = {
      model: { block_size: 256, n_layer: 1, n_head: 2, n_embd: 16 }, env: { n_tasks: 12 }, sft: { steps: 1, batch_size: 2 },
      rl: { steps: 2, prompts_per_step: 2, num_generations: 2, max_completion_length: 8, beta: 0.05 }, loss_weights: { grpo: 1, sdpo: 1, dpo: 0 },
      heldout: { every: 0, n_tasks: 2 }, checkpoint: { every: 0, keep: 1 },
    };
    await new Trainer(cfg, { run_dir: labDir }).train();
  }, 120_000);

  it("a TRL output folder: trainer_state and tensorboard rows, names normalized", () => {
    const t = loadRun(join(FIX, "sdpo"));
    expect(t.columnNames()).toEqual(["run", "source", "step", "metric", "value", "wall_time", "tag"]);
    const rows = rowsOf(t);
    expect(new Set(rows.map((r) => r.run))).toEqual(new Set(["sdpo"]));
    const bySource = (s: string) => rows.filter((r) => r.source === s);
    const sdpoExpected = expected.files[Object.keys(expected.files).find((k) => k.startsWith("sdpo/"))!]!;
    expect(bySource("tensorboard").length).toBe(Object.values(sdpoExpected.scalars).flat().length);
    for (const m of ["reward", "distillation_loss", "success_group_fraction", "feedback_used_fraction", "loss"]) {
      for (const s of ["trainer_state", "tensorboard"]) expect(bySource(s).filter((r) => r.metric === m).map((r) => r.step), `${s} ${m}`).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    }
    const rew = bySource("tensorboard").filter((r) => r.metric === "reward");
    expect(rew[0]!.tag).toBe("train/self_distillation/reward_mean");
    expect(rew.map((r) => r.value)).toEqual(sdpoExpected.scalars["train/self_distillation/reward_mean"]!.map((p) => p[2]));
    expect(bySource("trainer_state").every((r) => r.wall_time === null)).toBe(true);
    expect(bySource("tensorboard").every((r) => typeof r.wall_time === "number" && r.wall_time > 1.7e9)).toBe(true);
  });

  it("GRPO's reward and kl; a name map on top; names: false keeps the tags", () => {
    const g = rowsOf(loadRun(join(FIX, "grpo"), { sources: ["tensorboard"] }));
    expect(new Set(g.map((r) => r.source))).toEqual(new Set(["tensorboard"]));
    expect(g.filter((r) => r.metric === "kl").map((r) => r.tag)).toEqual(Array(8).fill("train/kl"));
    expect(g.filter((r) => r.metric === "reward").length).toBe(8);
    const mapped = rowsOf(loadRun(join(FIX, "grpo", "trainer_state.json"), { names: { frac_reward_zero_std: "flat_groups" } }));
    expect(mapped.filter((r) => r.metric === "flat_groups").length).toBe(8);
    expect(new Set(mapped.map((r) => r.run))).toEqual(new Set(["grpo"]));
    const raw = rowsOf(loadRun(join(FIX, "sdpo"), { names: false, sources: ["tensorboard"] }));
    expect(raw.some((r) => r.metric === "reward")).toBe(false);
    expect(raw.filter((r) => r.metric === "self_distillation/reward_mean").length).toBe(8); // train/ prefix dropped
  });

  it("the lab's metrics.jsonl joins the same vocabulary, and runFigures plots runs side by side", () => {
    const t = loadRuns({ trl_sdpo: join(FIX, "sdpo"), trl_grpo: join(FIX, "grpo"), lab: labDir }, { sources: ["trainer_state", "lab"] });
    const rows = rowsOf(t);
    const lab = rows.filter((r) => r.run === "lab");
    expect(new Set(lab.map((r) => r.source))).toEqual(new Set(["lab"]));
    const labMs = readFileSync(join(labDir, "metrics.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const rl = labMs.filter((m) => m.phase === "rl");
    expect(lab.filter((r) => r.metric === "reward").map((r) => [r.step, r.value])).toEqual(rl.map((m) => [m.step, m.reward_mean]));
    expect(lab.filter((r) => r.metric === "kl").map((r) => r.value)).toEqual(rl.map((m) => m.kl));
    expect(lab.filter((r) => r.metric === "distillation_loss").map((r) => r.value)).toEqual(rl.map((m) => m.loss_sdpo));
    expect(lab.filter((r) => r.metric === "loss").length).toBe(labMs.length);
    const figs = runFigures(t, ["reward", "kl", "distillation_loss", "success_group_fraction", "no_such_metric"]);
    expect(figs).toHaveLength(4);
    expect(figs[0]!.data.map((d) => d.name)).toEqual(["trl_sdpo (trainer_state)", "trl_grpo (trainer_state)", "lab (lab)"]);
    expect(figs[1]!.data.map((d) => d.name)).toEqual(["trl_grpo (trainer_state)", "lab (lab)"]); // SDPO ran with beta 0: no kl
    const colours = figs[0]!.data.map((d) => (d.line as { color: string }).color);
    expect(new Set(colours).size).toBe(3);
    expect(figs.every((f) => f.layout.showlegend === true)).toBe(true);
    // a run keeps its colour in every figure, also where another run is missing
    const colourOf = (f: (typeof figs)[number], name: string) => (f.data.find((d) => d.name === name)!.line as { color: string }).color;
    expect(colourOf(figs[1]!, "lab (lab)")).toBe(colourOf(figs[0]!, "lab (lab)"));
  });

  it("bad input names the path, the file and the line", () => {
    const dir = tmp();
    expect(() => loadRun(join(dir, "nope"))).toThrow(/nope: no such file or folder/);
    expect(() => loadRun(dir)).toThrow(/no trainer_state\.json, TensorBoard event file or metrics\.jsonl/);
    const m = join(dir, "metrics.jsonl");
    writeFileSync(m, readFileSync(join(labDir, "metrics.jsonl"), "utf8") + '{"step": 99, "phase": "rl"}\n');
    const n = readFileSync(m, "utf8").trim().split("\n").length;
    expect(() => loadRun(dir)).toThrow(new RegExp(`metrics\\.jsonl:${n}: rollouts: Required`));
    writeFileSync(m, "{not json\n");
    expect(() => loadRun(m)).toThrow(/metrics\.jsonl:1: not valid JSON/);
  });
});

describe("loadRun on a folder of several runs", () => {
  it("each folder of event files is a run (TensorBoard's rule); one folder is the run itself", () => {
    const root = join(tmp(), "sweep");
    for (const [sub, src] of [["a/logs", "sdpo"], ["b", "grpo"]] as const) {
      mkdirSync(join(root, sub), { recursive: true });
      copyFileSync(eventFile(src), join(root, sub, "events.out.tfevents.1.x"));
    }
    const rows = rowsOf(loadRun(root));
    expect([...new Set(rows.map((r) => r.run))].sort()).toEqual(["sweep/a/logs", "sweep/b"]);
    expect(rows.filter((r) => r.run === "sweep/b" && r.metric === "kl").length).toBe(8);
    expect(new Set(rowsOf(loadRun(join(root, "a"))).map((r) => r.run))).toEqual(new Set(["a"]));
  });
});

describe("composer-lab runs", () => {
  it("prints what each run holds and the chosen metrics' rows as one JSON object; writes the plots; bad input fails naming it", () => {
    const html = join(tmp(), "runs.html");
    const r = cli(["runs", `TRL SDPO=${join(FIX, "sdpo")}`, join(FIX, "grpo", "trainer_state.json"), "--sources", "tensorboard,trainer_state", "--metric", "reward,kl,rewrd", "--html", html, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const out = oneJson(r.stdout);
    expect(out.ok).toBe(true);
    expect(out.runs.map((x: { run: string; source: string }) => `${x.run}/${x.source}`)).toEqual(["TRL SDPO/tensorboard", "TRL SDPO/trainer_state", "grpo/trainer_state"]);
    expect(out.rows.filter((x: RunRow) => x.run === "grpo" && x.metric === "kl")).toHaveLength(8);
    expect(out.rows.filter((x: RunRow) => x.run === "TRL SDPO" && x.metric === "reward")).toHaveLength(16);
    expect(out.missing_metrics).toEqual(["rewrd"]);
    expect(readFileSync(html, "utf8")).toContain("TRL SDPO (tensorboard)");
    const bad = cli(["runs", join(FIX, "sdpo"), "--sources", "tensorbord", "--json"]);
    expect(bad.code).toBe(1);
    expect(oneJson(bad.stdout)).toEqual({ ok: false, error: '--sources: unknown source "tensorbord" (known: trainer_state, tensorboard, lab)' });
  });
});

describe("loadRun on TRL checkpoints", () => {
  it("of several checkpoint-N/trainer_state.json the longest is read; a top-level one wins", () => {
    const out = join(tmp(), "trl-out");
    const st = JSON.parse(readFileSync(join(FIX, "sdpo", "trainer_state.json"), "utf8"));
    const at4 = { ...st, global_step: 4, log_history: st.log_history.filter((e: { step: number }) => e.step <= 4) };
    for (const [dir, s] of [["checkpoint-4", at4], ["checkpoint-8", st]] as const) {
      mkdirSync(join(out, dir), { recursive: true });
      writeFileSync(join(out, dir, "trainer_state.json"), JSON.stringify(s));
    }
    const steps = (p: string) => Math.max(...rowsOf(loadRun(p)).map((r) => r.step));
    expect(steps(out)).toBe(8);
    writeFileSync(join(out, "trainer_state.json"), JSON.stringify(at4));
    expect(steps(out)).toBe(4);
  });
});
