// Node-API addon behind the `torch` TensorFlow.js backend (lib/backend/torch.ts): a table of
// at::Tensor handles plus ATen primitives called by id. The TypeScript side maps each tfjs kernel
// (its attrs and dtype rules) onto these primitives; tensors stay here until read() copies them out.
//
//   write(typedArray, shape, dtype) -> id        read(id) -> typed array (a copy)
//   free(id)                                      live() -> number of handles held
//   call(op, ids[], args[]) -> [id, dtype, ...shape] | array of those (multi-output ops)
//   info() -> { torch, threads, device, cuda }    setThreads(n)
//
// dtype codes: 0 float32, 1 int32, 2 bool (tfjs' three numeric dtypes). ATen results in int64 or
// float64 are narrowed to int32 / float32 so that tfjs sees the dtypes its kernels promise.
#include <napi.h>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>
#include <c10/util/Exception.h>
#include <torch/version.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#define LAB_X86_64 1
#endif

namespace {

std::vector<at::Tensor> slots;
std::vector<int32_t> freeSlots;
int64_t liveCount = 0;
at::Device device(at::kCPU);

at::ScalarType scalarOf(int code) {
  switch (code) {
    case 0: return at::kFloat;
    case 1: return at::kInt;
    case 2: return at::kBool;
  }
  throw std::runtime_error("unknown dtype code " + std::to_string(code));
}

int codeOf(at::ScalarType t) {
  switch (t) {
    case at::kFloat: return 0;
    case at::kInt: return 1;
    case at::kBool: return 2;
    default: throw std::runtime_error(std::string("result dtype ") + c10::toString(t) + " has no tfjs dtype");
  }
}

int dtypeCodeOfName(const std::string& s) {
  if (s == "float32") return 0;
  if (s == "int32") return 1;
  if (s == "bool") return 2;
  throw std::runtime_error("dtype " + s + " is not supported by the torch backend");
}

at::Tensor normalize(at::Tensor t) {
  if (t.scalar_type() == at::kLong) return t.to(at::kInt);
  if (t.scalar_type() == at::kDouble) return t.to(at::kFloat);
  return t;
}

int32_t store(at::Tensor t) {
  int32_t id;
  if (!freeSlots.empty()) {
    id = freeSlots.back();
    freeSlots.pop_back();
    slots[id] = std::move(t);
  } else {
    id = static_cast<int32_t>(slots.size());
    slots.push_back(std::move(t));
  }
  ++liveCount;
  return id;
}

const at::Tensor& get(int32_t id) {
  if (id < 0 || static_cast<size_t>(id) >= slots.size() || !slots[id].defined()) throw std::runtime_error("unknown tensor handle " + std::to_string(id));
  return slots[id];
}

Napi::Array describe(Napi::Env env, at::Tensor t) {
  t = normalize(std::move(t));
  auto sizes = t.sizes().vec();
  int code = codeOf(t.scalar_type());
  Napi::Array out = Napi::Array::New(env, 2 + sizes.size());
  out.Set(uint32_t(1), Napi::Number::New(env, code));
  for (size_t i = 0; i < sizes.size(); ++i) out.Set(uint32_t(2 + i), Napi::Number::New(env, double(sizes[i])));
  out.Set(uint32_t(0), Napi::Number::New(env, store(std::move(t))));
  return out;
}

// ---- argument helpers -----------------------------------------------------------------------

struct Args {
  const Napi::Array& a;
  std::string op;
  Napi::Value at(uint32_t i) const {
    if (i >= a.Length()) throw std::runtime_error(op + ": missing argument " + std::to_string(i));
    return a.Get(i);
  }
  double num(uint32_t i) const { return at(i).As<Napi::Number>().DoubleValue(); }
  int64_t i64(uint32_t i) const { return static_cast<int64_t>(num(i)); }
  bool flag(uint32_t i) const { return at(i).ToBoolean().Value(); }
  std::string str(uint32_t i) const { return at(i).As<Napi::String>().Utf8Value(); }
  bool has(uint32_t i) const { return i < a.Length() && !a.Get(i).IsNull() && !a.Get(i).IsUndefined(); }
  std::vector<double> nums(uint32_t i) const {
    Napi::Array arr = at(i).As<Napi::Array>();
    std::vector<double> v(arr.Length());
    for (uint32_t k = 0; k < arr.Length(); ++k) v[k] = arr.Get(k).As<Napi::Number>().DoubleValue();
    return v;
  }
  std::vector<int64_t> ints(uint32_t i) const {
    Napi::Array arr = at(i).As<Napi::Array>();
    std::vector<int64_t> v(arr.Length());
    for (uint32_t k = 0; k < arr.Length(); ++k) v[k] = static_cast<int64_t>(arr.Get(k).As<Napi::Number>().DoubleValue());
    return v;
  }
};

using Tensors = std::vector<at::Tensor>;
using Op = std::function<Tensors(const Tensors&, const Args&)>;

Tensors one(at::Tensor t) { return Tensors{std::move(t)}; }

at::Tensor reduceEach(at::Tensor x, std::vector<int64_t> axes, bool keep, at::Tensor (*f)(const at::Tensor&, int64_t, bool)) {
  std::sort(axes.rbegin(), axes.rend());  // highest axis first so the others keep their index
  for (int64_t ax : axes) x = f(x, ax, keep);
  return x;
}

at::Tensor anyDim(const at::Tensor& x, int64_t d, bool k) { return at::any(x, d, k); }
at::Tensor allDim(const at::Tensor& x, int64_t d, bool k) { return at::all(x, d, k); }
at::Tensor prodDim(const at::Tensor& x, int64_t d, bool k) { return at::prod(x, d, k); }

// ---- fused kernels (lib/backend/fused.ts) -----------------------------------------------------
// Each is what the Policy's tfjs composition computes, in one call: the forward returns what its
// backward needs (layer norm's mean and 1/std, attention's probabilities, the log-sum-exp), and the
// backward takes it back. The model code picks these or the tfjs compositions once (fusedOps()).

constexpr double kLnEps = 1e-5;

// x [..., in] · w [in, out] (w [out, in] when transposed) + b [out] (b undefined: no bias).
at::Tensor linearFwd(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b, bool transW) {
  int64_t in = x.size(-1);
  at::Tensor W = transW ? w.t() : w;
  at::Tensor x2 = x.reshape({-1, in});
  at::Tensor y = b.defined() ? at::addmm(b, x2, W) : at::mm(x2, W);
  auto shape = x.sizes().vec();
  shape.back() = W.size(1);
  return y.view(shape);
}

// softmax(q kᵀ · scale + bias) v; q [B, H, t, hd], k/v [B, H, Tk, hd], bias broadcastable to [B, H, t, Tk].
at::Tensor attentionProbs(const at::Tensor& q, const at::Tensor& k, const at::Tensor& bias, double scale) {
  // the scale on q (t × hd) rather than on the scores (t × Tk): one pass less over the largest tensor
  at::Tensor s = at::matmul(q * scale, k.transpose(-2, -1));
  if (bias.defined()) s.add_(bias);
  return at::softmax(s, -1);
}

// Causal self-attention on the fused projection, the training case (lib/train/ops.ts causalAttention):
// qkv [B, T, 3·D] (columns: q, k, v, each D = H·hd wide, head h at h·hd) -> y [B, T, D] with
// y = softmax(q kᵀ / √hd + causal mask) v per head. The head split and merge are done here, and the
// queries go in blocks of kCausalBlock rows, each against the keys up to its last row only: the
// blocks above the diagonal (all masked, probability exactly 0) are neither computed nor stored, so
// the products and the softmax cost about half the full T × T square at T = 256. The probabilities
// of block j ([B·H, rows_j, end_j]) are packed one after another in one flat tensor.
constexpr int64_t kCausalBlock = 64;

struct CausalBlocks {
  int64_t BH, T, n;
  int64_t start(int64_t j) const { return j * kCausalBlock; }
  int64_t rows(int64_t j) const { return std::min(kCausalBlock, T - start(j)); }
  int64_t end(int64_t j) const { return start(j) + rows(j); }
  int64_t offset(int64_t j) const {  // elements of the blocks before j
    int64_t o = 0;
    for (int64_t i = 0; i < j; ++i) o += BH * rows(i) * end(i);
    return o;
  }
  at::Tensor probs(const at::Tensor& packed, int64_t j) const { return packed.narrow(0, offset(j), BH * rows(j) * end(j)).view({BH, rows(j), end(j)}); }
};

CausalBlocks causalBlocks(int64_t BH, int64_t T) { return CausalBlocks{BH, T, (T + kCausalBlock - 1) / kCausalBlock}; }

// [qkv] args [H] -> [y [B, T, D], heads [3, B·H, T, hd] (q already scaled by 1/√hd, k, v), packed probs]
Tensors causalAttention(const at::Tensor& qkv, int64_t H) {
  int64_t B = qkv.size(0), T = qkv.size(1), D = qkv.size(2) / 3, hd = D / H, BH = B * H;
  if (qkv.dim() != 3 || qkv.size(2) != 3 * D || D != H * hd) throw std::runtime_error("causal_attention: qkv must be [B, T, 3·D] with D divisible by the heads");
  // one copy into head-major order; q scaled in place (the small operand, not the T × T scores)
  at::Tensor heads = qkv.view({B, T, 3, H, hd}).permute({2, 0, 3, 1, 4}).contiguous().view({3, BH, T, hd});
  at::Tensor q = heads[0], k = heads[1], v = heads[2];
  q.mul_(1.0 / std::sqrt(double(hd)));
  CausalBlocks blk = causalBlocks(BH, T);
  at::Tensor packed = at::empty({blk.offset(blk.n)}, qkv.options());
  at::Tensor yh = at::empty({BH, T, hd}, qkv.options());
  at::Tensor mask = at::triu(at::full({kCausalBlock, kCausalBlock}, -1e9, qkv.options()), 1);  // the diagonal block
  for (int64_t j = 0; j < blk.n; ++j) {
    int64_t s = blk.start(j), r = blk.rows(j), e = blk.end(j);
    at::Tensor scores = at::bmm(q.narrow(1, s, r), k.narrow(1, 0, e).transpose(1, 2));  // [BH, r, e]
    scores.narrow(2, s, r).add_(mask.narrow(0, 0, r).narrow(1, 0, r));
    at::Tensor p = blk.probs(packed, j);
    at::_softmax_out(p, scores, -1, false);
    at::Tensor out = yh.narrow(1, s, r);
    at::bmm_out(out, p, v.narrow(1, 0, e));
  }
  at::Tensor y = yh.view({B, H, T, hd}).transpose(1, 2).reshape({B, T, D});
  return Tensors{y, heads, packed};
}

// [dy [B, T, D], heads, packed probs] args [H] -> d qkv [B, T, 3·D]
at::Tensor causalAttentionGrad(const at::Tensor& dy, const at::Tensor& heads, const at::Tensor& packed, int64_t H) {
  int64_t B = dy.size(0), T = dy.size(1), D = dy.size(2), hd = D / H, BH = B * H;
  double scale = 1.0 / std::sqrt(double(hd));
  at::Tensor q = heads[0], k = heads[1], v = heads[2];  // q holds q·scale
  at::Tensor g = dy.reshape({B, T, H, hd}).permute({0, 2, 1, 3}).contiguous().view({BH, T, hd});
  at::Tensor dheads = at::zeros({3, BH, T, hd}, dy.options());
  at::Tensor dq = dheads[0], dk = dheads[1], dv = dheads[2];
  CausalBlocks blk = causalBlocks(BH, T);
  for (int64_t j = 0; j < blk.n; ++j) {
    int64_t s = blk.start(j), r = blk.rows(j), e = blk.end(j);
    at::Tensor p = blk.probs(packed, j);  // [BH, r, e]
    at::Tensor gj = g.narrow(1, s, r);
    dv.narrow(1, 0, e).baddbmm_(p.transpose(1, 2), gj);
    at::Tensor ds = at::_softmax_backward_data(at::bmm(gj, v.narrow(1, 0, e).transpose(1, 2)), p, -1, p.scalar_type());
    // scores = (q·scale) kᵀ: dq = scale · ds k, dk = dsᵀ (q·scale)
    dq.narrow(1, s, r).baddbmm_(ds, k.narrow(1, 0, e), 1, scale);
    dk.narrow(1, 0, e).baddbmm_(ds.transpose(1, 2), q.narrow(1, s, r));
  }
  return dheads.view({3, B, H, T, hd}).permute({1, 3, 0, 2, 4}).reshape({B, T, 3 * D});
}

// GELU, tanh approximation: y = ½x(1 + tanh u), u = √(2/π)(x + 0.044715x³). ½(1 + tanh u) is the
// logistic σ(2u), so y = x σ(2u) and dy/dx = σ + 2x σ(1 − σ) u'. On x86-64 with AVX2 + FMA (checked at
// run time) one pass with a Cephes-style exp (relative error ≈ 1e-7), 8 floats at a time: the
// libtorch tanh this replaces took ≈ 2.5 ns an element, 4–6× the pass itself. Elsewhere (other CPUs,
// the tail of a row, other dtypes, CUDA) the same formula with std::exp, or ATen's own gelu.
namespace gelu {
constexpr float kC = 0.7978845608028654f;  // √(2/π)
constexpr float kA = 0.044715f;

inline float sigma2u(float x, float& du) {
  du = kC * (1.f + 3.f * kA * x * x);
  float z = -2.f * kC * (x + kA * x * x * x);
  return 1.f / (1.f + std::exp(std::min(z, 88.f)));
}
void forwardScalar(const float* x, float* y, int64_t n) {
  float du;
  for (int64_t i = 0; i < n; ++i) y[i] = x[i] * sigma2u(x[i], du);
}
void backwardScalar(const float* dy, const float* x, float* dx, int64_t n) {
  float du;
  for (int64_t i = 0; i < n; ++i) {
    float s = sigma2u(x[i], du);
    dx[i] = dy[i] * (s + 2.f * x[i] * s * (1.f - s) * du);
  }
}

#ifdef LAB_X86_64
__attribute__((target("avx2,fma"))) inline __m256 exp8(__m256 x) {
  x = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(-87.f)), _mm256_set1_ps(88.f));
  __m256 fx = _mm256_floor_ps(_mm256_fmadd_ps(x, _mm256_set1_ps(1.44269504088896341f), _mm256_set1_ps(0.5f)));
  x = _mm256_fnmadd_ps(fx, _mm256_set1_ps(0.693359375f), x);
  x = _mm256_fnmadd_ps(fx, _mm256_set1_ps(-2.12194440e-4f), x);
  __m256 p = _mm256_set1_ps(1.9875691500e-4f);
  p = _mm256_fmadd_ps(p, x, _mm256_set1_ps(1.3981999507e-3f));
  p = _mm256_fmadd_ps(p, x, _mm256_set1_ps(8.3334519073e-3f));
  p = _mm256_fmadd_ps(p, x, _mm256_set1_ps(4.1665795894e-2f));
  p = _mm256_fmadd_ps(p, x, _mm256_set1_ps(1.6666665459e-1f));
  p = _mm256_fmadd_ps(p, x, _mm256_set1_ps(5.0000001201e-1f));
  p = _mm256_fmadd_ps(p, _mm256_mul_ps(x, x), _mm256_add_ps(x, _mm256_set1_ps(1.f)));
  __m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvttps_epi32(fx), _mm256_set1_epi32(127)), 23);
  return _mm256_mul_ps(p, _mm256_castsi256_ps(e));
}
// σ(2u) and u' for 8 elements
__attribute__((target("avx2,fma"))) inline __m256 sigma2u8(__m256 x, __m256& du) {
  __m256 x2 = _mm256_mul_ps(x, x);
  du = _mm256_mul_ps(_mm256_set1_ps(kC), _mm256_fmadd_ps(_mm256_set1_ps(3.f * kA), x2, _mm256_set1_ps(1.f)));
  __m256 z = _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(-2.f * kC), x), _mm256_fmadd_ps(_mm256_set1_ps(kA), x2, _mm256_set1_ps(1.f)));
  return _mm256_div_ps(_mm256_set1_ps(1.f), _mm256_add_ps(_mm256_set1_ps(1.f), exp8(z)));
}
__attribute__((target("avx2,fma"))) void forwardAvx2(const float* x, float* y, int64_t n) {
  int64_t i = 0;
  __m256 du;
  for (; i + 8 <= n; i += 8) {
    __m256 v = _mm256_loadu_ps(x + i);
    _mm256_storeu_ps(y + i, _mm256_mul_ps(v, sigma2u8(v, du)));
  }
  forwardScalar(x + i, y + i, n - i);
}
__attribute__((target("avx2,fma"))) void backwardAvx2(const float* dy, const float* x, float* dx, int64_t n) {
  int64_t i = 0;
  __m256 du;
  for (; i + 8 <= n; i += 8) {
    __m256 v = _mm256_loadu_ps(x + i);
    __m256 s = sigma2u8(v, du);
    __m256 ds = _mm256_mul_ps(_mm256_mul_ps(_mm256_add_ps(v, v), _mm256_mul_ps(s, _mm256_sub_ps(_mm256_set1_ps(1.f), s))), du);
    _mm256_storeu_ps(dx + i, _mm256_mul_ps(_mm256_loadu_ps(dy + i), _mm256_add_ps(s, ds)));
  }
  backwardScalar(dy + i, x + i, dx + i, n - i);
}
bool avx2() {
  static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return yes;
}
#else
bool avx2() { return false; }
void forwardAvx2(const float* x, float* y, int64_t n) { forwardScalar(x, y, n); }
void backwardAvx2(const float* dy, const float* x, float* dx, int64_t n) { backwardScalar(dy, x, dx, n); }
#endif

