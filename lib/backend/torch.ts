/**
 * The `torch` TensorFlow.js backend: tensors live in libtorch (ATen) inside a Node-API addon
 * (native/torch_backend.cc, built by scripts/setup.sh into build/torch_backend.node) and every
 * forward kernel is an ATen call. tfjs keeps autograd: its gradients are made of these same kernels,
 * except for the fused Lab* kernels (TORCH_FUSED_KERNELS), which come with their own backward kernels.
 * A tensor's values reach JavaScript only through dataSync()/data() (read/readSync below).
 *
 * Kernels not in TORCH_KERNELS are not registered, so tfjs fails with
 * "Kernel 'X' not registered for backend 'torch'" instead of silently running somewhere else.
 *
 *   COMPOSER_LAB_TORCH_ADDON    path of the compiled addon (default <root>/build/torch_backend.node)
 *   COMPOSER_LAB_TORCH_THREADS  intra-op threads (default: every core, os.availableParallelism())
 *   COMPOSER_LAB_TORCH_DEVICE   ATen device for new tensors ("cpu" default; "cuda" with a CUDA libtorch)
 *   OMP_WAIT_POLICY             set to PASSIVE unless given (see loadTorchAddonUncached)
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import * as tf from "@tensorflow/tfjs";
import { projectRoot } from "../core/index.js";

/** What the compiled addon exports (see the comment at the top of native/torch_backend.cc). */
export interface TorchAddon {
  write(values: Float32Array | Int32Array | Uint8Array, shape: number[], dtype: string): number;
  read(id: number): Float32Array | Int32Array | Uint8Array;
  free(id: number): void;
  live(): number;
  /** [id, dtypeCode, ...shape] for one output, an array of those for several. */
  call(op: string, ids: number[], args?: unknown[]): number[] | number[][];
  setThreads(n: number): void;
  setDevice(device: string): void;
  info(): { torch: string; threads: number; device: string; cuda: boolean; parallel: string };
}

export const TORCH_ADDON_ENV = "COMPOSER_LAB_TORCH_ADDON";
const DTYPES = ["float32", "int32", "bool"] as const;
type TorchDtype = (typeof DTYPES)[number];

/** Where setup puts the addon, and where it writes why it could not build one. */
export const torchAddonPath = (): string => process.env[TORCH_ADDON_ENV] || join(projectRoot(), "build", "torch_backend.node");
export const torchBuildStatusPath = (): string => join(projectRoot(), "build", "torch_backend.status");

let addon: TorchAddon | undefined;

/** Loads the addon once; throws why it is unavailable (not built, and setup's reason; or a load error). */
export function loadTorchAddon(): TorchAddon {
  return (addon ??= loadTorchAddonUncached());
}

/** Loads the addon from torchAddonPath() now (tests: a missing addon's message). */
export function loadTorchAddonUncached(): TorchAddon {
  const path = torchAddonPath();
  if (!existsSync(path)) {
    const status = existsSync(torchBuildStatusPath()) ? readFileSync(torchBuildStatusPath(), "utf8").trim() : "";
    throw new Error(`the torch addon is not built (${path} is missing)${status ? `: ${status}` : "; run `npm run setup` (scripts/setup.sh builds it)"}`);
  }
  // libgomp threads spin between parallel regions by default: on a CPU shared with other processes
  // that made a 2-thread sampling loop 30× slower than 1 thread (measured). Sleeping waiters fix it;
  // read by libgomp when libtorch loads, so it must be set before the require (and child PyTorch
  // processes inherit it, keeping bench comparisons like for like).
  process.env.OMP_WAIT_POLICY ??= "PASSIVE";
  const a = createRequire(import.meta.url)(path) as TorchAddon;
  const threads = Number(process.env.COMPOSER_LAB_TORCH_THREADS) || availableParallelism();
  a.setThreads(threads);
  if (process.env.COMPOSER_LAB_TORCH_DEVICE) a.setDevice(process.env.COMPOSER_LAB_TORCH_DEVICE);
  return a;
}

interface Handle {
  id: number;
  refCount: number;
}

export class TorchBackend extends tf.KernelBackend {
  readonly data: tf.DataStorage<Handle>;

  constructor(readonly addon: TorchAddon) {
    super();
    this.data = new tf.DataStorage(this, tf.engine());
  }

