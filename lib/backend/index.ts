/**
 * TensorFlow.js backend selection. Order of preference: tensorflow (tfjs-node-gpu / tfjs-node,
 * used only when importable: they need libtensorflow, which does not install from the npm
 * registry alone) → torch (libtorch's ATen through the lab's own addon, ./torch.ts; present when
 * scripts/setup.sh could build it) → webgpu (only when a WebGPU adapter exists: `navigator.gpu` in a browser, or in Node
 * the `webgpu` package's dawn.node over Vulkan) → wasm → cpu. `prefer` forces one — and then a
 * backend that cannot start is an error naming why, never a silent fallback. Without `prefer` the
 * environment variable COMPOSER_LAB_BACKEND (a backend name, or "auto") decides. The choice is
 * returned so runs can record it.
 */
import * as tf from "@tensorflow/tfjs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { registerTorchBackend } from "./torch.js";

export const BACKENDS = ["tensorflow", "torch", "webgpu", "wasm", "cpu"] as const;
export type BackendName = (typeof BACKENDS)[number];
/** What a caller may ask for: a backend, or "auto" (the order above, ignoring the env variable). */
export type BackendChoice = BackendName | "auto";
export const BACKEND_CHOICES: readonly BackendChoice[] = ["auto", ...BACKENDS];
/** Environment variable holding the default backend (a name from BACKEND_CHOICES). */
export const BACKEND_ENV = "COMPOSER_LAB_BACKEND";

export interface BackendInfo {
  name: BackendName;
  /** The package that provided it (e.g. "@tensorflow/tfjs-node-gpu"). */
  provider: string;
  /** Why the more preferred backends were not used. */
  skipped: { name: BackendName; why: string }[];
}

const require = createRequire(import.meta.url);
let current: BackendInfo | undefined;

/** Validates a backend name (from a flag, the env variable, a config file); throws naming the known ones. */
export function parseBackend(name: string, source = "backend"): BackendChoice {
  const n = name.trim().toLowerCase();
  if ((BACKEND_CHOICES as readonly string[]).includes(n)) return n as BackendChoice;
  throw new Error(`unknown TensorFlow.js ${source} "${name}" (known: ${BACKEND_CHOICES.join(", ")})`);
}

/** The backend named by COMPOSER_LAB_BACKEND, if set (throws on an unknown name). */
export function envBackend(env: NodeJS.ProcessEnv = process.env): BackendChoice | undefined {
  const v = env[BACKEND_ENV];
  return v && v.trim() ? parseBackend(v, `backend in ${BACKEND_ENV}`) : undefined;
}

async function tryTensorflow(): Promise<string> {
  for (const pkg of ["@tensorflow/tfjs-node-gpu", "@tensorflow/tfjs-node"]) {
    try {
      await import(pkg);
      if (tf.findBackend("tensorflow")) return pkg;
    } catch {
      /* not installed or libtensorflow missing: try the next */
    }
  }
  throw new Error("neither @tensorflow/tfjs-node-gpu nor @tensorflow/tfjs-node is importable");
}

interface GPULike {
  requestAdapter(): Promise<unknown>;
}

/**
 * navigator.gpu for Node: the `webgpu` package (dawn.node, prebuilt in the npm tarball) gives one
 * backed by Vulkan — a real GPU's driver, or Mesa's lavapipe (>= 25) on a CPU. Installed as
 * globalThis.navigator.gpu, where tfjs's webgpu backend looks. Returns why not when it cannot.
 */
async function nodeGpu(): Promise<GPULike | string> {
  try {
    const { create } = (await import("webgpu")) as { create: (flags: string[]) => GPULike };
    return create([]);
  } catch (e) {
    return `the webgpu package (dawn.node) does not load: ${(e as Error).message.split("\n")[0]}`;
  }
}

async function tryWebgpu(): Promise<string> {
  // Look for an adapter before importing the tfjs backend: it registers itself only when
  // navigator.gpu exists, and importing it costs time for nothing where there is no GPU.
  const g = globalThis as { navigator?: { gpu?: GPULike } };
  let source = "navigator.gpu";
  if (!g.navigator?.gpu) {
    const gpu = await nodeGpu();
    if (typeof gpu === "string") throw new Error(`no WebGPU adapter: navigator.gpu is absent${g.navigator ? "" : " (this runtime has no navigator)"} and ${gpu}`);
    source = "dawn.node (the webgpu package)";
    const adapter = await gpu.requestAdapter().catch(() => null);
    if (!adapter) throw new Error("no WebGPU adapter: navigator.gpu is absent and dawn.node (the webgpu package) found none (it needs Vulkan: libvulkan1 and a driver — a GPU's, or Mesa >= 25 lavapipe on a CPU)");
    Object.defineProperty(globalThis, "navigator", { value: { ...(g.navigator ?? {}), gpu }, configurable: true, writable: true });
  }
  let adapter: unknown;
  try {
    adapter = await g.navigator!.gpu!.requestAdapter();
  } catch (e) {
    throw new Error(`no WebGPU adapter: ${source}.requestAdapter() failed: ${(e as Error).message}`);
  }
  if (!adapter) throw new Error(`no WebGPU adapter: ${source}.requestAdapter() returned null`);
  const pkg = "@tensorflow/tfjs-backend-webgpu";
  try {
    await import(pkg); // lazily: a missing or broken install must not break startup
  } catch (e) {
    throw new Error(`${pkg} is not importable: ${(e as Error).message}`);
  }
  if (!tf.findBackendFactory("webgpu")) throw new Error(`${pkg} loaded but registered no "webgpu" backend`);
  return source === "navigator.gpu" ? pkg : `${pkg} on ${source}`;
}

