// `composer-lab k8s manifests`: Indexed Job manifests checked offline. The files are read back and
// validated against the Kubernetes OpenAPI schemas (kubernetes-models), their sandbox settings
// checked field by field, fed to `kubectl create --dry-run=client` where kubectl exists (with a
// discovery cache standing in for the API server's discovery documents), and the grading pod's own
// command line run here for one index, its grade landing in s3rver.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import { Job } from "kubernetes-models/batch/v1/Job";
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { RuntimeClass } from "kubernetes-models/node.k8s.io/v1/RuntimeClass";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { dilocoManifests, poolManifests } from "../lib/executor/k8s.js";
import { DilocoConfig, openStore } from "../lib/store/index.js";
import { readIndex } from "../lib/tasks/index.js";
import { ROOT, cli, cliAsync, oneJson, tmp } from "./helpers.js";

const POOL = join(ROOT, "datasets", "tasks");
const POOL_ARGS = ["--pool", POOL, "--store", "s3://lab-k8s/grades", "--gvisor", "--run", "r1"];
const DILOCO = ["--diloco", "--workers", "3", "--store", "s3://lab-k8s/diloco", "--s3-endpoint", "http://minio.lab:9000", "--run", "d1"];
type Obj = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string }; [k: string]: any };
const MODELS: Record<string, new (o: any) => { validate(): void }> = { Job, NetworkPolicy, RuntimeClass, ConfigMap };

const readObjects = (file: string): Obj[] => parseAllDocuments(readFileSync(file, "utf8")).map((d) => {
  if (d.errors.length) throw new Error(`${file}: ${d.errors[0]!.message}`);
  return d.toJS() as Obj;
});
const byKind = (objs: Obj[], kind: string): Obj => objs.find((o) => o.kind === kind)!;

// each CLI start costs seconds on a loaded machine: one run per distinct argument list
const made = new Map<string, { out: Record<string, any>; objects: Obj[]; file: string }>();
function manifests(args: string[]): { out: Record<string, any>; objects: Obj[]; file: string } {
  const key = JSON.stringify(args);
  if (!made.has(key)) made.set(key, makeManifests(args));
  return structuredClone(made.get(key)!);
}
function makeManifests(args: string[]): { out: Record<string, any>; objects: Obj[]; file: string } {
  const dir = tmp("k8s-");
  const r = cli(["k8s", "manifests", ...args, "--out", dir, "--json"]);
  expect(r.code, r.stderr).toBe(0);
  const out = oneJson(r.stdout);
  return { out, objects: readObjects(out.file), file: out.file };
}

/** The securityContext and pod settings that mirror the local sandbox. */
function expectSandboxed(job: Obj): void {
  const pod = job.spec.template.spec;
  expect(pod).toMatchObject({ restartPolicy: "Never", automountServiceAccountToken: false, hostNetwork: false, hostPID: false, hostIPC: false, securityContext: { runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } } });
  expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
  const [c] = pod.containers;
  expect(c.securityContext).toEqual({ runAsNonRoot: true, runAsUser: pod.securityContext.runAsUser, runAsGroup: pod.securityContext.runAsUser, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, privileged: false, capabilities: { drop: ["ALL"] }, seccompProfile: { type: "RuntimeDefault" } });
  expect(c.resources.limits).toEqual({ cpu: "1", memory: "1024Mi", "ephemeral-storage": "1024Mi" });
  expect(c.resources.requests).toEqual(c.resources.limits);
  // the only writable place is a size-capped /tmp
  expect(pod.volumes.find((v: any) => v.name === "tmp")).toEqual({ name: "tmp", emptyDir: { medium: "Memory", sizeLimit: "1024Mi" } });
  expect(c.volumeMounts.filter((m: any) => !m.readOnly).map((m: any) => m.mountPath)).toEqual(["/tmp"]);
  // the rank / task index, and S3 credentials only by reference
  expect(c.env).toContainEqual({ name: "JOB_COMPLETION_INDEX", valueFrom: { fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } } });
  for (const k of ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]) {
    const e = c.env.find((x: any) => x.name === k);
    expect(e.value).toBeUndefined();
    expect(e.valueFrom.secretKeyRef).toMatchObject({ name: "composer-lab-s3" });
  }
  expect(job.spec.completionMode).toBe("Indexed");
}

