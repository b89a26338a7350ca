/**
 * TensorFlow.js backend selection. Order of preference: tensorflow (tfjs-node-gpu / tfjs-node,
 * used only when importable: they need libtensorflow, which does not install from the npm
 * registry alone) → wasm → cpu. `prefer` forces one; the choice is returned so runs can record it.
 */
import * as tf from "@tensorflow/tfjs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export const BACKENDS = ["tensorflow", "wasm", "cpu"] as const;
export type BackendName = (typeof BACKENDS)[number];

export interface BackendInfo {
  name: BackendName;
  /** The package that provided it (e.g. "@tensorflow/tfjs-node-gpu"). */
  provider: string;
  /** Why the more preferred backends were not used. */
  skipped: { name: BackendName; why: string }[];
}

const require = createRequire(import.meta.url);
let current: BackendInfo | undefined;

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

async function tryWasm(): Promise<string> {
  const wasm = await import("@tensorflow/tfjs-backend-wasm");
  // Point the loader at the .wasm files shipped in the package (no network fetch).
  const dist = dirname(require.resolve("@tensorflow/tfjs-backend-wasm"));
  wasm.setWasmPaths(join(dist, "/"));
  return "@tensorflow/tfjs-backend-wasm";
}

async function activate(name: BackendName): Promise<string> {
  const provider = name === "tensorflow" ? await tryTensorflow() : name === "wasm" ? await tryWasm() : "@tensorflow/tfjs";
  if (!(await tf.setBackend(name))) throw new Error(`tf.setBackend("${name}") returned false`);
  await tf.ready();
  // The cpu backend prints a "install tfjs-node" banner on first use; we already chose knowingly.
  if (name === "cpu") (tf.backend() as unknown as { firstUse?: boolean }).firstUse = false;
  return provider;
}

/** Picks and activates a backend; idempotent unless `prefer` names a different one. */
export async function initBackend(prefer?: BackendName): Promise<BackendInfo> {
  if (current && (!prefer || prefer === current.name)) return current;
  const order: BackendName[] = prefer ? [prefer] : [...BACKENDS];
  const skipped: BackendInfo["skipped"] = [];
  for (const name of order) {
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