bool own(const at::Tensor& t) { return t.device().is_cpu() && t.scalar_type() == at::kFloat; }
constexpr int64_t kGrain = 1 << 15;

at::Tensor forward(const at::Tensor& x) {
  if (!own(x)) return at::gelu(x, "tanh");
  at::Tensor xc = x.contiguous();
  at::Tensor y = at::empty_like(xc);
  const float* px = xc.data_ptr<float>();
  float* py = y.data_ptr<float>();
  bool fast = avx2();
  at::parallel_for(0, xc.numel(), kGrain, [&](int64_t b, int64_t e) { (fast ? forwardAvx2 : forwardScalar)(px + b, py + b, e - b); });
  return y;
}

at::Tensor backward(const at::Tensor& dy, const at::Tensor& x) {
  if (!own(x) || !own(dy) || dy.sizes() != x.sizes()) return at::gelu_backward(dy, x, "tanh");
  at::Tensor xc = x.contiguous(), gc = dy.contiguous();
  at::Tensor dx = at::empty_like(xc);
  const float *px = xc.data_ptr<float>(), *pg = gc.data_ptr<float>();
  float* pd = dx.data_ptr<float>();
  bool fast = avx2();
  at::parallel_for(0, xc.numel(), kGrain, [&](int64_t b, int64_t e) { (fast ? backwardAvx2 : backwardScalar)(pg + b, px + b, pd + b, e - b); });
  return dx;
}
}  // namespace gelu

