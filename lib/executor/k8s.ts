/**
 * Kubernetes, on paper: Indexed Job manifests for grading a pool and for DiLoCo ranks (no API
 * server runs here; `composer-lab k8s manifests` writes them, and they are checked offline against
 * the official OpenAPI schemas through kubernetes-models, and with `kubectl create --dry-run=client`
 * where kubectl exists).
 *
 * Each pod is the sandbox, so its settings mirror the local one (lib/sandbox): non-root, read-only
 * root filesystem, every capability dropped, no privilege escalation, the runtime's default
 * seccomp profile, a size-capped /tmp, CPU / memory / ephemeral-storage limits, no service-account
 * token, no host namespaces; optionally gVisor (a RuntimeClass whose handler is runsc). Grading
 * pods also get a NetworkPolicy that denies all traffic (the sandbox has no network); DiLoCo pods
 * need the object store, so theirs allows egress only. Rank / task index comes from
 * JOB_COMPLETION_INDEX; S3 credentials come from a Secret by reference, never inline.
 */
import { z } from "zod";
import { stringify } from "yaml";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { Job } from "kubernetes-models/batch/v1/Job";
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { RuntimeClass } from "kubernetes-models/node.k8s.io/v1/RuntimeClass";
import type { IContainer } from "kubernetes-models/v1/Container";
import type { IEnvVar } from "kubernetes-models/v1/EnvVar";
import type { IPodSpec } from "kubernetes-models/v1/PodSpec";
import { JobLimits } from "./types.js";

/** A DNS-1123 label (Kubernetes object names used here). */
const Name = z.string().regex(/^[a-z0-9]([-a-z0-9]{0,50}[a-z0-9])?$/, "lowercase letters, digits and '-', at most 52 characters, starting and ending alphanumeric");

export const K8sOptions = z.object({
  /** Prefix of every object's name. */
  name: Name.default("composer-lab"),
  namespace: Name.default("default"),
  /** An image holding the lab (node, python3 + pytest, bin/composer-lab.js on PATH as composer-lab). */
  image: z.string().min(1).default("composer-lab:latest"),
  /** runtimeClassName of the pods; with `gvisor`, a RuntimeClass (handler runsc) is written too. */
  runtimeClass: z.string().regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/).optional(),
  gvisor: z.boolean().default(false),
  /** The uid/gid pods run as (not 0: runAsNonRoot). */
  uid: z.number().int().positive().default(65532),
  limits: JobLimits.default({}),
  /** Pods of the Job at once (default: all). */
  parallelism: z.number().int().positive().optional(),
  /** Re-runs of a failed pod before the Job fails. */
  backoffLimit: z.number().int().min(0).default(3),
  /** The object store (s3://bucket/prefix) where results and rendezvous live. */
  store: z.string().regex(/^s3:\/\/[^/]+/, "an s3://bucket[/prefix] URI").optional(),
  /** Secret holding the store's credentials (keys access-key-id, secret-access-key). */
  s3Secret: Name.default("composer-lab-s3"),
  /** An S3-compatible endpoint (AWS_ENDPOINT_URL_S3 in the pods). */
  s3Endpoint: z.string().url().optional(),
  s3Region: z.string().default("us-east-1"),
});
export type K8sOptions = z.input<typeof K8sOptions>;
type Resolved = z.output<typeof K8sOptions>;

/** The options, or an error naming the first bad field. */
function resolveOptions(o: K8sOptions): Resolved {
  const r = K8sOptions.safeParse(o);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  throw new Error(`${issue.path.join(".") || "options"}: ${issue.message}`);
}

/** The manifests to write: one file's objects, in apply order. */
export interface K8sManifests {
  name: string;
  objects: Record<string, unknown>[];
  yaml: string;
}

const POOL_MOUNT = "/pool";
const CONFIG_MOUNT = "/etc/composer-lab";
/** The index variable, also set explicitly from the pod annotation so $(…) expansion in args works
 *  on every Kubernetes that has Indexed Jobs. */
const INDEX_ENV: IEnvVar = { name: "JOB_COMPLETION_INDEX", valueFrom: { fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } } };

