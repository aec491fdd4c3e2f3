// The playground's check on the GPU: a student's output compared with a float64 reference where it lies, in two
// reduction kernels (the reference's sum of squares, for the tolerance's floor; then every element), so that only
// the counts, the first wrong index and the largest relative error come back, with a window of elements from the
// first wrong one for the listing. The reference is computed inside the comparison from the inputs (SAXPY, the
// polynomial, the transpose: each element a few exact operations in float64), or, for the SGEMM, by cuBLAS's DGEMM on
// the inputs widened to float64 (every product of two floats is exact there). Nothing here exits or aborts: CUDA and
// cuBLAS errors come back as NativeErrors with the error's name, the call and file:line.
#include <cuda_runtime.h>
#include <napi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "check.h"
#include "cublas.h"
#include "src/buffer.h"
#include "src/errors.h"

namespace gpulab {

namespace {

// Sum: the reduction's one-element output against the total of its input (whole numbers, exact in float64).
enum class Kind { Saxpy, Polynomial, Transpose, Gemm, Sum };

struct Spec {
  Kind kind = Kind::Saxpy;
  const void* out = nullptr;
  bool out64 = false;
  const void* x = nullptr;  // SAXPY and the polynomial: x and y; the transpose: its input
  const void* y = nullptr;
  bool in64 = false;
  double a = 0, b = 0, c = 0;
  size_t n = 0;  // elements of the output
  size_t inputLength = 0;  // the reduction's input
  int rows = 0, cols = 0;  // the transpose's input
  int gm = 0, gn = 0, gk = 0;  // the SGEMM's shape
  double relative = 0;  // elementwise: of each element, floor relative × RMS; GEMM: relative × RMS; transpose: exact
};

struct Tally {
  double sumSquares;
  unsigned long long wrong;
  unsigned long long unwritten;
  unsigned long long firstBad;
  unsigned long long maxRelativeBits;  // a non-negative double's bits order as the double does
  unsigned int nonFinite;
};

constexpr unsigned long long kNone = ~0ull;
constexpr int kThreads = 256;
constexpr size_t kWindow = 64;

__device__ __forceinline__ double InputAt(const void* p, bool is64, size_t i) {
  return is64 ? static_cast<const double*>(p)[i] : static_cast<double>(static_cast<const float*>(p)[i]);
}

// Element i of the reference, in float64 with no fused multiply-add, as the host's check computes it.
__device__ __forceinline__ double ReferenceAt(const Spec& s, const double* ref, size_t i) {
  switch (s.kind) {
    case Kind::Saxpy:
      return __dadd_rn(__dmul_rn(s.a, InputAt(s.x, s.in64, i)), InputAt(s.y, s.in64, i));
    case Kind::Polynomial: {
      const double x = InputAt(s.x, s.in64, i);
      return __dadd_rn(__dadd_rn(__dmul_rn(__dmul_rn(s.a, x), x), __dmul_rn(s.b, InputAt(s.y, s.in64, i))), s.c);
    }
    case Kind::Transpose: {
      // out[c·rows + r] = in[r·cols + c]
      const size_t r = i % static_cast<size_t>(s.rows), c = i / static_cast<size_t>(s.rows);
      return InputAt(s.x, s.in64, r * static_cast<size_t>(s.cols) + c);
    }
    case Kind::Gemm:
      return ref[i];
    case Kind::Sum:
      return 0;
  }
  return 0;
}

__host__ __device__ __forceinline__ bool Poisoned(const void* out, bool out64, size_t i) {
  if (out64) {
    uint64_t bits;
    memcpy(&bits, static_cast<const double*>(out) + i, 8);
    return bits == ~0ull;
  }
  uint32_t bits;
  memcpy(&bits, static_cast<const float*>(out) + i, 4);
  return bits == 0xffffffffu;
}

// The largest |got − expected| allowed: exact for the transpose, relative × RMS for the GEMM, and for elementwise
// work relative × |expected| with relative × RMS as its floor.
__host__ __device__ __forceinline__ double Limit(Kind kind, double relative, double floor, double expected) {
  if (kind == Kind::Transpose || kind == Kind::Sum) return 0;
  if (kind == Kind::Gemm) return floor;
  return fmax(relative * fabs(expected), floor);
}

__device__ __forceinline__ double WarpSum(double v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}
__device__ __forceinline__ unsigned long long WarpSumU(unsigned long long v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}
__device__ __forceinline__ unsigned long long WarpMin(unsigned long long v) {
  for (int o = 16; o > 0; o >>= 1) v = min(v, __shfl_down_sync(0xffffffffu, v, o));
  return v;
}
__device__ __forceinline__ unsigned long long WarpMax(unsigned long long v) {
  for (int o = 16; o > 0; o >>= 1) v = max(v, __shfl_down_sync(0xffffffffu, v, o));
  return v;
}

__global__ void SumSquares(Spec s, const double* ref, Tally* t) {
  double sum = 0;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < s.n; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const double e = ReferenceAt(s, ref, i);
    sum += e * e;
  }
  sum = WarpSum(sum);
  if ((threadIdx.x & 31) == 0) atomicAdd(&t->sumSquares, sum);
}

__global__ void Compare(Spec s, const double* ref, double floor, Tally* t) {
  unsigned long long wrong = 0, unwritten = 0, first = kNone, maxRel = 0;
  unsigned int nonFinite = 0;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < s.n; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const double e = ReferenceAt(s, ref, i);
    const double got = InputAt(s.out, s.out64, i);
    const double diff = fabs(got - e);
    const double rel = diff == 0 ? 0 : diff / fabs(e);
    if (!isfinite(rel)) nonFinite = 1;
    else maxRel = max(maxRel, static_cast<unsigned long long>(__double_as_longlong(rel)));
    if (Poisoned(s.out, s.out64, i)) ++unwritten;
    // NaN compares false: a NaN is wrong.
    if (!(diff <= Limit(s.kind, s.relative, floor, e))) {
      ++wrong;
      first = min(first, static_cast<unsigned long long>(i));
    }
  }
  wrong = WarpSumU(wrong);
  unwritten = WarpSumU(unwritten);
  first = WarpMin(first);
  maxRel = WarpMax(maxRel);
  nonFinite = __any_sync(0xffffffffu, nonFinite);
  if ((threadIdx.x & 31) != 0) return;
  if (wrong) atomicAdd(&t->wrong, wrong);
  if (unwritten) atomicAdd(&t->unwritten, unwritten);
  if (first != kNone) atomicMin(&t->firstBad, first);
  if (maxRel) atomicMax(&t->maxRelativeBits, maxRel);
  if (nonFinite) atomicOr(&t->nonFinite, 1u);
}

