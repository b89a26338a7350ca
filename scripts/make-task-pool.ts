/**
 * Builds the bundled task pool datasets/tasks/ (run: npx tsx scripts/make-task-pool.ts). The three
 * inventory tasks are chosen by hand (the demo, notebooks and tests grade them); every task passes
 * the four validation gates in bubblewrap.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { getSandbox } from "../lib/sandbox/index.js";
import { buildDeletionTask } from "../lib/tasks/index.js";

const root = join(import.meta.dirname, "..");
const repo = join(root, "datasets", "repos", "inventory");
const pool = join(root, "datasets", "tasks");
rmSync(pool, { recursive: true, force: true });
const sandbox = await getSandbox("bwrap");
const specs = [
  { task_id: "inventory-reserve", deletions: [{ file: "inventory/stock.py", qualname: "Inventory.reserve" }], description: "Inventory.reserve(sku, qty) is missing: hold units for an order and raise OutOfStock when too few are available." },
  { task_id: "inventory-totals", deletions: [{ file: "inventory/report.py", qualname: "totals" }], description: "report.totals(inv) is missing: count SKUs and units and the mean units per SKU." },
  { task_id: "inventory-sniff", deletions: [{ file: "inventory/importer.py", qualname: "sniff_delimiter" }], description: "importer.sniff_delimiter(sample) is missing: tell ',', ';' and tab-separated CSV apart." },
];
for (const s of specs) {
  const t = await buildDeletionTask(repo, pool, { ...s, repo: "composer-lab/inventory" }, sandbox);
  console.log(`${t.task_id}: ${t.fail_to_pass.length} FAIL_TO_PASS, ${t.pass_to_pass.length} PASS_TO_PASS (${t.upstream_license})`);
}