async function tryWasm(): Promise<string> {
  const wasm = await import("@tensorflow/tfjs-backend-wasm");
  // Point the loader at the .wasm files shipped in the package (no network fetch).
  const dist = dirname(require.resolve("@tensorflow/tfjs-backend-wasm"));
  wasm.setWasmPaths(join(dist, "/"));
  return "@tensorflow/tfjs-backend-wasm";
}

async function tryTorch(): Promise<string> {
  const info = registerTorchBackend().info();
  return `composer-lab torch addon (libtorch ${info.torch}, ${info.threads} threads, ${info.device})`;
}

const PROVIDERS: Record<BackendName, () => Promise<string>> = {
  tensorflow: tryTensorflow,
  torch: tryTorch,
  webgpu: tryWebgpu,
  wasm: tryWasm,
  cpu: async () => "@tensorflow/tfjs",
};

async function activate(name: BackendName): Promise<string> {
  const provider = await PROVIDERS[name]();
  if (!(await tf.setBackend(name))) throw new Error(`tf.setBackend("${name}") returned false`);
  await tf.ready();
  // The cpu backend prints a "install tfjs-node" banner on first use; we already chose knowingly.
  if (name === "cpu") (tf.backend() as unknown as { firstUse?: boolean }).firstUse = false;
  return provider;
}

/**
 * Picks and activates a backend; idempotent unless `prefer` names a different one. `prefer`
 * defaults to COMPOSER_LAB_BACKEND; "auto" (or neither) tries tensorflow → torch → webgpu → wasm → cpu.
 * A preferred backend that cannot start throws with the reason.
 */
export async function initBackend(prefer: BackendChoice | undefined = envBackend()): Promise<BackendInfo> {
  const want = prefer === "auto" ? undefined : prefer;
  if (current && (!want || want === current.name)) return current;
  if (want) {
    if (!(BACKENDS as readonly string[]).includes(want)) parseBackend(want);
    try {
      const provider = await activate(want);
      current = { name: want, provider, skipped: [] };
      return current;
    } catch (e) {
      throw new Error(`TensorFlow.js backend "${want}" could not be started: ${(e as Error).message}`);
    }
  }
  const skipped: BackendInfo["skipped"] = [];
  for (const name of BACKENDS) {
    try {
      const provider = await activate(name);
      current = { name, provider, skipped };
      return current;
    } catch (e) {
      skipped.push({ name, why: (e as Error).message });
    }
  }
  throw new Error(`no TensorFlow.js backend could be started: ${skipped.map((s) => `${s.name}: ${s.why}`).join("; ")}`);
}

export interface BackendProbe {
  name: BackendName;
  usable: boolean;
  /** The package/addon that provides it, when usable. */
  provider?: string;
  /** Why it cannot start, when not usable. */
  why?: string;
}

/**
 * Tries every backend in the default order and says which start and why the others do not
 * (`doctor`). The active backend is restored afterwards.
 */
export async function probeBackends(): Promise<BackendProbe[]> {
  const before = tf.getBackend();
  const out: BackendProbe[] = [];
  try {
    for (const name of BACKENDS) {
      try {
        out.push({ name, usable: true, provider: await activate(name) });
      } catch (e) {
        out.push({ name, usable: false, why: (e as Error).message });
      }
    }
  } finally {
    if (before && before !== tf.getBackend()) await tf.setBackend(before);
  }
  return out;
}

/** Wall time and calls per tfjs kernel while a function ran, most expensive first. */
export interface KernelTime {
  kernel: string;
  ms: number;
  share: number;
  calls: number;
}

/**
 * Runs `fn` and times every kernel it launches, by name (wall time: the cpu, wasm and torch
 * backends run kernels synchronously; on a GPU backend the times are launch costs). Used to find
 * the kernels a workload needs and where its time goes.
 */
export function profileKernels(fn: () => void): KernelTime[] {
  const engine = tf.engine() as unknown as { runKernel: (name: string, ...rest: unknown[]) => unknown };
  const original = engine.runKernel;
  const time = new Map<string, { ms: number; calls: number }>();
  engine.runKernel = function (this: unknown, name: string, ...rest: unknown[]) {
    const t0 = performance.now();
    try {
      return original.call(this, name, ...rest);
    } finally {
      const e = time.get(name) ?? { ms: 0, calls: 0 };
      e.ms += performance.now() - t0;
      e.calls++;
      time.set(name, e);
    }
  };
  try {
    fn();
  } finally {
    engine.runKernel = original;
  }
  const total = [...time.values()].reduce((a, e) => a + e.ms, 0) || 1;
  return [...time.entries()].map(([kernel, e]) => ({ kernel, ms: e.ms, share: e.ms / total, calls: e.calls })).sort((a, b) => b.ms - a.ms);
}

/** The backend chosen by initBackend(), if any. */
export const currentBackend = (): BackendInfo | undefined => current;

/**
 * Runs `fn` on backend `name`, then restores the previous one (for measurements that compare
 * backends without changing the one training uses). Throws the reason if `name` cannot start.
 */
export async function withBackend<T>(name: BackendName, fn: () => Promise<T>): Promise<T> {
  const before = tf.getBackend();
  await activate(name);
  try {
    return await fn();
  } finally {
    if (before && before !== tf.getBackend()) await tf.setBackend(before);
  }
}

export { tf };
export { TORCH_KERNELS, loadTorchAddon, torchAddonPath } from "./torch.js";