__global__ void SumInput(Spec s, size_t inputLength, Tally* t) {
  double sum = 0;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < inputLength; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    sum += InputAt(s.x, s.in64, i);
  }
  sum = WarpSum(sum);
  if ((threadIdx.x & 31) == 0) atomicAdd(&t->sumSquares, sum);
}

// The reference's elements [start, start + count), for the listing.
__global__ void ReferenceWindow(Spec s, const double* ref, size_t start, size_t count, double* window) {
  const size_t j = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (j < count) window[j] = ReferenceAt(s, ref, start + j);
}

__global__ void Widen(const float* in, double* out, size_t n) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    out[i] = in[i];
  }
}

// Device memory freed however the check ends.
struct Scratch {
  std::vector<void*> blocks;
  void* Take(size_t bytes, int device, const char* what) {
    void* p = nullptr;
    const cudaError_t err = cudaMalloc(&p, bytes);
    if (err != cudaSuccess) ThrowAllocationError(err, bytes, device, what, __FILE__, __LINE__);
    blocks.push_back(p);
    return p;
  }
  ~Scratch() {
    for (void* p : blocks) DropCudaError(cudaFree(p));
  }
};

struct Outcome {
  Tally tally{};
  double rms = 0;
  size_t windowStart = 0;
  std::vector<double> got, expected;
  std::vector<uint8_t> bad, poisoned;
};

unsigned int Blocks(size_t n) {
  return static_cast<unsigned int>(std::min<size_t>((n + kThreads - 1) / kThreads, 65535 * 8));
}