at::Tensor layerNorm(const at::Tensor& x, const at::Tensor& g, const at::Tensor& b) {
  return std::get<0>(at::native_layer_norm(x, {x.size(-1)}, g, b, kLnEps));
}

// One draw per row from logits [B, V] (float, CPU), the lab's rules (lib/backend/fused.ts
// drawToken): most likely first with ties by id, top-k, then softmax(l / T) over what is left, then
// the smallest prefix whose mass reaches top_p, then the token where u · mass falls; temperature 0:
// the first argmax. Also log_softmax(l)[token] (untempered), in double.
void sampleRows(const at::Tensor& logits, double temperature, int64_t topK, double topP, const std::vector<double>& u, at::Tensor& tokens, at::Tensor& logprobs) {
  at::Tensor l = logits.to(at::kCPU).to(at::kFloat).contiguous();
  int64_t B = l.size(0), V = l.size(1);
  if (temperature > 0 && int64_t(u.size()) < B) throw std::runtime_error("sampling needs one uniform per row (" + std::to_string(u.size()) + " for " + std::to_string(B) + ")");
  tokens = at::empty({B}, at::TensorOptions().dtype(at::kInt));
  logprobs = at::empty({B}, at::TensorOptions().dtype(at::kFloat));
  const float* data = l.data_ptr<float>();
  int32_t* tok = tokens.data_ptr<int32_t>();
  float* lp = logprobs.data_ptr<float>();
  std::vector<int64_t> order(V);
  std::vector<double> p;
  for (int64_t r = 0; r < B; ++r) {
    const float* row = data + r * V;
    int64_t pick = 0;
    if (temperature <= 0) {
      for (int64_t i = 1; i < V; ++i) if (row[i] > row[pick]) pick = i;
    } else {
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [row](int64_t a, int64_t b) { return row[a] > row[b]; });
      int64_t n = topK > 0 ? std::min<int64_t>(topK, V) : V;
      double m = row[order[0]];
      p.assign(size_t(n), 0.0);
      double total = 0;
      for (int64_t i = 0; i < n; ++i) total += (p[i] = std::exp((double(row[order[i]]) - m) / temperature));
      if (topP < 1) {
        int64_t keep = 0;
        for (double acc = 0; keep < n && acc < topP * total; ++keep) acc += p[keep];
        n = std::max<int64_t>(1, keep);
        total = 0;
        for (int64_t i = 0; i < n; ++i) total += p[i];
      }
      double x = u[r] * total;
      pick = order[n - 1];  // rounding left x a hair above 0
      for (int64_t i = 0; i < n; ++i) {
        if ((x -= p[i]) < 0) {
          pick = order[i];
          break;
        }
      }
    }
    double m = -INFINITY;
    for (int64_t i = 0; i < V; ++i) m = std::max(m, double(row[i]));
    double s = 0;
    for (int64_t i = 0; i < V; ++i) s += std::exp(double(row[i]) - m);
    tok[r] = int32_t(pick);
    lp[r] = float(double(row[pick]) - m - std::log(s));
  }
}

