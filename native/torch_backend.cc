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
#include <c10/util/Exception.h>
#include <torch/version.h>

#include <cstring>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

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

Napi::Value Call(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::string name = info[0].As<Napi::String>().Utf8Value();
  auto& table = opTable();
  auto it = table.find(name);
  if (it == table.end()) throw Napi::Error::New(env, "torch addon has no op '" + name + "'");
  Napi::Array ids = info[1].As<Napi::Array>();
  Napi::Array rawArgs = info.Length() > 2 && info[2].IsArray() ? info[2].As<Napi::Array>() : Napi::Array::New(env);
  try {
    Tensors inputs;
    inputs.reserve(ids.Length());
    for (uint32_t i = 0; i < ids.Length(); ++i) inputs.push_back(get(ids.Get(i).As<Napi::Number>().Int32Value()));
    Args args{rawArgs, name};
    Tensors out = it->second(inputs, args);
    if (out.size() == 1 && name != "unstack" && name != "split") return describe(env, std::move(out[0]));
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