// The SGEMM's float64 reference, C = A·B row-major, through cuBLAS (column-major: Cᵀ = Bᵀ·Aᵀ).
double* GemmReference(const Spec& s, int device, Scratch& scratch) {
  const CublasLibrary& lib = Cublas();
  if (!lib.available) throw NativeError("LIBRARY_UNAVAILABLE", "cuBLAS is not available for the SGEMM's float64 reference: " + lib.reason);
  const size_t m = s.gm, n = s.gn, k = s.gk;
  auto* a = static_cast<double*>(scratch.Take(m * k * 8, device, "cudaMalloc (the SGEMM check's A in float64)"));
  auto* b = static_cast<double*>(scratch.Take(k * n * 8, device, "cudaMalloc (the SGEMM check's B in float64)"));
  auto* c = static_cast<double*>(scratch.Take(m * n * 8, device, "cudaMalloc (the SGEMM check's reference)"));
  Widen<<<Blocks(m * k), kThreads>>>(static_cast<const float*>(s.x), a, m * k);
  CUDA_CHECK(cudaGetLastError());
  Widen<<<Blocks(k * n), kThreads>>>(static_cast<const float*>(s.y), b, k * n);
  CUDA_CHECK(cudaGetLastError());
  cublasHandle_t handle = nullptr;
  CUBLAS_CHECK(lib.create(&handle));
  const double one = 1, zero = 0;
  const cublasStatus_t status = lib.gemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, s.gn, s.gm, s.gk, &one, b, CUDA_R_64F, s.gn, a,
                                           CUDA_R_64F, s.gk, &zero, c, CUDA_R_64F, s.gn, CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT);
  lib.destroy(handle);
  CUBLAS_CHECK(status);
  return c;
}

// The reduction: its input's total on the device, its one output element compared with it on the host.
Outcome& SumOutcome(const Spec& s, Tally* t, Outcome& o) {
  SumInput<<<Blocks(s.inputLength), kThreads>>>(s, s.inputLength, t);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(&o.tally, t, sizeof(Tally), cudaMemcpyDeviceToHost));
  const double expected = o.tally.sumSquares;
  float raw;
  CUDA_CHECK(cudaMemcpy(&raw, s.out, 4, cudaMemcpyDeviceToHost));
  const double got = raw;
  const bool poisoned = Poisoned(&raw, false, 0);
  const double diff = std::fabs(got - expected);
  const double rel = diff == 0 ? 0 : diff / std::fabs(expected);
  o.tally.sumSquares = expected * expected;
  o.rms = std::fabs(expected);
  o.tally.unwritten = poisoned ? 1 : 0;
  o.tally.nonFinite = std::isfinite(rel) ? 0 : 1;
  std::memcpy(&o.tally.maxRelativeBits, &rel, 8);
  if (diff == 0) return o;
  o.tally.wrong = 1;
  o.tally.firstBad = 0;
  o.got = {got};
  o.expected = {expected};
  o.bad = {1};
  o.poisoned = {static_cast<uint8_t>(poisoned ? 1 : 0)};
  return o;
}

Outcome Run(const Spec& s, int device) {
  CUDA_CHECK(cudaSetDevice(device));
  Scratch scratch;
  const double* ref = s.kind == Kind::Gemm ? GemmReference(s, device, scratch) : nullptr;
  auto* t = static_cast<Tally*>(scratch.Take(sizeof(Tally), device, "cudaMalloc (the check's tally)"));
  Outcome o;
  o.tally.firstBad = kNone;
  CUDA_CHECK(cudaMemcpy(t, &o.tally, sizeof(Tally), cudaMemcpyHostToDevice));
  if (s.kind == Kind::Sum) return SumOutcome(s, t, o);
  SumSquares<<<Blocks(s.n), kThreads>>>(s, ref, t);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(&o.tally, t, sizeof(Tally), cudaMemcpyDeviceToHost));
  o.rms = s.n ? std::sqrt(o.tally.sumSquares / static_cast<double>(s.n)) : 0;
  const double floor = s.relative * o.rms;
  Compare<<<Blocks(s.n), kThreads>>>(s, ref, floor, t);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(&o.tally, t, sizeof(Tally), cudaMemcpyDeviceToHost));
  if (o.tally.firstBad == kNone && o.tally.unwritten == 0) return o;
  // The window: from the first wrong element, or the start where only poison was found (which is always wrong).
  o.windowStart = o.tally.firstBad == kNone ? 0 : static_cast<size_t>(o.tally.firstBad);
  const size_t count = std::min(kWindow, s.n - o.windowStart);
  auto* window = static_cast<double*>(scratch.Take(count * 8, device, "cudaMalloc (the check's window)"));
  ReferenceWindow<<<1, kWindow>>>(s, ref, o.windowStart, count, window);
  CUDA_CHECK(cudaGetLastError());
  o.expected.resize(count);
  CUDA_CHECK(cudaMemcpy(o.expected.data(), window, count * 8, cudaMemcpyDeviceToHost));
  const size_t bytes = s.out64 ? 8 : 4;
  std::vector<unsigned char> raw(count * bytes);
  CUDA_CHECK(cudaMemcpy(raw.data(), static_cast<const unsigned char*>(s.out) + o.windowStart * bytes, raw.size(), cudaMemcpyDeviceToHost));
  for (size_t j = 0; j < count; ++j) {
    double got;
    if (s.out64) std::memcpy(&got, raw.data() + j * 8, 8);
    else {
      float f;
      std::memcpy(&f, raw.data() + j * 4, 4);
      got = f;
    }
    o.got.push_back(got);
    o.poisoned.push_back(Poisoned(raw.data(), s.out64, j) ? 1 : 0);
    o.bad.push_back(std::fabs(got - o.expected[j]) <= Limit(s.kind, s.relative, floor, o.expected[j]) ? 0 : 1);
  }
  return o;
}