// Keys or values [B, H, T0 + t, hd]: `past` [B, H, T0, hd] (or none) followed by `fresh` [B, H, t, hd].
// The result is a view of a buffer with room for `capacity` positions; when `past` is such a view with
// room left, `fresh` is written after it in place (the cache passed to a step is consumed, so nothing
// else reads those positions) instead of copying the whole cache every token as at::cat would.
at::Tensor appendKV(const at::Tensor& past, const at::Tensor& fresh, int64_t capacity) {
  int64_t B = fresh.size(0), H = fresh.size(1), t = fresh.size(2), hd = fresh.size(3);
  int64_t T0 = past.defined() ? past.size(2) : 0, need = T0 + t;
  at::Tensor full;
  if (past.defined() && past.dim() == 4 && past.size(0) == B && past.size(1) == H && past.storage_offset() == 0 && past.stride(3) == 1 && past.stride(2) == hd &&
      past.stride(1) % hd == 0 && past.stride(1) / hd >= need && past.stride(0) == H * past.stride(1) &&
      past.storage().nbytes() >= size_t(B * past.stride(0)) * past.element_size()) {
    full = past.as_strided({B, H, need, hd}, past.strides());
  } else {
    full = at::empty({B, H, std::max(need, capacity), hd}, fresh.options()).narrow(2, 0, need);
    if (T0) full.narrow(2, 0, T0).copy_(past);
  }
  full.narrow(2, T0, t).copy_(fresh);
  return full;
}

// The Policy (lib/train/model.ts body()) on new tokens: inputs
//   [wte, wpe, (ln1_g, ln1_b, attn_w, attn_b, proj_w, proj_b, ln2_g, ln2_b, fc_w, fc_b, fc2_w, fc2_b) × L,
//    lnf_g, lnf_b, ids [B, t], pos [B, t], bias [B, 1, t, Tk], (past k, past v) × L when hasPast]
// args [L, H, hasPast, sampling: null | [temperature, top_k, top_p, u_0, …, u_{B-1}], capacity (positions the
// key/value buffers make room for: block_size)].
// Returns [logits [B, t, V], (k, v) × L including the new tokens, (tokens [B], logprobs [B]) when sampling].
Tensors policyStep(const Tensors& t, const Args& a) {
  int64_t L = a.i64(0), H = a.i64(1);
  bool hasPast = a.flag(2);
  int64_t capacity = a.has(4) ? a.i64(4) : 0;
  size_t nw = 2 + 12 * size_t(L) + 2;
  if (t.size() != nw + 3 + (hasPast ? 2 * size_t(L) : 0)) throw std::runtime_error("policy_step: " + std::to_string(t.size()) + " inputs for " + std::to_string(L) + " layers");
  const at::Tensor& wte = t[0];
  const at::Tensor& ids = t[nw];
  const at::Tensor& pos = t[nw + 1];
  const at::Tensor& bias = t[nw + 2];
  int64_t B = ids.size(0), T = ids.size(1), d = wte.size(1), hd = d / H;
  double scale = 1.0 / std::sqrt(double(hd));
  at::Tensor x = at::index_select(wte, 0, ids.reshape({-1}).to(at::kLong)).add_(at::index_select(t[1], 0, pos.reshape({-1}).to(at::kLong))).view({B, T, d});
  Tensors out;
  out.reserve(1 + 2 * L + 2);
  out.emplace_back();
  for (int64_t l = 0; l < L; ++l) {
    const at::Tensor* w = &t[2 + 12 * l];
    at::Tensor h = layerNorm(x, w[0], w[1]);
    at::Tensor qkv = at::addmm(w[3], h.view({B * T, d}), w[2]).view({B, T, 3, H, hd}).permute({2, 0, 3, 1, 4});
    at::Tensor q = qkv[0];
    at::Tensor k = appendKV(hasPast ? t[nw + 3 + 2 * l] : at::Tensor(), qkv[1], capacity);
    at::Tensor v = appendKV(hasPast ? t[nw + 4 + 2 * l] : at::Tensor(), qkv[2], capacity);
    at::Tensor y = at::matmul(attentionProbs(q, k, bias, scale), v).transpose(1, 2).reshape({B * T, d});
    x = x + at::addmm(w[5], y, w[4]).view({B, T, d});
    at::Tensor h2 = layerNorm(x, w[6], w[7]).view({B * T, d});
    x = x + at::addmm(w[11], gelu::forward(at::addmm(w[9], h2, w[8])), w[10]).view({B, T, d});
    out.push_back(k);
    out.push_back(v);
  }
  at::Tensor hf = layerNorm(x, t[nw - 2], t[nw - 1]).view({B * T, d});
  out[0] = at::mm(hf, wte.t()).view({B, T, wte.size(0)});
  if (a.has(3)) {
    auto s = a.nums(3);
    if (s.size() < 3) throw std::runtime_error("policy_step: sampling wants [temperature, top_k, top_p, uniforms...]");
    std::vector<double> u(s.begin() + 3, s.end());
    at::Tensor tokens, logprobs;
    sampleRows(out[0].select(1, T - 1), s[0], int64_t(s[1]), s[2], u, tokens, logprobs);
    out.push_back(tokens);
    out.push_back(logprobs);
  }
  return out;
}

