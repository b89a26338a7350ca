/**
 * `composer-lab k8s manifests`: Indexed Job manifests for grading a pool or running DiLoCo ranks on
 * Kubernetes (written and checked offline; nothing is applied). `k8s-task` is the grading pod's
 * command: it grades task JOB_COMPLETION_INDEX of the list and writes the grade to the store.
 */
import type { Command } from "commander";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { readTextGuarded, timestampSlug } from "../../core/index.js";
import { DilocoConfig, openStore } from "../../store/index.js";
import type { K8sManifests } from "../../executor/k8s.js";
import { jsonOpt } from "../options.js";
import { emit, log } from "../output.js";
import { realNumber, wholeNumber } from "../args.js";
import { dilocoConfig } from "./diloco.js";

interface ManifestOpts {
  pool?: string;
  diloco?: string | true;
  workers: number;
  store?: string;
  run?: string;
  out?: string;
  name: string;
  namespace: string;
  image: string;
  gvisor?: boolean;
  runtimeClass?: string;
  patches?: boolean;
  poolClaim?: string;
  s3Secret: string;
  s3Endpoint?: string;
  cpus?: number;
  memoryMb?: number;
  diskMb?: number;
  timeoutMs?: number;
  json?: boolean;
}

export function registerK8s(program: Command): void {
  const k8s = program.command("k8s").description("Kubernetes Indexed Job manifests for pool grading and DiLoCo (written and checked offline)");
  k8s
    .command("manifests")
    .description("write Indexed Job manifests: --pool DIR (one completion per task) or --diloco [CONFIG] (one completion per rank)")
    .option("--pool <dir>", "a task pool: completion i grades task i")
    .option("--diloco [config]", "DiLoCo ranks (a DilocoConfig JSON/YAML; default: the toy preset)")
    .option("--workers <n>", "with --diloco: ranks", wholeNumber(1), 4)
    .option("--store <uri>", "s3://bucket/prefix: grades / the DiLoCo rendezvous")
    .option("--run <id>", "run id (default: a timestamp)")
    .option("--out <dir>", "write <name>.yaml there (default: print)")
    .option("--name <name>", "prefix of the objects' names", "composer-lab")
    .option("--namespace <ns>", "namespace", "default")
    .option("--image <ref>", "an image with the lab (composer-lab on PATH, python3 + pytest)", "composer-lab:latest")
    .option("--gvisor", "run pods under gVisor (writes a RuntimeClass, handler runsc)")
    .option("--runtime-class <name>", "runtimeClassName of the pods (default with --gvisor: gvisor)")
    .option("--patches", "with --pool: grade <pool>/patches/<task>.diff|.json instead of the golden diffs")
    .option("--pool-claim <name>", "with --pool: the PersistentVolumeClaim holding the pool (default <name>-pool)")
    .option("--s3-secret <name>", "Secret with keys access-key-id and secret-access-key", "composer-lab-s3")
    .option("--s3-endpoint <url>", "an S3-compatible endpoint")
    .option("--cpus <n>", "CPU limit per pod (default: the job default, 1)", realNumber(0, Infinity, { above: true }))
    .option("--memory-mb <n>", "memory limit per pod (default 1024)", wholeNumber(1))
    .option("--disk-mb <n>", "ephemeral storage and /tmp size per pod (default 1024)", wholeNumber(1))
    .option("--timeout-ms <n>", "per-run timeout the pod deadline derives from (default 60000)", wholeNumber(1))
    .addOption(jsonOpt())
    .action(async (o: ManifestOpts) => {
      if (!!o.pool === !!o.diloco) throw new Error("pass exactly one of --pool DIR, --diloco [CONFIG]");
      const { poolManifests, dilocoManifests } = await import("../../executor/k8s.js");
      const run = o.run ?? timestampSlug().toLowerCase();
      const limits = Object.fromEntries(Object.entries({ cpus: o.cpus, memoryMb: o.memoryMb, diskMb: o.diskMb, timeoutMs: o.timeoutMs }).filter(([, v]) => v !== undefined));
      const common = { name: o.name, namespace: o.namespace, image: o.image, gvisor: !!o.gvisor, runtimeClass: o.runtimeClass, store: o.store, s3Secret: o.s3Secret, s3Endpoint: o.s3Endpoint, limits };
      let m: K8sManifests;
      if (o.pool) {
        const { readIndex } = await import("../../tasks/index.js");
        const ids = readIndex(resolve(o.pool)).map((e) => e.task_id);
        m = poolManifests(ids, { ...common, run, source: o.patches ? "patches" : "golden", poolClaim: o.poolClaim });
      } else {
        const cfg = DilocoConfig.parse(dilocoConfig(o.diloco === true ? undefined : o.diloco));
        m = dilocoManifests(cfg, { ...common, run, workers: o.workers });
      }
      const objects = m.objects.map((x) => ({ kind: x.kind as string, name: (x.metadata as { name: string }).name }));
      let file: string | null = null;
      if (o.out) {
        mkdirSync(o.out, { recursive: true });
        file = join(resolve(o.out), `${m.name}.yaml`);
        writeFileSync(file, m.yaml);
        log(`wrote ${file}: ${objects.map((x) => `${x.kind}/${x.name}`).join(", ")}`);
      }
      emit(!!o.json, { ok: true, name: m.name, run, file, objects, validated: "kubernetes-models (Kubernetes OpenAPI schemas)", ...(file ? {} : { yaml: m.yaml }) }, () => file ? `${file}\n${objects.map((x) => `  ${x.kind}/${x.name}`).join("\n")}` : m.yaml);
    });

  program
    .command("k8s-task", { hidden: true })
    .description("a grading pod's command: grade task JOB_COMPLETION_INDEX of the list, the pod being the sandbox; the grade goes to the store")
    .requiredOption("--tasks <file>", "the task list (the ConfigMap's tasks.json)")
    .requiredOption("--index <i>", "the completion index (JOB_COMPLETION_INDEX)", wholeNumber(0))
    .requiredOption("--store <uri>", "where the grade goes")
    .requiredOption("--prefix <p>", "key prefix of the grades")
    .addOption(jsonOpt())
    .action(async (o: { tasks: string; index: number; store: string; prefix: string; json?: boolean }) => {
      const { PoolTaskList } = await import("../../executor/k8s.js");
      const { loadTask } = await import("../../tasks/index.js");
      const { gradeCompletion } = await import("../../env/index.js");
      const { getSandbox } = await import("../../sandbox/index.js");
      const r = PoolTaskList.safeParse(JSON.parse(readFileSync(o.tasks, "utf8")));
      if (!r.success) throw new Error(`${o.tasks}: ${r.error.issues[0]!.path.join(".")}: ${r.error.issues[0]!.message}`);
      const { index } = o;
      const id = r.data.tasks[index];
      if (id === undefined) throw new Error(`${o.tasks}: no task ${index} (the list has ${r.data.tasks.length})`);
      const task = loadTask(r.data.pool, id);
      let completion: string | null = task.golden_diff;
      if (r.data.source === "patches") {
        const f = [".diff", ".json"].map((ext) => join(r.data.pool, "patches", `${id}${ext}`)).find((p) => existsSync(p));
        completion = f ? await readTextGuarded(f, { maxBytes: 16 * 1024 * 1024 }) : null;
        if (completion === null) throw new Error(`${r.data.pool}/patches: no ${id}.diff or ${id}.json`);
      }
      // the pod is the sandbox (non-root, read-only root, no capabilities, no network)
      const g = await gradeCompletion(task, completion, await getSandbox("none"));
      const key = `${o.prefix}/${id}.json`;
      await openStore(o.store).put(key, JSON.stringify({ task_id: id, index, ...g }));
      emit(!!o.json, { ok: g.error === null, task: id, index, reward: g.reward, key }, () => `${id}: reward ${g.reward.toFixed(3)} → ${o.store}/${key}`);
      if (g.error !== null) process.exitCode = 1;
    });
}
