import { Command } from "commander";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { BACKEND_ENV, envBackend, initBackend, loadTorchAddon, parseBackend, tf, withBackend } from "../lib/backend/index.js";
import { TORCH_ADDON_ENV, loadTorchAddonUncached } from "../lib/backend/torch.js";
import { backendOption, resolveBackend } from "../lib/cli/backend.js";
import { cli, oneJson } from "./helpers.js";

const savedEnv = process.env[BACKEND_ENV];
beforeAll(() => {
  delete process.env[BACKEND_ENV]; // the default order, whatever the caller's shell says
});
afterAll(() => {
  if (savedEnv !== undefined) process.env[BACKEND_ENV] = savedEnv;
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("TensorFlow.js backend choice", () => {
  // First in the file: initBackend() is idempotent per process.
  it("the default order picks torch where setup built its addon (else wasm, saying why), with tensorflow skipped and why", async () => {
    let torchWhy = "";
    try {
      loadTorchAddon();
    } catch (e) {
      torchWhy = (e as Error).message;
    }
    const info = await initBackend();
    expect(info.skipped[0]!.name).toBe("tensorflow");
    expect(info.skipped[0]!.why).toMatch(/tfjs-node.*is importable/);
    if (!torchWhy) {
      expect(info.name).toBe("torch");
      expect(info.provider).toMatch(/^composer-lab torch addon \(libtorch \d+\.\d+/);
      expect(info.skipped.map((s) => s.name)).toEqual(["tensorflow"]);
    } else {
      expect(info.name).toBe("wasm");
      expect(info.provider).toBe("@tensorflow/tfjs-backend-wasm");
      expect(info.skipped.map((s) => s.name)).toEqual(["tensorflow", "torch", "webgpu"]);
      expect(info.skipped[1]!.why).toBe(torchWhy);
      expect(info.skipped[2]!.why).toMatch(/^no WebGPU adapter: navigator\.gpu is absent/);
    }
    expect(tf.getBackend()).toBe(info.name);
    // idempotent: a second call (no preference) keeps the choice
    expect(await initBackend()).toBe(info);
  });

  it("the torch backend reports why when its addon is missing", async () => {
    const saved = process.env[TORCH_ADDON_ENV];
    process.env[TORCH_ADDON_ENV] = "/nonexistent/torch_backend.node";
    try {
      expect(() => loadTorchAddonUncached()).toThrow(/the torch addon is not built \(\/nonexistent\/torch_backend\.node is missing\)/);
    } finally {
      if (saved === undefined) delete process.env[TORCH_ADDON_ENV];
      else process.env[TORCH_ADDON_ENV] = saved;
    }
  });

  it('initBackend("cpu") switches to cpu and computes', async () => {
    const info = await initBackend("cpu");
    expect(info).toMatchObject({ name: "cpu", provider: "@tensorflow/tfjs", skipped: [] });
    expect(tf.getBackend()).toBe("cpu");
    expect(Array.from(tf.matMul(tf.tensor2d([[1, 2]]), tf.tensor2d([[3], [4]])).dataSync())).toEqual([11]);
  });

  it('initBackend("webgpu") is an error naming why, not a fallback', async () => {
    const before = tf.getBackend();
    await expect(initBackend("webgpu")).rejects.toThrow(/TensorFlow\.js backend "webgpu" could not be started: no WebGPU adapter: navigator\.gpu is absent/);
    expect(tf.getBackend()).toBe(before);
    await expect(withBackend("webgpu", async () => 1)).rejects.toThrow(/no WebGPU adapter/);
    // Node has no navigator.gpu: the webgpu package's dawn.node was asked, and said why not
    await expect(initBackend("webgpu")).rejects.toThrow(/dawn\.node.*(found none|does not load)/);
  });

  it("WebGPU is tried only when navigator.gpu yields an adapter", async () => {
    const g = globalThis as { navigator?: unknown };
    const had = Object.getOwnPropertyDescriptor(globalThis, "navigator");
    Object.defineProperty(globalThis, "navigator", { value: { gpu: { requestAdapter: async () => null } }, configurable: true });
    try {
      await expect(initBackend("webgpu")).rejects.toThrow(/requestAdapter\(\) returned null/);
    } finally {
      if (had) Object.defineProperty(globalThis, "navigator", had);
      else delete g.navigator;
    }
  });

  it("COMPOSER_LAB_BACKEND is the default preference; unknown names are rejected", async () => {
    expect(envBackend({})).toBeUndefined();
    expect(envBackend({ [BACKEND_ENV]: "CPU" })).toBe("cpu");
    expect(() => envBackend({ [BACKEND_ENV]: "metal" })).toThrow(/unknown TensorFlow\.js backend in COMPOSER_LAB_BACKEND "metal" \(known: auto, tensorflow, torch, webgpu, wasm, cpu\)/);
    expect(() => parseBackend("gpu")).toThrow(/known: auto, tensorflow, torch, webgpu, wasm, cpu/);
    process.env[BACKEND_ENV] = "wasm";
    try {
      expect((await initBackend()).name).toBe("wasm");
      process.env[BACKEND_ENV] = "webgpu";
      await expect(initBackend()).rejects.toThrow(/"webgpu" could not be started/);
    } finally {
      delete process.env[BACKEND_ENV];
    }
  });

  it("doctor --json says for each backend, in the default order, whether it starts and why not", () => {
    const r = cli(["doctor", "--json"]);
    const out = oneJson(r.stdout);
    const backends = out.backends as { name: string; usable: boolean; provider?: string; why?: string }[];
    expect(backends.map((b) => b.name)).toEqual(["tensorflow", "torch", "webgpu", "wasm", "cpu"]);
    for (const b of backends) expect(b.usable ? b.provider : b.why, b.name).toMatch(/\S/);
    expect(backends.find((b) => b.name === "wasm")).toMatchObject({ usable: true, provider: "@tensorflow/tfjs-backend-wasm" });
    expect(backends.find((b) => b.name === "webgpu")!.why).toMatch(/no WebGPU adapter/);
    let torchWhy = "";
    try {
      loadTorchAddon();
    } catch (e) {
      torchWhy = (e as Error).message;
    }
    expect(backends.find((b) => b.name === "torch")).toMatchObject(torchWhy ? { usable: false, why: torchWhy } : { usable: true });
  });

  it("resolveBackend logs the choice to stderr", async () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((s: string | Uint8Array) => (lines.push(String(s)), true));
    const info = await resolveBackend({ backend: "cpu" });
    expect(info.name).toBe("cpu");
    expect(lines.join("")).toMatch(/^backend: cpu \(@tensorflow\/tfjs\)$/m);
  });
});

describe("--backend option", () => {
  const parse = (argv: string[], env?: string) => {
    if (env === undefined) delete process.env[BACKEND_ENV];
    else process.env[BACKEND_ENV] = env;
    try {
      const cmd = new Command("x").exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} }).addOption(backendOption()).action(() => {});
      cmd.parse(argv, { from: "user" });
      return cmd.opts<{ backend?: string }>().backend;
    } finally {
      delete process.env[BACKEND_ENV];
    }
  };

  it("accepts the known names, defaults to $COMPOSER_LAB_BACKEND, and a flag beats the env", () => {
    expect(parse([])).toBeUndefined();
    expect(parse(["--backend", "wasm"])).toBe("wasm");
    expect(parse(["--backend", "auto"])).toBe("auto");
    expect(parse([], "cpu")).toBe("cpu");
    expect(parse(["--backend", "wasm"], "cpu")).toBe("wasm");
  });

  it("rejects unknown names with the known ones", () => {
    expect(() => parse(["--backend", "cuda"])).toThrow(/unknown TensorFlow\.js backend "cuda" \(known: auto, tensorflow, torch, webgpu, wasm, cpu\)/);
    expect(() => parse([], "cuda")).toThrow(/COMPOSER_LAB_BACKEND.*unknown TensorFlow\.js backend "cuda"/);
  });

  it("the real CLI rejects an unknown --backend with one JSON error", () => {
    const r = cli(["bench", "train", "--backend", "cuda", "--json"]);
    expect(r.code).not.toBe(0);
    const out = oneJson(r.stdout);
    expect(out.ok).toBe(false);
    expect(out.error).toMatch(/unknown TensorFlow\.js backend "cuda" \(known: auto, tensorflow, torch, webgpu, wasm, cpu\)/);
  });
});