void addFusedOps(std::unordered_map<std::string, Op>& ops) {
  // [x, g, b] -> [y, mean, rstd]
  ops["layernorm"] = [](const Tensors& t, const Args&) {
    auto r = at::native_layer_norm(t[0], {t[0].size(-1)}, t[1], t[2], kLnEps);
    return Tensors{std::get<0>(r), std::get<1>(r), std::get<2>(r)};
  };
  // [dy, x, g, mean, rstd] -> [dx, dg, db]
  ops["layernorm_grad"] = [](const Tensors& t, const Args&) {
    // the bias argument only shapes db (ATen allocates it like the bias): the gain has its shape
    auto r = at::native_layer_norm_backward(t[0], t[1], {t[1].size(-1)}, t[3], t[4], t[2], t[2], {true, true, true});
    return Tensors{std::get<0>(r), std::get<1>(r), std::get<2>(r)};
  };
  ops["gelu"] = [](const Tensors& t, const Args&) { return one(gelu::forward(t[0])); };
  ops["gelu_grad"] = [](const Tensors& t, const Args&) { return one(gelu::backward(t[0], t[1])); };
  // [x, w, (b)] args [transW] -> y
  ops["linear"] = [](const Tensors& t, const Args& a) { return one(linearFwd(t[0], t[1], t.size() > 2 ? t[2] : at::Tensor(), a.flag(0))); };
  // [dy, x, w] args [transW, hasBias] -> [dx, dw, (db)]
  ops["linear_grad"] = [](const Tensors& t, const Args& a) {
    bool transW = a.flag(0), hasBias = a.flag(1);
    const at::Tensor &dy = t[0], &x = t[1], &w = t[2];
    at::Tensor dy2 = dy.reshape({-1, dy.size(-1)});
    at::Tensor x2 = x.reshape({-1, x.size(-1)});
    at::Tensor dx = (transW ? at::mm(dy2, w) : at::mm(dy2, w.t())).view(x.sizes());
    at::Tensor dw = transW ? at::mm(dy2.t(), x2) : at::mm(x2.t(), dy2);
    Tensors r{dx, dw};
    if (hasBias) r.push_back(dy2.sum(0));
    return r;
  };
  // [table, ids] -> table[ids] [N, d]
  ops["embed"] = [](const Tensors& t, const Args&) { return one(at::index_select(t[0], 0, t[1].reshape({-1}).to(at::kLong))); };
  // [dy, ids] args [rows] -> d table
  ops["embed_grad"] = [](const Tensors& t, const Args& a) {
    at::Tensor g = at::zeros({a.i64(0), t[0].size(-1)}, t[0].options());
    return one(g.index_add_(0, t[1].reshape({-1}).to(at::kLong), t[0].reshape({-1, t[0].size(-1)})));
  };
  // [q, k, v, (bias)] args [scale] -> [out, probs]
  ops["attention"] = [](const Tensors& t, const Args& a) {
    at::Tensor p = attentionProbs(t[0], t[1], t.size() > 3 ? t[3] : at::Tensor(), a.num(0));
    return Tensors{at::matmul(p, t[2]), p};
  };
  // [dy, q, k, v, probs] args [scale] -> [dq, dk, dv]
  ops["attention_grad"] = [](const Tensors& t, const Args& a) {
    const at::Tensor &dy = t[0], &q = t[1], &k = t[2], &v = t[3], &p = t[4];
    double scale = a.num(0);
    at::Tensor dv = at::matmul(p.transpose(-2, -1), dy);
    at::Tensor ds = at::_softmax_backward_data(at::matmul(dy, v.transpose(-2, -1)), p, -1, p.scalar_type());
    return Tensors{at::matmul(ds, k * scale), at::matmul(ds.transpose(-2, -1), q * scale), dv};  // scale folded into the small operands
  };
  // [qkv [B, T, 3·D]] args [H] -> [y [B, T, D], heads, packed probs] (causalAttention above)
  ops["causal_attention"] = [](const Tensors& t, const Args& a) { return causalAttention(t[0], a.i64(0)); };
  // [dy, heads, packed probs] args [H] -> d qkv
  ops["causal_attention_grad"] = [](const Tensors& t, const Args& a) { return one(causalAttentionGrad(t[0], t[1], t[2], a.i64(0))); };
  // log_softmax(logits)[..., id] for logits [..., V], ids [...] (an id outside [0, V) gives 0, as
  // oneHot · logSoftmax does) -> [logp [...], lse [...]]
  ops["token_logprobs"] = [](const Tensors& t, const Args&) {
    const at::Tensor& logits = t[0];
    int64_t V = logits.size(-1);
    at::Tensor ids = t[1].to(at::kLong);
    at::Tensor valid = at::logical_and(at::ge(ids, 0), at::lt(ids, V));
    at::Tensor lse = at::logsumexp(logits, {-1}, false);
    at::Tensor picked = logits.gather(-1, at::where(valid, ids, at::zeros_like(ids)).unsqueeze(-1)).squeeze(-1);
    return Tensors{at::where(valid, picked - lse, at::zeros_like(lse)), lse};
  };
  // [dy, logits, ids, lse] -> d logits = dy · (onehot(id) − softmax)
  ops["token_logprobs_grad"] = [](const Tensors& t, const Args&) {
    const at::Tensor &dy = t[0], &logits = t[1], &lse = t[3];
    int64_t V = logits.size(-1);
    at::Tensor ids = t[2].to(at::kLong);
    at::Tensor valid = at::logical_and(at::ge(ids, 0), at::lt(ids, V));
    at::Tensor g = at::where(valid, dy, at::zeros_like(dy)).unsqueeze(-1);
    // onehot·g − softmax·g, as tfjs's logSoftmax gradient computes it (a zero dy gives +0, not −0)
    at::Tensor out = at::zeros_like(logits).scatter_(-1, at::where(valid, ids, at::zeros_like(ids)).unsqueeze(-1), g);
    out.sub_(at::exp(logits - lse.unsqueeze(-1)).mul_(g));
    return one(out);
  };
  // [p × n, g × n, m × n, v × n] args [lr, beta1, beta2, eps, 1 − beta1^t, 1 − beta2^t] -> [p' × n, m' × n, v' × n]
  // tfjs's Adam (optimizers/adam_optimizer.js) per variable, as new tensors (inputs are not changed).
  ops["adam"] = [](const Tensors& t, const Args& a) {
    size_t n = t.size() / 4;
    double lr = a.num(0), b1 = a.num(1), b2 = a.num(2), eps = a.num(3), c1 = a.num(4), c2 = a.num(5);
    Tensors ps(n), ms(n), vs(n);
    for (size_t i = 0; i < n; ++i) {
      const at::Tensor &p = t[i], &g = t[n + i], &m = t[2 * n + i], &v = t[3 * n + i];
      ms[i] = at::add(m * b1, g, 1 - b1);
      vs[i] = at::addcmul(v * b2, g, g, 1 - b2);
      at::Tensor denom = (vs[i] / c2).sqrt_().add_(eps);
      ps[i] = at::addcdiv(p, ms[i] / c1, denom, -lr);
    }
    Tensors out;
    out.reserve(3 * n);
    for (auto* part : {&ps, &ms, &vs}) out.insert(out.end(), part->begin(), part->end());
    return out;
  };
  ops["policy_step"] = policyStep;
}