const void* DevicePointer(Napi::Object spec, const char* name, int* device, DType* dtype) {
  StoragePtr st = BufferObject::StorageOf(spec.Get(name), name);
  if (st->location != Location::Device) ThrowInvalid(name, "a device buffer", "a host buffer");
  if (*device >= 0 && st->device != *device) ThrowInvalid(name, "a buffer on the output's device", "cuda:" + std::to_string(st->device));
  *device = st->device;
  *dtype = st->dtype;
  return st->data;
}

double NumberOf(Napi::Object spec, const char* name) {
  Napi::Value v = spec.Get(name);
  if (!v.IsNumber()) ThrowInvalid(name, "a number", "a non-number");
  return v.As<Napi::Number>().DoubleValue();
}

class VerifyWorker : public Napi::AsyncWorker {
 public:
  VerifyWorker(Napi::Env env, Spec spec, int device, std::vector<StoragePtr> keep)
      : Napi::AsyncWorker(env, "gpu-lab:verify"), deferred_(Napi::Promise::Deferred::New(env)), spec_(spec), device_(device), keep_(std::move(keep)) {}
  Napi::Promise Promise() const { return deferred_.Promise(); }

 protected:
  void Execute() override {
    try {
      outcome_ = Run(spec_, device_);
    } catch (const NativeError& e) {
      code_ = e.code();
      SetError(e.what());
    } catch (const std::bad_alloc&) {
      code_ = "OUT_OF_HOST_MEMORY";
      SetError("The GPU check ran out of host memory");
    }
  }
  void OnOK() override {
    Napi::Env env = Env();
    const Tally& t = outcome_.tally;
    Napi::Object r = Napi::Object::New(env);
    r.Set("total", static_cast<double>(spec_.n));
    r.Set("wrong", static_cast<double>(t.wrong));
    r.Set("unwritten", static_cast<double>(t.unwritten));
    r.Set("firstBad", t.firstBad == kNone ? -1.0 : static_cast<double>(t.firstBad));
    double maxRel;
    std::memcpy(&maxRel, &t.maxRelativeBits, 8);
    r.Set("maxRelativeError", t.nonFinite ? env.Null() : Napi::Value(Napi::Number::New(env, maxRel)));
    r.Set("rms", outcome_.rms);
    Napi::Object w = Napi::Object::New(env);
    w.Set("start", static_cast<double>(outcome_.windowStart));
    auto f64 = [&](const std::vector<double>& v) {
      Napi::Float64Array a = Napi::Float64Array::New(env, v.size());
      std::copy(v.begin(), v.end(), a.Data());
      return a;
    };
    auto u8 = [&](const std::vector<uint8_t>& v) {
      Napi::Uint8Array a = Napi::Uint8Array::New(env, v.size());
      std::copy(v.begin(), v.end(), a.Data());
      return a;
    };
    w.Set("got", f64(outcome_.got));
    w.Set("expected", f64(outcome_.expected));
    w.Set("bad", u8(outcome_.bad));
    w.Set("unwritten", u8(outcome_.poisoned));
    r.Set("window", w);
    deferred_.Resolve(r);
  }
  void OnError(const Napi::Error& e) override { deferred_.Reject(MakeError(Env(), code_, e.Message()).Value()); }

 private:
  Napi::Promise::Deferred deferred_;
  Spec spec_;
  int device_;
  std::vector<StoragePtr> keep_;  // the buffers stay alive until the check is done
  Outcome outcome_;
  std::string code_ = "CUDA_ERROR";
};