describe("k8s manifests", () => {
  it("--pool: one Indexed Job completion per task, sandbox-matching pods under gVisor, a deny-all NetworkPolicy; valid against the Kubernetes schemas", () => {
    const { out, objects } = manifests(POOL_ARGS);
    expect(out.objects.map((o: any) => o.kind)).toEqual(["RuntimeClass", "NetworkPolicy", "ConfigMap", "Job"]);
    for (const o of objects) expect(() => new MODELS[o.kind]!(o).validate(), `${o.kind} ${o.metadata.name}`).not.toThrow();
    const job = byKind(objects, "Job");
    const ids = readIndex(POOL).map((e) => e.task_id);
    expect(job.spec).toMatchObject({ completions: ids.length, parallelism: ids.length });
    expectSandboxed(job);
    expect(job.spec.template.spec.runtimeClassName).toBe("gvisor");
    expect(byKind(objects, "RuntimeClass")).toMatchObject({ apiVersion: "node.k8s.io/v1", metadata: { name: "gvisor" }, handler: "runsc" });
    expect(byKind(objects, "NetworkPolicy").spec).toEqual({ podSelector: { matchLabels: { "composer-lab/job": "composer-lab-grade", "app.kubernetes.io/component": "grade" } }, policyTypes: ["Ingress", "Egress"], ingress: [], egress: [] });
    expect(job.spec.template.metadata.labels).toMatchObject({ "composer-lab/job": "composer-lab-grade", "app.kubernetes.io/component": "grade" });
    expect(JSON.parse(byKind(objects, "ConfigMap").data["tasks.json"])).toEqual({ pool: "/pool", tasks: ids, source: "golden" });
    const pod = job.spec.template.spec;
    expect(pod.volumes.find((v: any) => v.name === "pool").persistentVolumeClaim).toEqual({ claimName: "composer-lab-pool", readOnly: true });
  });

  it("--diloco: one completion per rank, all at once, rank from JOB_COMPLETION_INDEX, the config in a ConfigMap; egress allowed (the store)", () => {
    const { objects } = manifests(DILOCO);
    expect(objects.map((o) => o.kind)).toEqual(["NetworkPolicy", "ConfigMap", "Job"]);
    for (const o of objects) expect(() => new MODELS[o.kind]!(o).validate()).not.toThrow();
    const job = byKind(objects, "Job");
    expect(job.spec).toMatchObject({ completionMode: "Indexed", completions: 3, parallelism: 3 });
    expectSandboxed(job);
    expect(job.spec.template.spec.runtimeClassName).toBeUndefined();
    const c = job.spec.template.spec.containers[0];
    expect(c.args).toEqual(["diloco-worker", "--rank", "$(JOB_COMPLETION_INDEX)", "--workers", "3", "--store", "s3://lab-k8s/diloco", "--prefix", "runs/d1/diloco_rendezvous", "--config", "/etc/composer-lab/diloco.json", "--json"]);
    expect(c.env).toContainEqual({ name: "AWS_ENDPOINT_URL_S3", value: "http://minio.lab:9000" });
    expect(DilocoConfig.parse(JSON.parse(byKind(objects, "ConfigMap").data["diloco.json"]))).toMatchObject({ rounds: 8, inner_steps: 4 });
    expect(byKind(objects, "NetworkPolicy").spec.egress).toEqual([{}]);
  });

  it("the schema check can fail: a wrong type or enum in a Job is rejected naming the field", () => {
    const { objects } = manifests(DILOCO);
    const job = byKind(objects, "Job");
    job.spec.completionMode = "Sometimes";
    expect(() => new Job(job as any).validate()).toThrow(/completionMode/);
    job.spec.completionMode = "Indexed";
    job.spec.template.spec.containers[0].securityContext.runAsNonRoot = "yes";
    expect(() => new Job(job as any).validate()).toThrow(/runAsNonRoot/);
  });

  it("bad input fails with an error naming the flag or field (one JSON object from the CLI)", () => {
    expect(() => dilocoManifests({}, { store: "s3://b/p", name: "Bad_Name", workers: 2, run: "x" })).toThrow(/^name: lowercase/);
    expect(() => dilocoManifests({}, { store: "/local/path", workers: 2, run: "x" })).toThrow(/^store: an s3:\/\/bucket/);
    expect(() => dilocoManifests({}, { workers: 2, run: "x" })).toThrow(/--store s3:\/\/bucket\/prefix is needed/);
    expect(() => poolManifests(["t"], { store: "s3://b/p", limits: { memoryMb: -1 }, run: "x" })).toThrow(/^limits\.memoryMb:/);
    for (const [args, msg] of [
      [["--pool", POOL, "--diloco", "--store", "s3://b/p"], /exactly one of --pool/],
      [["--diloco", "--store", "s3://b/p", "--workers", "0"], /--workers <n>' argument '0' is invalid\. expected a whole number ≥ 1/],
    ] as const) {
      const r = cli(["k8s", "manifests", ...args, "--json"]);
      expect(r.code, r.stdout).not.toBe(0);
      expect(oneJson(r.stdout)).toMatchObject({ ok: false, error: expect.stringMatching(msg) });
    }
  });

  const kubectl = spawnSync("kubectl", ["version", "--client"], { encoding: "utf8" });
  it.skipIf(kubectl.error !== undefined)("kubectl create --dry-run=client accepts every file (and refuses an unknown kind)", () => {
    const { file } = manifests(POOL_ARGS);
    const diloco = manifests(DILOCO).file;
    // What an API server's discovery endpoints answer for these kinds, as kubectl caches them:
    // kubectl needs them to map a kind to its resource (no API server can run here).
    const cache = tmp("kubectl-cache-");
    const host = join(cache, "discovery", "localhost_8080");
    const groups: [string, string, { name: string; kind: string }[]][] = [
      ["", "v1", [{ name: "configmaps", kind: "ConfigMap" }, { name: "secrets", kind: "Secret" }]],
      ["batch", "v1", [{ name: "jobs", kind: "Job" }]],
      ["networking.k8s.io", "v1", [{ name: "networkpolicies", kind: "NetworkPolicy" }]],
      ["node.k8s.io", "v1", [{ name: "runtimeclasses", kind: "RuntimeClass" }]],
    ];
    mkdirSync(host, { recursive: true });
    writeFileSync(join(host, "servergroups.json"), JSON.stringify({ kind: "APIGroupList", apiVersion: "v1", groups: groups.map(([g, v]) => ({ name: g, versions: [{ groupVersion: g ? `${g}/${v}` : v, version: v }], preferredVersion: { groupVersion: g ? `${g}/${v}` : v, version: v } })) }));
    for (const [g, v, rs] of groups) {
      const gv = g ? `${g}/${v}` : v;
      mkdirSync(join(host, ...gv.split("/")), { recursive: true });
      writeFileSync(join(host, ...gv.split("/"), "serverresources.json"), JSON.stringify({ kind: "APIResourceList", apiVersion: "v1", groupVersion: gv, resources: rs.map((r) => ({ name: r.name, singularName: r.kind.toLowerCase(), namespaced: r.kind !== "RuntimeClass", kind: r.kind, verbs: ["create", "get", "list"] })) }));
    }
    const dry = (f: string) => spawnSync("kubectl", ["create", "--dry-run=client", "--validate=false", "--cache-dir", cache, "-s", "http://localhost:8080", "-f", f, "-o", "name"], { encoding: "utf8", timeout: 60_000, env: { ...process.env, KUBECONFIG: "/dev/null" } });
    const r = dry(file);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split("\n")).toEqual(["runtimeclass.node.k8s.io/gvisor", "networkpolicy.networking.k8s.io/composer-lab-grade-net", "configmap/composer-lab-grade-tasks", "job.batch/composer-lab-grade"]);
    const d = dry(diloco);
    expect(d.status, d.stderr).toBe(0);
    expect(d.stdout.trim().split("\n")).toEqual(["networkpolicy.networking.k8s.io/composer-lab-diloco-net", "configmap/composer-lab-diloco-config", "job.batch/composer-lab-diloco"]);
    const bad = join(tmp("k8s-bad-"), "bad.yaml");
    writeFileSync(bad, readFileSync(file, "utf8").replace("kind: Job", "kind: Jobb"));
    const b = dry(bad);
    expect(b.status).not.toBe(0);
    // an unknown kind sends kubectl to the (absent) API server's discovery: refused
    expect(b.stderr).toMatch(/unable to recognize/);
  }, 120_000);

  describe("the grading pod's command, run here for one index", () => {
    let server: S3rver;
    let endpoint: string;
    beforeAll(async () => {
      server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: tmp("s3rver-") });
      const { port } = await server.run();
      endpoint = `http://127.0.0.1:${port}`;
      const c = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
      await c.send(new CreateBucketCommand({ Bucket: "lab-k8s" }));
    });
    afterAll(async () => {
      await server?.close();
    });

    it("grades task JOB_COMPLETION_INDEX of the ConfigMap's list and writes the grade to the store", async () => {
      const { objects } = manifests(["--pool", POOL, "--store", "s3://lab-k8s/grades", "--run", "pod"]);
      const job = byKind(objects, "Job");
      const c = job.spec.template.spec.containers[0];
      // the mounts: the ConfigMap at /etc/composer-lab, the pool claim at /pool
      const etc = tmp("k8s-etc-");
      const list = JSON.parse(byKind(objects, "ConfigMap").data["tasks.json"]);
      writeFileSync(join(etc, "tasks.json"), JSON.stringify({ ...list, pool: POOL }));
      const index = 1;
      const args = (c.args as string[]).map((a) => a.replace("$(JOB_COMPLETION_INDEX)", String(index)).replace("/etc/composer-lab", etc));
      expect(c.command).toEqual(["composer-lab"]);
      const r = await cliAsync(args, { env: { AWS_ENDPOINT_URL: endpoint, AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER", AWS_REGION: "us-east-1" } });
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
      const id = list.tasks[index];
      expect(oneJson(r.stdout)).toMatchObject({ ok: true, task: id, index, reward: 1, key: `runs/pod/grades/${id}.json` });
      const g = JSON.parse((await openStore("s3://lab-k8s/grades", { endpoint, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } }).get(`runs/pod/grades/${id}.json`))!.toString("utf8"));
      expect(g).toMatchObject({ task_id: id, index, reward: 1, error: null });
    }, 180_000);
  });
});