std::unordered_map<std::string, Op> buildOps() {
  std::unordered_map<std::string, Op> ops;
  // elementwise binary (broadcasting, ATen's promotion; tfjs already made the dtypes agree)
  ops["add"] = [](const Tensors& t, const Args&) { return one(at::add(t[0], t[1])); };
  ops["sub"] = [](const Tensors& t, const Args&) { return one(at::sub(t[0], t[1])); };
  ops["mul"] = [](const Tensors& t, const Args&) { return one(at::mul(t[0], t[1])); };
  ops["div"] = [](const Tensors& t, const Args&) { return one(at::div(t[0], t[1])); };
  ops["floordiv"] = [](const Tensors& t, const Args&) { return one(at::div(t[0], t[1], "floor").to(at::kInt)); };  // tfjs: always int32
  ops["mod"] = [](const Tensors& t, const Args&) { return one(at::remainder(t[0], t[1])); };
  ops["maximum"] = [](const Tensors& t, const Args&) { return one(at::maximum(t[0], t[1])); };
  ops["minimum"] = [](const Tensors& t, const Args&) { return one(at::minimum(t[0], t[1])); };
  ops["pow"] = [](const Tensors& t, const Args&) { return one(at::pow(t[0], t[1])); };
  ops["sqdiff"] = [](const Tensors& t, const Args&) { return one(at::square(at::sub(t[0], t[1]))); };
  ops["gt"] = [](const Tensors& t, const Args&) { return one(at::gt(t[0], t[1])); };
  ops["ge"] = [](const Tensors& t, const Args&) { return one(at::ge(t[0], t[1])); };
  ops["lt"] = [](const Tensors& t, const Args&) { return one(at::lt(t[0], t[1])); };
  ops["le"] = [](const Tensors& t, const Args&) { return one(at::le(t[0], t[1])); };
  ops["eq"] = [](const Tensors& t, const Args&) { return one(at::eq(t[0], t[1])); };
  ops["ne"] = [](const Tensors& t, const Args&) { return one(at::ne(t[0], t[1])); };
  ops["and"] = [](const Tensors& t, const Args&) { return one(at::logical_and(t[0], t[1])); };
  ops["or"] = [](const Tensors& t, const Args&) { return one(at::logical_or(t[0], t[1])); };
  ops["where"] = [](const Tensors& t, const Args&) { return one(at::where(t[0], t[1], t[2])); };
  ops["addn"] = [](const Tensors& t, const Args&) {
    at::Tensor s = t[0].clone();
    for (size_t i = 1; i < t.size(); ++i) s.add_(t[i]);
    return one(s);
  };
  // elementwise unary
  ops["identity"] = [](const Tensors& t, const Args&) { return one(t[0]); };
  ops["neg"] = [](const Tensors& t, const Args&) { return one(at::neg(t[0])); };
  ops["exp"] = [](const Tensors& t, const Args&) { return one(at::exp(t[0])); };
  ops["log"] = [](const Tensors& t, const Args&) { return one(at::log(t[0])); };
  ops["log1p"] = [](const Tensors& t, const Args&) { return one(at::log1p(t[0])); };
  ops["sqrt"] = [](const Tensors& t, const Args&) { return one(at::sqrt(t[0])); };
  ops["rsqrt"] = [](const Tensors& t, const Args&) { return one(at::rsqrt(t[0])); };
  ops["square"] = [](const Tensors& t, const Args&) { return one(at::square(t[0])); };
  ops["abs"] = [](const Tensors& t, const Args&) { return one(at::abs(t[0])); };
  ops["sign"] = [](const Tensors& t, const Args&) { return one(at::sign(t[0])); };
  ops["floor"] = [](const Tensors& t, const Args&) { return one(at::floor(t[0])); };
  ops["ceil"] = [](const Tensors& t, const Args&) { return one(at::ceil(t[0])); };
  ops["reciprocal"] = [](const Tensors& t, const Args&) { return one(at::reciprocal(t[0])); };
  ops["tanh"] = [](const Tensors& t, const Args&) { return one(at::tanh(t[0])); };
  ops["sigmoid"] = [](const Tensors& t, const Args&) { return one(at::sigmoid(t[0])); };
  ops["relu"] = [](const Tensors& t, const Args&) { return one(at::relu(t[0])); };
  ops["erf"] = [](const Tensors& t, const Args&) { return one(at::erf(t[0])); };
  ops["softplus"] = [](const Tensors& t, const Args&) { return one(at::softplus(t[0])); };
  ops["not"] = [](const Tensors& t, const Args&) { return one(at::logical_not(t[0])); };
  ops["isnan"] = [](const Tensors& t, const Args&) { return one(at::isnan(t[0])); };
  ops["cast"] = [](const Tensors& t, const Args& a) { return one(t[0].to(scalarOf(int(a.num(0))))); };
  ops["clip"] = [](const Tensors& t, const Args& a) { return one(at::clamp(t[0], a.num(0), a.num(1))); };
  ops["zeroslike"] = [](const Tensors& t, const Args&) { return one(at::zeros_like(t[0], at::MemoryFormat::Contiguous)); };
  ops["oneslike"] = [](const Tensors& t, const Args&) { return one(at::ones_like(t[0], at::MemoryFormat::Contiguous)); };
  ops["fill"] = [](const Tensors&, const Args& a) {
    return one(at::full(a.ints(0), a.num(1), at::TensorOptions().dtype(scalarOf(int(a.num(2)))).device(device)));
  };
  // reductions over a list of axes
  ops["sum"] = [](const Tensors& t, const Args& a) {
    auto axes = a.ints(0);
    if (axes.empty()) return one(t[0].scalar_type() == at::kBool ? t[0].to(at::kInt) : t[0].clone());
    return one(at::sum(t[0], axes, a.flag(1)));
  };
  ops["mean"] = [](const Tensors& t, const Args& a) {
    auto axes = a.ints(0);
    if (axes.empty()) return one(t[0].clone());
    return one(at::mean(t[0], axes, a.flag(1)));
  };
  ops["max"] = [](const Tensors& t, const Args& a) { return one(a.ints(0).empty() ? t[0].clone() : at::amax(t[0], a.ints(0), a.flag(1))); };
  ops["min"] = [](const Tensors& t, const Args& a) { return one(a.ints(0).empty() ? t[0].clone() : at::amin(t[0], a.ints(0), a.flag(1))); };
  ops["prod"] = [](const Tensors& t, const Args& a) { return one(reduceEach(t[0], a.ints(0), a.flag(1), prodDim)); };
  ops["any"] = [](const Tensors& t, const Args& a) { return one(reduceEach(t[0].to(at::kBool), a.ints(0), a.flag(1), anyDim)); };
  ops["all"] = [](const Tensors& t, const Args& a) { return one(reduceEach(t[0].to(at::kBool), a.ints(0), a.flag(1), allDim)); };
  ops["argmax"] = [](const Tensors& t, const Args& a) { return one(at::argmax(t[0], a.i64(0))); };
  ops["argmin"] = [](const Tensors& t, const Args& a) { return one(at::argmin(t[0], a.i64(0))); };
  ops["cumsum"] = [](const Tensors& t, const Args& a) {
    int64_t ax = a.i64(0);
    bool exclusive = a.flag(1), reverse = a.flag(2);
    at::Tensor x = reverse ? at::flip(t[0], {ax}) : t[0];
    at::Tensor c = at::cumsum(x, ax);
    if (exclusive) c = at::sub(c, x);
    return one(reverse ? at::flip(c, {ax}) : c);
  };
  // layout
  ops["reshape"] = [](const Tensors& t, const Args& a) { return one(at::reshape(t[0], a.ints(0))); };
  ops["transpose"] = [](const Tensors& t, const Args& a) { return one(t[0].permute(a.ints(0))); };
  ops["expanddims"] = [](const Tensors& t, const Args& a) { return one(t[0].unsqueeze(a.i64(0))); };
  ops["slice"] = [](const Tensors& t, const Args& a) {
    auto begin = a.ints(0), size = a.ints(1);
    at::Tensor x = t[0];
    for (size_t d = 0; d < begin.size(); ++d) x = x.narrow(int64_t(d), begin[d], size[d]);
    return one(x);
  };
  ops["concat"] = [](const Tensors& t, const Args& a) { return one(at::cat(t, a.i64(0))); };
  ops["stack"] = [](const Tensors& t, const Args& a) { return one(at::stack(t, a.i64(0))); };
  ops["unstack"] = [](const Tensors& t, const Args& a) { return at::unbind(t[0], a.i64(0)); };
  ops["split"] = [](const Tensors& t, const Args& a) { return at::split_with_sizes(t[0], a.ints(0), a.i64(1)); };
  ops["tile"] = [](const Tensors& t, const Args& a) { return one(t[0].repeat(a.ints(0))); };
  ops["broadcastto"] = [](const Tensors& t, const Args& a) { return one(t[0].expand(a.ints(0))); };
  ops["reverse"] = [](const Tensors& t, const Args& a) { return one(at::flip(t[0], a.ints(0))); };
  ops["pad"] = [](const Tensors& t, const Args& a) {
    // tfjs paddings [[before, after] per dim, first dim first]; ATen's constant_pad_nd wants last dim first.
    auto p = a.ints(0);
    std::vector<int64_t> rev;
    for (size_t d = p.size() / 2; d-- > 0;) {
      rev.push_back(p[2 * d]);
      rev.push_back(p[2 * d + 1]);
    }
    return one(at::constant_pad_nd(t[0], rev, a.num(1)));
  };
  ops["gather"] = [](const Tensors& t, const Args& a) {
    int64_t axis = a.i64(0);
    const at::Tensor& x = t[0];
    at::Tensor idx = t[1].to(at::kLong);
    auto shape = x.sizes().vec();
    std::vector<int64_t> out(shape.begin(), shape.begin() + axis);
    for (auto s : idx.sizes()) out.push_back(s);
    out.insert(out.end(), shape.begin() + axis + 1, shape.end());
    return one(at::index_select(x, axis, idx.reshape({-1})).reshape(out));
  };
  ops["onehot"] = [](const Tensors& t, const Args& a) {
    int64_t depth = a.i64(0);
    double on = a.num(1), off = a.num(2);
    auto dtype = scalarOf(int(a.num(3)));
    at::Tensor hit = at::eq(t[0].to(at::kLong).unsqueeze(-1), at::arange(depth, at::TensorOptions().dtype(at::kLong).device(t[0].device())));
    if (on == 1 && off == 0) return one(hit.to(dtype));
    return one(at::where(hit, at::scalar_tensor(on, at::TensorOptions().dtype(dtype).device(t[0].device())),
                         at::scalar_tensor(off, at::TensorOptions().dtype(dtype).device(t[0].device()))));
  };
  ops["unsortedsegmentsum"] = [](const Tensors& t, const Args& a) {
    const at::Tensor& x = t[0];
    at::Tensor seg = t[1].to(at::kLong).reshape({-1});
    int64_t n = a.i64(0);
    int64_t segDims = t[1].dim();
    auto shape = x.sizes().vec();
    std::vector<int64_t> rows{-1};
    rows.insert(rows.end(), shape.begin() + segDims, shape.end());
    std::vector<int64_t> out{n};
    out.insert(out.end(), shape.begin() + segDims, shape.end());
    at::Tensor res = at::zeros(out, x.options());
    at::Tensor valid = at::logical_and(at::ge(seg, 0), at::lt(seg, n));  // tfjs drops out-of-range ids
    return one(res.index_add(0, seg.masked_select(valid), x.reshape(rows).index({valid})));
  };
  // linear algebra and normalisers
  ops["matmul"] = [](const Tensors& t, const Args& a) {
    at::Tensor x = a.flag(0) ? t[0].transpose(-1, -2) : t[0];
    at::Tensor y = a.flag(1) ? t[1].transpose(-1, -2) : t[1];
    return one(at::matmul(x, y));
  };
  ops["softmax"] = [](const Tensors& t, const Args& a) { return one(at::softmax(t[0], a.i64(0))); };
  ops["logsoftmax"] = [](const Tensors& t, const Args& a) { return one(at::log_softmax(t[0], a.i64(0))); };
  ops["topk"] = [](const Tensors& t, const Args& a) {
    auto r = at::topk(t[0], a.i64(0), -1, true, a.flag(1));
    return Tensors{std::get<0>(r), std::get<1>(r)};
  };
  addFusedOps(ops);
  return ops;
}