function s3Env(o: Resolved): IEnvVar[] {
  if (!o.store) return [];
  return [
    { name: "AWS_ACCESS_KEY_ID", valueFrom: { secretKeyRef: { name: o.s3Secret, key: "access-key-id" } } },
    { name: "AWS_SECRET_ACCESS_KEY", valueFrom: { secretKeyRef: { name: o.s3Secret, key: "secret-access-key" } } },
    { name: "AWS_REGION", value: o.s3Region },
    ...(o.s3Endpoint ? [{ name: "AWS_ENDPOINT_URL_S3", value: o.s3Endpoint }] : []),
  ];
}

/** The container every pod runs: the local sandbox's settings as a securityContext and limits. */
function container(o: Resolved, args: string[], extraMounts: IContainer["volumeMounts"]): IContainer {
  const l = o.limits;
  const resources = { cpu: String(l.cpus), memory: `${l.memoryMb}Mi`, "ephemeral-storage": `${l.diskMb}Mi` };
  return {
    name: "job",
    image: o.image,
    imagePullPolicy: "IfNotPresent",
    command: ["composer-lab"],
    args,
    workingDir: "/tmp",
    env: [INDEX_ENV, { name: "HOME", value: "/tmp" }, { name: "PYTHONDONTWRITEBYTECODE", value: "1" }, ...s3Env(o)],
    resources: { requests: resources, limits: resources },
    securityContext: {
      runAsNonRoot: true,
      runAsUser: o.uid,
      runAsGroup: o.uid,
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      privileged: false,
      capabilities: { drop: ["ALL"] },
      seccompProfile: { type: "RuntimeDefault" },
    },
    volumeMounts: [{ name: "tmp", mountPath: "/tmp" }, { name: "config", mountPath: CONFIG_MOUNT, readOnly: true }, ...(extraMounts ?? [])],
  };
}

function podSpec(o: Resolved, c: IContainer, extraVolumes: IPodSpec["volumes"], configMap: string, deadlineSeconds?: number): IPodSpec {
  return {
    restartPolicy: "Never",
    automountServiceAccountToken: false,
    enableServiceLinks: false,
    hostNetwork: false,
    hostPID: false,
    hostIPC: false,
    ...(o.runtimeClass || o.gvisor ? { runtimeClassName: o.runtimeClass ?? "gvisor" } : {}),
    securityContext: { runAsNonRoot: true, runAsUser: o.uid, runAsGroup: o.uid, fsGroup: o.uid, seccompProfile: { type: "RuntimeDefault" } },
    ...(deadlineSeconds ? { activeDeadlineSeconds: deadlineSeconds } : {}),
    containers: [c],
    volumes: [
      { name: "tmp", emptyDir: { medium: "Memory", sizeLimit: `${o.limits.diskMb}Mi` } },
      { name: "config", configMap: { name: configMap } },
      ...(extraVolumes ?? []),
    ],
  };
}

function indexedJob(o: Resolved, name: string, completions: number, role: string, spec: IPodSpec): Job {
  const labels = { "app.kubernetes.io/name": "composer-lab", "app.kubernetes.io/component": role, "composer-lab/job": name };
  return new Job({
    metadata: { name, namespace: o.namespace, labels },
    spec: {
      completionMode: "Indexed",
      completions,
      parallelism: Math.min(o.parallelism ?? completions, completions),
      backoffLimit: o.backoffLimit,
      ttlSecondsAfterFinished: 86_400,
      template: { metadata: { labels }, spec },
    },
  });
}

function extras(o: Resolved, name: string, role: string, egress: boolean): (NetworkPolicy | RuntimeClass)[] {
  const out: (NetworkPolicy | RuntimeClass)[] = [];
  if (o.gvisor) out.push(new RuntimeClass({ metadata: { name: o.runtimeClass ?? "gvisor" }, handler: "runsc" }));
  out.push(new NetworkPolicy({
    metadata: { name: `${name}-net`, namespace: o.namespace },
    spec: {
      podSelector: { matchLabels: { "composer-lab/job": name, "app.kubernetes.io/component": role } },
      policyTypes: ["Ingress", "Egress"],
      ingress: [],
      // DiLoCo ranks reach the object store (and DNS); grading pods reach nothing
      egress: egress ? [{}] : [],
    },
  }));
  return out;
}