  private put(values: tf.BackendValues | null, shape: number[], dtype: tf.DataType): number {
    if (!(DTYPES as readonly string[]).includes(dtype)) throw new Error(`the torch backend has no ${dtype} tensors`);
    if (values === null) return this.addon.call("fill", [], [shape, 0, DTYPES.indexOf(dtype as TorchDtype)])[0] as number;
    const typed =
      dtype === "float32" ? (values instanceof Float32Array ? values : Float32Array.from(values as ArrayLike<number>))
      : dtype === "int32" ? (values instanceof Int32Array ? values : Int32Array.from(values as ArrayLike<number>))
      : values instanceof Uint8Array ? values : Uint8Array.from(values as ArrayLike<number>);
    return this.addon.write(typed, shape, dtype);
  }

  override write(values: tf.BackendValues, shape: number[], dtype: tf.DataType): tf.DataId {
    const dataId = {};
    this.data.set(dataId, { id: this.put(values, shape, dtype), refCount: 1 });
    return dataId;
  }

  override move(dataId: tf.DataId, values: tf.BackendValues, shape: number[], dtype: tf.DataType, refCount: number): void {
    this.data.set(dataId, { id: this.put(values, shape, dtype), refCount });
  }

  /** The addon handle of a tensor (tfjs has already moved inputs from other backends here, through `move`). */
  handle(t: tf.TensorInfo): number {
    return this.data.get(t.dataId).id;
  }

  override readSync(dataId: tf.DataId): tf.BackendValues {
    return this.addon.read(this.data.get(dataId).id);
  }

  override async read(dataId: tf.DataId): Promise<tf.BackendValues> {
    return this.readSync(dataId);
  }

  override disposeData(dataId: tf.DataId, force = false): boolean {
    if (!this.data.has(dataId)) return true;
    const h = this.data.get(dataId);
    h.refCount--;
    if (!force && h.refCount > 0) return false;
    this.addon.free(h.id);
    this.data.delete(dataId);
    return true;
  }

  override refCount(dataId: tf.DataId): number {
    return this.data.has(dataId) ? this.data.get(dataId).refCount : 0;
  }

  override incRef(dataId: tf.DataId): void {
    this.data.get(dataId).refCount++;
  }

  override numDataIds(): number {
    return this.data.numDataIds();
  }

  override memory(): { unreliable: boolean; reasons?: string[] } {
    return { unreliable: true, reasons: ["tensors live in libtorch; tfjs counts their bytes"] };
  }

  override async time(f: () => void): Promise<tf.BackendTimingInfo> {
    const t0 = performance.now();
    f(); // ATen on the CPU is synchronous: wall time is kernel time
    return { kernelMs: performance.now() - t0 };
  }

  override timerAvailable(): boolean {
    return true;
  }

  override floatPrecision(): 32 {
    return 32;
  }

  override epsilon(): number {
    return 1e-7;
  }

  override dispose(): void {
    // Called only by tf.removeBackend: handles still referenced by live tensors die with the process.
  }

  /** Runs an addon op on tensors and wraps its outputs as tfjs TensorInfos owned by this backend. */
  run(op: string, inputs: tf.TensorInfo[], args: unknown[] = []): tf.TensorInfo {
    return this.wrap(this.addon.call(op, inputs.map((t) => this.handle(t)), args) as number[]);
  }

  runMany(op: string, inputs: tf.TensorInfo[], args: unknown[] = []): tf.TensorInfo[] {
    return (this.addon.call(op, inputs.map((t) => this.handle(t)), args) as number[][]).map((o) => this.wrap(o));
  }

  private wrap(out: number[]): tf.TensorInfo {
    const dataId = {};
    this.data.set(dataId, { id: out[0]!, refCount: 1 });
    return { dataId, dtype: DTYPES[out[1]!]!, shape: out.slice(2) };
  }
}

// ---- kernels ------------------------------------------------------------------------------------

type Attrs = Record<string, unknown>;
type KernelImpl = (b: TorchBackend, inputs: tf.NamedTensorInfoMap & tf.TensorInfo[], attrs: Attrs) => tf.TensorInfo | tf.TensorInfo[];

const axes = (axis: unknown, x: tf.TensorInfo): number[] => tf.util.parseAxisParam(axis as number | number[], x.shape);
const dtypeCode = (d: unknown): number => {
  const i = DTYPES.indexOf(d as TorchDtype);
  if (i < 0) throw new Error(`dtype ${String(d)} is not supported by the torch backend`);
  return i;
};

const list = (inputs: tf.NamedTensorInfoMap & tf.TensorInfo[]): tf.TensorInfo[] => inputs as unknown as tf.TensorInfo[];
const binary = (op: string): KernelImpl => (b, { a, b: y }) => b.run(op, [a!, y!]);
const unary = (op: string, input = "x"): KernelImpl => (b, inputs) => b.run(op, [inputs[input]!]);
const reduce = (op: string, axisAttr = "axis"): KernelImpl => (b, { x }, attrs) => b.run(op, [x!], [axes(attrs[axisAttr], x!), !!attrs.keepDims]);

