/**
 * `composer-lab tasks export harbor`: Harbor task folders from the bundled pool, checked the way Harbor
 * runs them — one task's environment/Dockerfile built with the lab's dockerd (offline: FROM the lab's
 * local base image via BASE_IMAGE), then tests/test.sh run in that image with tests/ at /tests and
 * /logs/verifier mounted: the broken repo scores 0, solution/solve.sh then the tests 1, and an agent
 * that rewrote the tests and planted a conftest.py that passes everything still 0 (the verifier puts
 * the tests back). task.toml is read back with Python's tomllib (an independent TOML reader).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_IMAGE, buildBaseImage, dockerClient, ensureDockerd } from "../lib/sandbox/index.js";
import { exportTasks } from "../lib/export/index.js";
import { loadTask } from "../lib/tasks/index.js";
import { ROOT, cli, oneJson, tmp } from "./helpers.js";

const POOL = join(ROOT, "datasets", "tasks");
let docker: ReturnType<typeof dockerClient>;
/** The export the first test writes (the second builds from it). */
let exported = "";

beforeAll(async () => {
  const d = await ensureDockerd({ log: (m) => console.error(m) });
  docker = dockerClient(d.socketPath);
  await buildBaseImage(docker, { log: (m) => console.error(m) });
}, 900_000);

/** Builds a folder's Dockerfile (the build context is the folder) → the tag. */
async function build(context: string, tag: string, buildargs: Record<string, string>): Promise<string> {
  const tar = spawn("tar", ["-C", context, "-c", "."], { stdio: ["ignore", "pipe", "ignore"] });
  const stream = (await docker.buildImage(tar.stdout as unknown as NodeJS.ReadableStream, { t: tag, buildargs })) as NodeJS.ReadableStream;
  const out = await new Promise<string>((res, rej) => {
    let body = "";
    stream.on("data", (d: Buffer) => (body += d.toString("utf8")));
    stream.on("end", () => res(body));
    stream.on("error", rej);
  });
  if (/"error"/.test(out)) throw new Error(`docker build failed: ${out.slice(-800)}`);
  return tag;
}

/** Runs `script` in a fresh container of `image` the way Harbor's verifier does; returns the reward files. */
async function trial(image: string, taskDir: string, script: string): Promise<{ reward: string; json: Record<string, number>; grade: Record<string, any>; exit: number; logs: string }> {
  const logs = tmp("harbor-logs-");
  const c = await docker.createContainer({
    Image: image, Cmd: ["bash", "-c", script], User: "root", WorkingDir: "/app",
    HostConfig: { NetworkMode: "none", Binds: [`${join(taskDir, "tests")}:/tests:ro`, `${join(taskDir, "solution")}:/solution:ro`, `${logs}:/logs/verifier`] },
  });
  try {
    await c.start();
    const { StatusCode } = (await c.wait()) as { StatusCode: number };
    const reward = existsSync(join(logs, "reward.txt")) ? readFileSync(join(logs, "reward.txt"), "utf8").trim() : "(none)";
    const output = ((await c.logs({ stdout: true, stderr: true })) as Buffer).toString("utf8");
    if (reward === "(none)") console.error(output);
    return { reward, json: JSON.parse(readFileSync(join(logs, "reward.json"), "utf8")), grade: JSON.parse(readFileSync(join(logs, "grade.json"), "utf8")), exit: StatusCode, logs: output };
  } finally {
    await c.remove({ force: true });
  }
}