const std::unordered_map<std::string, Op>& opTable() {
  static const auto table = buildOps();
  return table;
}

// ---- exported functions ---------------------------------------------------------------------

Napi::Value Write(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::TypedArray arr = info[0].As<Napi::TypedArray>();
  Napi::Array shapeArr = info[1].As<Napi::Array>();
  int code = dtypeCodeOfName(info[2].As<Napi::String>().Utf8Value());
  std::vector<int64_t> shape(shapeArr.Length());
  int64_t n = 1;
  for (uint32_t i = 0; i < shapeArr.Length(); ++i) n *= (shape[i] = int64_t(shapeArr.Get(i).As<Napi::Number>().DoubleValue()));
  at::ScalarType st = scalarOf(code);
  size_t elem = at::elementSize(st);
  if (arr.ByteLength() != size_t(n) * elem)
    throw Napi::Error::New(env, "write: " + std::to_string(arr.ByteLength()) + " bytes for " + std::to_string(n) + " elements of " + c10::toString(st));
  c10::InferenceMode guard;
  at::Tensor t = at::empty(shape, at::TensorOptions().dtype(st));
  if (n > 0) std::memcpy(t.data_ptr(), static_cast<uint8_t*>(arr.ArrayBuffer().Data()) + arr.ByteOffset(), arr.ByteLength());
  if (device != at::kCPU) t = t.to(device);
  return Napi::Number::New(env, store(std::move(t)));
}

