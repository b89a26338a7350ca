/**
 * The world-model fixture store: one real OUTER round (lib/outer runOuter) over the first N bundled
 * micro tasks, graded in the sandbox, written to datasets/fd-micro/wm-store (run wm-r0). The models:
 * the two fd-micro SFT students served by lib/serve (steps 75 and 150, greedy), the step-150 student
 * sampled at temperature 1, and the reference policy (so trees have winners as well as failures).
 * Its wm_tuples are what test/world-model.test.ts trains the head on and what the evaluation in
 * docs/world-model.md reads.
 *   npx tsx scripts/make-wm-fixture.ts [N=24] [OUT=datasets/fd-micro/wm-store]
 */
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { initBackend } from "../lib/backend/index.js";
import { datasetsDir } from "../lib/core/index.js";
import { ModelClient, runOuter, serveReference } from "../lib/outer/index.js";
import { getSandbox } from "../lib/sandbox/index.js";
import { serve } from "../lib/serve/index.js";
import { openStore } from "../lib/store/index.js";

const n = Number(process.argv[2] ?? 24);
const out = process.argv[3] ?? datasetsDir("fd-micro", "wm-store");
const pool = datasetsDir("fd-micro", "pool");
const ckpts = datasetsDir("train", "fd-micro-sft");
await initBackend();
rmSync(out, { recursive: true, force: true });
const a = await serve({ checkpoint: join(ckpts, "ckpt_000075"), name: "fd-micro-sft-75", stop: ["\n\n"], tool_prompt: "ignore", port: 0 });
const b = await serve({ checkpoint: join(ckpts, "ckpt_000150"), name: "fd-micro-sft-150", stop: ["\n\n"], tool_prompt: "ignore", port: 0 });
const ref = await serveReference(pool);
const models = [
  new ModelClient({ url: a.baseURL, max_tokens: 64 }),
  new ModelClient({ url: b.baseURL, max_tokens: 64 }),
  new ModelClient({ url: b.baseURL, max_tokens: 64, temperature: 1, label: "fd-micro-sft-150@t1" }),
  new ModelClient({ url: ref.url, max_tokens: 64 }),
];
const summary = await runOuter({ pool, models, store: openStore(out), run_id: "wm-r0", sandbox: await getSandbox("auto"), limit: n, budget: { depth: 2, width: 4, nodes: 10 }, holdout: { fraction: 0, seed: 0 }, quiet: true });
await Promise.all([a.close(), b.close(), ref.close()]);
// the fixture is the wm_tuples section: the journal, the traces and the other prefixes are left out
for (const d of readdirSync(join(out, "runs", "wm-r0"))) if (d !== "wm_tuples") rmSync(join(out, "runs", "wm-r0", d), { recursive: true, force: true });
console.log(JSON.stringify({ out, tasks: summary.tasks, nodes: summary.nodes, graded: summary.graded, passed: summary.passed, counts: summary.counts, seconds: summary.seconds }));