/**
/** tfjs kernel name → implementation. Everything the lab's Policy, losses, sampling and Adam use, and their gradients. */
export const TORCH_KERNELS: Record<string, KernelImpl> = {
  Add: binary("add"),
  Sub: binary("sub"),
  Multiply: binary("mul"),
  RealDiv: binary("div"),
  FloorDiv: binary("floordiv"),
  Mod: binary("mod"),
  Maximum: binary("maximum"),
  Minimum: binary("minimum"),
  Pow: binary("pow"),
  SquaredDifference: binary("sqdiff"),
  Greater: binary("gt"),
  GreaterEqual: binary("ge"),
  Less: binary("lt"),
  LessEqual: binary("le"),
  Equal: binary("eq"),
  NotEqual: binary("ne"),
  LogicalAnd: binary("and"),
  LogicalOr: binary("or"),
  Select: (b, { condition, t, e }) => b.run("where", [condition!, t!, e!]),
  AddN: (b, inputs) => b.run("addn", inputs as unknown as tf.TensorInfo[]),

  Identity: unary("identity"),
  Neg: unary("neg"),
  Exp: unary("exp"),
  Log: unary("log"),
  Log1p: unary("log1p"),
  Sqrt: unary("sqrt"),
  Rsqrt: unary("rsqrt"),
  Square: unary("square"),
  Abs: unary("abs"),
  Sign: unary("sign"),
  Floor: unary("floor"),
  Ceil: unary("ceil"),
  Reciprocal: unary("reciprocal"),
  Tanh: unary("tanh"),
  Sigmoid: unary("sigmoid"),
  Relu: unary("relu"),
  Erf: unary("erf"),
  Softplus: unary("softplus"),
  LogicalNot: unary("not"),
  IsNan: unary("isnan"),
  ZerosLike: unary("zeroslike"),
  OnesLike: unary("oneslike"),
  Cast: (b, { x }, { dtype }) => b.run("cast", [x!], [dtypeCode(dtype)]),
  ClipByValue: (b, { x }, { clipValueMin, clipValueMax }) => b.run("clip", [x!], [clipValueMin, clipValueMax]),
  Fill: (b, _, { shape, value, dtype }) => b.run("fill", [], [shape, value, dtypeCode(dtype ?? "float32")]),
  Range: (b, _, { start, stop, step, dtype }) => {
    const n = Math.max(0, Math.ceil(((stop as number) - (start as number)) / (step as number)));
    const values = dtype === "int32" ? new Int32Array(n) : new Float32Array(n);
    for (let i = 0; i < n; i++) values[i] = (start as number) + i * (step as number);
    return { dataId: b.write(values, [n], dtype as tf.DataType), shape: [n], dtype: dtype as tf.DataType };
  },

  Sum: reduce("sum"),
  Mean: reduce("mean"),
  Max: reduce("max", "reductionIndices"),
  Min: reduce("min"),
  Prod: reduce("prod"),
  Any: reduce("any"),
  All: reduce("all"),
  ArgMax: (b, { x }, { axis }) => b.run("argmax", [x!], [axes(axis, x!)[0]]),
  ArgMin: (b, { x }, { axis }) => b.run("argmin", [x!], [axes(axis, x!)[0]]),
  Cumsum: (b, { x }, { axis, exclusive, reverse }) => b.run("cumsum", [x!], [axes(axis, x!)[0], !!exclusive, !!reverse]),

  Reshape: (b, { x }, { shape }) => b.run("reshape", [x!], [tf.util.inferFromImplicitShape(shape as number[], tf.util.sizeFromShape(x!.shape))]),
  Transpose: (b, { x }, { perm }) => b.run("transpose", [x!], [perm]),
  ExpandDims: (b, { input }, { dim }) => b.run("expanddims", [input!], [dim]),
  Slice: (b, { x }, { begin, size }) => {
    const [$begin, $size] = tf.slice_util.parseSliceParams(x!, begin as number[], size as number[]);
    return b.run("slice", [x!], [$begin, $size]);
  },
  Concat: (b, inputs, { axis }) => {
    const list = inputs as unknown as tf.TensorInfo[];
    return b.run("concat", list, [axes(axis, list[0]!)[0]]);
  },
  Pack: (b, inputs, { axis }) => b.run("stack", inputs as unknown as tf.TensorInfo[], [axis]),
  Unpack: (b, { value }, { axis }) => b.runMany("unstack", [value!], [axes(axis, value!)[0]]),
  SplitV: (b, { x }, { numOrSizeSplits, axis }) => {
    const ax = axes(axis, x!)[0]!;
    return b.runMany("split", [x!], [tf.backend_util.prepareSplitSize(x!, numOrSizeSplits as number[] | number, ax), ax]);
  },
  Tile: (b, { x }, { reps }) => b.run("tile", [x!], [reps]),
  Reverse: (b, { x }, { dims }) => b.run("reverse", [x!], [axes(dims, x!)]),
  PadV2: (b, { x }, { paddings, constantValue }) => b.run("pad", [x!], [(paddings as number[][]).flat(), constantValue]),
  GatherV2: (b, { x, indices }, { axis, batchDims }) => {
    if (batchDims) throw new Error(`GatherV2 with batchDims ${String(batchDims)} is not implemented by the torch backend`);
    return b.run("gather", [x!, indices!], [axes(axis, x!)[0]]);
  },
  OneHot: (b, { indices }, { depth, onValue, offValue, dtype }) => b.run("onehot", [indices!], [depth, onValue, offValue, dtypeCode(dtype ?? "int32")]),
  UnsortedSegmentSum: (b, { x, segmentIds }, { numSegments }) => b.run("unsortedsegmentsum", [x!, segmentIds!], [numSegments]),

  BatchMatMul: (b, { a, b: y }, { transposeA, transposeB }) => b.run("matmul", [a!, y!], [!!transposeA, !!transposeB]),
  Softmax: (b, { logits }, { dim }) => b.run("softmax", [logits!], [dim]),
  TopK: (b, { x }, { k, sorted }) => b.runMany("topk", [x!], [k, sorted !== false]),
};