Napi::Value Read(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  try {
    at::Tensor t = get(info[0].As<Napi::Number>().Int32Value()).to(at::kCPU).contiguous();
    size_t bytes = t.numel() * t.element_size();
    Napi::ArrayBuffer buf = Napi::ArrayBuffer::New(env, bytes);
    if (bytes) std::memcpy(buf.Data(), t.data_ptr(), bytes);
    switch (t.scalar_type()) {
      case at::kFloat: return Napi::Float32Array::New(env, t.numel(), buf, 0);
      case at::kInt: return Napi::Int32Array::New(env, t.numel(), buf, 0);
      case at::kBool: return Napi::Uint8Array::New(env, t.numel(), buf, 0);
      default: throw std::runtime_error(std::string("read: dtype ") + c10::toString(t.scalar_type()));
    }
  } catch (const c10::Error& e) {
    throw Napi::Error::New(env, std::string("read: ") + e.what_without_backtrace());
  } catch (const std::exception& e) {
    throw Napi::Error::New(env, std::string("read: ") + e.what());
  }
}

Napi::Value Free(const Napi::CallbackInfo& info) {
  int32_t id = info[0].As<Napi::Number>().Int32Value();
  if (id >= 0 && size_t(id) < slots.size() && slots[id].defined()) {
    slots[id] = at::Tensor();
    freeSlots.push_back(id);
    --liveCount;
  }
  return info.Env().Undefined();
}

Napi::Value Live(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), double(liveCount)); }

// Ops whose result is always a list (even of one), so the caller can tell one output from several.
bool multiOutput(const std::string& name) { return name == "unstack" || name == "split" || name == "adam" || name == "linear_grad" || name == "policy_step"; }

Napi::Value Call(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::string name = info[0].As<Napi::String>().Utf8Value();
  auto& table = opTable();
  auto it = table.find(name);
  if (it == table.end()) throw Napi::Error::New(env, "torch addon has no op '" + name + "'");
  Napi::Array ids = info[1].As<Napi::Array>();
  Napi::Array rawArgs = info.Length() > 2 && info[2].IsArray() ? info[2].As<Napi::Array>() : Napi::Array::New(env);
  try {
    c10::InferenceMode guard;  // no autograd bookkeeping: tfjs keeps the tape
    Tensors inputs;
    inputs.reserve(ids.Length());
    for (uint32_t i = 0; i < ids.Length(); ++i) inputs.push_back(get(ids.Get(i).As<Napi::Number>().Int32Value()));
    Args args{rawArgs, name};
    Tensors out = it->second(inputs, args);
    if (out.size() == 1 && !multiOutput(name)) return describe(env, std::move(out[0]));
    Napi::Array arr = Napi::Array::New(env, out.size());
    for (size_t i = 0; i < out.size(); ++i) arr.Set(uint32_t(i), describe(env, std::move(out[i])));
    return arr;
  } catch (const c10::Error& e) {
    throw Napi::Error::New(env, name + ": " + e.what_without_backtrace());
  } catch (const Napi::Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Napi::Error::New(env, name + ": " + e.what());
  }
}

Napi::Value SetThreads(const Napi::CallbackInfo& info) {
  int n = info[0].As<Napi::Number>().Int32Value();
  if (n > 0) at::set_num_threads(n);
  return info.Env().Undefined();
}

Napi::Value SetDevice(const Napi::CallbackInfo& info) {
  std::string d = info[0].As<Napi::String>().Utf8Value();
  try {
    at::Device next(d);
    if (next.is_cuda() && !at::hasCUDA()) throw std::runtime_error("this libtorch was built without CUDA");
    device = next;
  } catch (const c10::Error& e) {
    throw Napi::Error::New(info.Env(), std::string("device ") + d + ": " + e.what_without_backtrace());
  } catch (const std::exception& e) {
    throw Napi::Error::New(info.Env(), std::string("device ") + d + ": " + e.what());
  }
  return info.Env().Undefined();
}

Napi::Value Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object o = Napi::Object::New(env);
  o.Set("torch", TORCH_VERSION);
  o.Set("threads", at::get_num_threads());
  o.Set("device", device.str());
  o.Set("cuda", at::hasCUDA());
  o.Set("parallel", at::get_parallel_info());
  return o;
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("write", Napi::Function::New(env, Write));
  exports.Set("read", Napi::Function::New(env, Read));
  exports.Set("free", Napi::Function::New(env, Free));
  exports.Set("live", Napi::Function::New(env, Live));
  exports.Set("call", Napi::Function::New(env, Call));
  exports.Set("setThreads", Napi::Function::New(env, SetThreads));
  exports.Set("setDevice", Napi::Function::New(env, SetDevice));
  exports.Set("info", Napi::Function::New(env, Info));
  return exports;
}

}  // namespace

NODE_API_MODULE(torch_backend, Init)