/** Validates every object against the Kubernetes OpenAPI schema; the error names object and field. */
function finish(name: string, objects: (Job | ConfigMap | NetworkPolicy | RuntimeClass)[]): K8sManifests {
  for (const obj of objects) {
    try {
      obj.validate();
    } catch (e) {
      throw new Error(`${obj.kind} ${obj.metadata?.name}: ${(e as Error).message}`);
    }
  }
  const plain = objects.map((x) => x.toJSON() as Record<string, unknown>);
  return { name, objects: plain, yaml: plain.map((x) => stringify(x, { lineWidth: 0 })).join("---\n") };
}

/** The list a grading pod reads: task ids in index order. */
export const PoolTaskList = z.object({ pool: z.string(), tasks: z.array(z.string()).min(1), source: z.enum(["golden", "patches"]) });
export type PoolTaskList = z.infer<typeof PoolTaskList>;

/**
 * Grading a pool: one Indexed Job, completion i grades task i (the list in a ConfigMap) with the
 * pod as the sandbox (`k8s-task`, --sandbox none inside); the pool (and patches) come from a
 * read-only PersistentVolumeClaim; each grade goes to the store as <prefix>/grades/<task>.json.
 */
export function poolManifests(taskIds: string[], opts: K8sOptions & { poolClaim?: string; source?: "golden" | "patches"; run: string }): K8sManifests {
  const o = resolveOptions(opts);
  if (!taskIds.length) throw new Error("the pool has no tasks");
  if (!o.store) throw new Error("--store s3://bucket/prefix is needed: grading pods write their results there");
  const name = `${o.name}-grade`;
  const list: PoolTaskList = { pool: POOL_MOUNT, tasks: taskIds, source: opts.source ?? "golden" };
  const cm = new ConfigMap({ metadata: { name: `${name}-tasks`, namespace: o.namespace }, data: { "tasks.json": JSON.stringify(list) } });
  const args = ["k8s-task", "--tasks", `${CONFIG_MOUNT}/tasks.json`, "--index", "$(JOB_COMPLETION_INDEX)", "--store", o.store, "--prefix", `runs/${opts.run}/grades`, "--json"];
  const c = container(o, args, [{ name: "pool", mountPath: POOL_MOUNT, readOnly: true }]);
  // a grade is a few pytest runs, each bounded by the job timeout: the pod gets ten of them
  const deadline = Math.ceil((o.limits.timeoutMs * 10) / 1000);
  const spec = podSpec(o, c, [{ name: "pool", persistentVolumeClaim: { claimName: opts.poolClaim ?? `${o.name}-pool`, readOnly: true } }], cm.metadata!.name!, deadline);
  return finish(name, [...extras(o, name, "grade", false), cm, indexedJob(o, name, taskIds.length, "grade", spec)]);
}

/**
 * DiLoCo: one Indexed Job of `workers` pods, rank = JOB_COMPLETION_INDEX, all at once (the ranks
 * meet only through the store); the DilocoConfig in a ConfigMap. A pod that dies is re-run by the
 * Job (backoffLimit) and resumes from the last committed round, as a restarted local worker does.
 */
export function dilocoManifests(config: Record<string, unknown>, opts: K8sOptions & { workers: number; run: string }): K8sManifests {
  const o = resolveOptions(opts);
  if (!Number.isInteger(opts.workers) || opts.workers < 1) throw new Error(`workers ${opts.workers}: a positive whole number`);
  if (!o.store) throw new Error("--store s3://bucket/prefix is needed: the ranks meet only through it");
  const name = `${o.name}-diloco`;
  const cm = new ConfigMap({ metadata: { name: `${name}-config`, namespace: o.namespace }, data: { "diloco.json": JSON.stringify(config) } });
  const args = ["diloco-worker", "--rank", "$(JOB_COMPLETION_INDEX)", "--workers", String(opts.workers), "--store", o.store, "--prefix", `runs/${opts.run}/diloco_rendezvous`, "--config", `${CONFIG_MOUNT}/diloco.json`, "--json"];
  const spec = podSpec({ ...o, parallelism: opts.workers }, container(o, args, []), [], cm.metadata!.name!);
  return finish(name, [...extras(o, name, "diloco", true), cm, indexedJob({ ...o, parallelism: opts.workers }, name, opts.workers, "diloco", spec)]);
}