/**
 * The fused kernels (not tfjs's own: lib/train/ops.ts calls them through fusedOps(), each with its
 * backward kernel); checked against tfjs compositions on the cpu backend by test/backend-fused.test.ts.
 */
export const TORCH_FUSED_KERNELS: Record<string, KernelImpl> = {
  LabLayerNorm: (b, inputs) => b.runMany("layernorm", list(inputs)),
  LabLayerNormGrad: (b, inputs) => b.runMany("layernorm_grad", list(inputs)),
  LabGelu: (b, inputs) => b.run("gelu", list(inputs)),
  LabGeluGrad: (b, inputs) => b.run("gelu_grad", list(inputs)),
  LabLinear: (b, inputs, { transposeW }) => b.run("linear", list(inputs), [!!transposeW]),
  LabLinearGrad: (b, inputs, { transposeW, hasBias }) => b.runMany("linear_grad", list(inputs), [!!transposeW, !!hasBias]),
  LabEmbed: (b, inputs) => b.run("embed", list(inputs)),
  LabEmbedGrad: (b, inputs, { rows }) => b.run("embed_grad", list(inputs), [rows]),
  LabAttention: (b, inputs, { scale }) => b.runMany("attention", list(inputs), [scale]),
  LabAttentionGrad: (b, inputs, { scale }) => b.runMany("attention_grad", list(inputs), [scale]),
  LabCausalAttention: (b, inputs, { nHead }) => b.runMany("causal_attention", list(inputs), [nHead]),
  LabCausalAttentionGrad: (b, inputs, { nHead }) => b.run("causal_attention_grad", list(inputs), [nHead]),
  LabTokenLogprobs: (b, inputs) => b.runMany("token_logprobs", list(inputs)),
  LabTokenLogprobsGrad: (b, inputs) => b.run("token_logprobs_grad", list(inputs)),
  LabAdam: (b, inputs, { lr, beta1, beta2, epsilon, correction1, correction2 }) => b.runMany("adam", list(inputs), [lr, beta1, beta2, epsilon, correction1, correction2]),
  LabPolicyStep: (b, inputs, { nLayer, nHead, hasPast, sampling, capacity }) => b.runMany("policy_step", list(inputs), [nLayer, nHead, !!hasPast, sampling ?? null, capacity ?? 0]),
};

let registered = false;

/** Registers the backend and its kernels with tfjs (once); throws why the addon is unavailable. */
export function registerTorchBackend(): TorchAddon {
  const a = loadTorchAddon();
  if (registered) return a;
  tf.registerBackend("torch", () => new TorchBackend(a), 1);
  for (const [kernelName, impl] of [...Object.entries(TORCH_KERNELS), ...Object.entries(TORCH_FUSED_KERNELS)]) {
    tf.registerKernel({
      kernelName,
      backendName: "torch",
      kernelFunc: ({ inputs, attrs, backend }) => impl(backend as TorchBackend, inputs as tf.NamedTensorInfoMap & tf.TensorInfo[], attrs as Attrs),
    });
  }
  registered = true;
  return a;
}