describe("tasks export harbor", () => {
  it("writes Harbor's layout per task; task.toml reads back with tomllib; no golden code outside solution/", () => {
    const out = (exported = tmp("harbor-"));
    const r = cli(["tasks", "export", "harbor", POOL, "--out", out, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const j = oneJson(r.stdout);
    expect(j).toMatchObject({ ok: true, format: "harbor", exported: 3, excluded_copyleft: 0 });
    const task = loadTask(POOL, "inventory-reserve");
    const dir = join(out, "inventory-reserve");
    for (const f of ["instruction.md", "task.toml", "environment/Dockerfile", "tests/test.sh", "tests/spec.json", "solution/solve.sh", "solution/golden.diff"]) expect(existsSync(join(dir, f)), f).toBe(true);
    const toml = spawnSync("/usr/bin/python3", ["-c", "import sys, tomllib, json; print(json.dumps(tomllib.load(open(sys.argv[1], 'rb'))))", join(dir, "task.toml")], { encoding: "utf8" });
    expect(toml.status, toml.stderr).toBe(0);
    const conf = JSON.parse(toml.stdout);
    expect(conf.version).toBe("1.0");
    expect(conf.metadata).toMatchObject({ task_id: "inventory-reserve", upstream_license: "MIT", category: "programming" });
    expect(conf.verifier.timeout_sec).toBeGreaterThan(0);
    expect(conf.agent.timeout_sec).toBeGreaterThan(0);
    expect(conf.environment).toMatchObject({ cpus: 1, memory_mb: 2048 });
    const instruction = readFileSync(join(dir, "instruction.md"), "utf8");
    for (const t of task.fail_to_pass) expect(instruction).toContain(t);
    // the golden body is in solution/ only: not in the instruction, the image's repo or the tests
    expect(instruction).not.toContain("return free - qty");
    expect(readFileSync(join(dir, "environment/repo/inventory/stock.py"), "utf8")).not.toContain("return free - qty");
    expect(readFileSync(join(dir, "solution/files/inventory/stock.py"), "utf8")).toContain("return free - qty");
    expect(readFileSync(join(dir, "solution/golden.diff"), "utf8")).toBe(task.golden_diff);
    // jsonl is the other entry of the same registry (what `tasks export POOL --out FILE` writes)
    const file = join(out, "pool.jsonl");
    expect(exportTasks(POOL, "jsonl", file)).toMatchObject({ format: "jsonl", exported: 3 });
    expect(readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l).task_id)).toEqual(["inventory-reserve", "inventory-totals", "inventory-sniff"]);
    expect(() => exportTasks(POOL, "tarball", out)).toThrow(/unknown export format 'tarball' \(one of jsonl, harbor\)/);
  });

  it("one task's image, built by dockerd: the broken repo scores 0, solve.sh then the tests 1, rewritten tests and a planted conftest 0", async () => {
    expect(exported).not.toBe("");
    const dir = join(exported, "inventory-reserve");
    const image = await build(join(dir, "environment"), "composer-lab/harbor-test:inventory-reserve", { BASE_IMAGE: DEFAULT_IMAGE });
    const task = loadTask(POOL, "inventory-reserve");
    try {
      const broken = await trial(image, dir, "bash /tests/test.sh");
      expect(broken.reward).toBe("0");
      expect(broken.json).toEqual({ reward: 0, frac: 0, guard_ok: 1 });
      expect(Object.values(broken.grade.per_test).filter((o) => o === "passed").length).toBe(task.pass_to_pass.length);

      const golden = await trial(image, dir, "bash /solution/solve.sh && bash /tests/test.sh");
      expect(golden.reward).toBe("1");
      expect(golden.json).toEqual({ reward: 1, frac: 1, guard_ok: 1 });
      expect(Object.keys(golden.grade.per_test).length).toBe(task.fail_to_pass.length + task.pass_to_pass.length);

      // an agent that cannot solve it games the tests: the verifier puts them back and removes the conftest
      const hack = [
        "printf 'def test_reserve_reduces_available():\\n    pass\\n' > tests/test_stock.py",
        "rm -f tests/test_more.py",
        "printf 'import pytest\\n@pytest.hookimpl(hookwrapper=True)\\ndef pytest_runtest_makereport(item, call):\\n    o = yield\\n    r = o.get_result()\\n    r.outcome = \"passed\"\\n' > conftest.py",
        "python3 -m pytest -q -p no:cacheprovider tests/test_stock.py > /dev/null && echo gamed",
        "bash /tests/test.sh",
      ].join(" && ");
      const gamed = await trial(image, dir, hack);
      expect(gamed.logs).toContain("gamed"); // the planted conftest did fool pytest on the agent's side
      expect(gamed.reward).toBe("0");
      expect(gamed.json.frac).toBe(0);
    } finally {
      await docker.getImage(image).remove({ force: true }).catch(() => {});
    }
  });
});