// verifyOnDevice({ kind, out, x, y, a, b, c, relative, rows, cols, m, n, k }) -> Promise<{ total, wrong, unwritten,
// firstBad, maxRelativeError, rms, window: { start, got, expected, bad, unwritten } }>
Napi::Value VerifyOnDevice(const Napi::CallbackInfo& info) {
  return Guarded(info.Env(), [&]() -> Napi::Value {
    if (!info[0].IsObject()) ThrowInvalid("spec", "an object", "another value");
    Napi::Object o = info[0].As<Napi::Object>();
    Spec s;
    const std::string kind = o.Get("kind").ToString().Utf8Value();
    if (kind == "saxpy") s.kind = Kind::Saxpy;
    else if (kind == "polynomial") s.kind = Kind::Polynomial;
    else if (kind == "transpose") s.kind = Kind::Transpose;
    else if (kind == "gemm") s.kind = Kind::Gemm;
    else if (kind == "sum") s.kind = Kind::Sum;
    else ThrowInvalid("kind", "\"saxpy\", \"polynomial\", \"transpose\", \"gemm\" or \"sum\"", "\"" + kind + "\"");
    int device = -1;
    DType outType, xType, yType = DType::F32;
    std::vector<StoragePtr> keep;
    for (const char* name : {"out", "x", "y"}) {
      if ((s.kind == Kind::Transpose || s.kind == Kind::Sum) && std::strcmp(name, "y") == 0) continue;
      keep.push_back(BufferObject::StorageOf(o.Get(name), name));
    }
    s.out = DevicePointer(o, "out", &device, &outType);
    s.x = DevicePointer(o, "x", &device, &xType);
    if (s.kind != Kind::Transpose && s.kind != Kind::Sum) s.y = DevicePointer(o, "y", &device, &yType);
    else yType = xType;
    if ((outType != DType::F32 && outType != DType::F64) || (xType != DType::F32 && xType != DType::F64) || yType != xType) {
      ThrowInvalid("out", "fp32 or fp64 buffers, x and y of one type", std::string(DTypeName(outType)) + ", " + DTypeName(xType));
    }
    s.out64 = outType == DType::F64;
    s.in64 = xType == DType::F64;
    s.n = keep[0]->length;
    s.relative = NumberOf(o, "relative");
    if (s.kind == Kind::Saxpy || s.kind == Kind::Polynomial) {
      s.a = NumberOf(o, "a");
      s.b = s.kind == Kind::Polynomial ? NumberOf(o, "b") : 0;
      s.c = s.kind == Kind::Polynomial ? NumberOf(o, "c") : 0;
      if (keep[1]->length != s.n || keep[2]->length != s.n) ThrowInvalid("x", "inputs as long as the output", std::to_string(keep[1]->length));
    } else if (s.kind == Kind::Sum) {
      s.inputLength = keep[1]->length;
      if (s.n != 1 || s.out64) ThrowInvalid("out", "one fp32 element", std::to_string(s.n) + " elements");
    } else if (s.kind == Kind::Transpose) {
      s.rows = static_cast<int>(NumberOf(o, "rows"));
      s.cols = static_cast<int>(NumberOf(o, "cols"));
      if (s.rows < 1 || s.cols < 1 || static_cast<size_t>(s.rows) * s.cols != s.n || keep[1]->length != s.n) {
        ThrowInvalid("rows", "rows × cols equal to the output's and the input's length", std::to_string(s.rows) + " × " + std::to_string(s.cols));
      }
    } else {
      s.gm = static_cast<int>(NumberOf(o, "m"));
      s.gn = static_cast<int>(NumberOf(o, "n"));
      s.gk = static_cast<int>(NumberOf(o, "k"));
      if (s.gm < 1 || s.gn < 1 || s.gk < 1 || static_cast<size_t>(s.gm) * s.gn != s.n || static_cast<size_t>(s.gm) * s.gk != keep[1]->length ||
          static_cast<size_t>(s.gk) * s.gn != keep[2]->length || s.out64 || s.in64) {
        ThrowInvalid("m", "fp32 m×k, k×n and m×n buffers", std::to_string(s.gm) + "×" + std::to_string(s.gn) + "×" + std::to_string(s.gk));
      }
    }
    auto* worker = new VerifyWorker(info.Env(), s, device, std::move(keep));
    Napi::Promise promise = worker->Promise();
    worker->Queue();
    return promise;
  });
}

}  // namespace

void InitVerifyOutput(Napi::Env env, Napi::Object exports) {
  exports.Set("verifyOnDevice", Napi::Function::New(env, VerifyOnDevice, "verifyOnDevice"));
}

}  // namespace gpulab
