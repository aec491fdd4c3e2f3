#include "kernel_launch.h"

#include <chrono>
#include <cstdio>
#include <thread>

#include "check.h"
#include "kernels.cuh"
#include "src/buffer.h"
#include "src/errors.h"
#include "src/timed_op.h"

namespace gpulab {

namespace {

// One bit per device ordinal below 64; a machine with more devices than that is not one a student has.
std::atomic<unsigned long long> g_wedged{0};

void MarkWedged(int device) {
  if (device >= 0 && device < 64) g_wedged.fetch_or(1ull << device);
}

}  // namespace

bool DeviceWedged(int device) { return device >= 0 && device < 64 && (g_wedged.load() >> device & 1ull) != 0; }

void RefuseWedgedDevice(int device) {
  if (!DeviceWedged(device)) return;
  throw NativeError("DEVICE_LOST", "A kernel launched earlier on cuda:" + std::to_string(device) +
                                       " is still running past its watchdog: nothing else can run on that device "
                                       "until the compute host restarts");
}

LoadedLibrary::~LoadedLibrary() {
  if (!library || abandoned.load()) return;
  DropCudaError(cudaSetDevice(device));
  DropCudaError(cudaLibraryUnload(library));
}

namespace {

// The hold kernel gives up after this long (as for the engine's own kernels, native/cuda/cuda_op.cu): far more
// than queueing three commands takes.
constexpr unsigned long long kHoldTimeoutNs = 50'000'000;
// Between polls of the stop event: short beside any kernel worth timing, long enough not to spin a core.
constexpr auto kPollInterval = std::chrono::microseconds(100);
// A sample whose hold gave up (the host stalled while queueing) is taken again, this many times in all.
constexpr int kHeldAttempts = 3;

enum class ArgKind { Pointer, F32, F64, I32, U64 };

struct LaunchArg {
  ArgKind kind = ArgKind::Pointer;
  StoragePtr buffer;  // keeps a pointer argument's memory alive until the launch ends
  // cudaLaunchKernel reads each parameter's size in bytes from the address it is given.
  union {
    void* pointer;
    float f32;
    double f64;
    int32_t i32;
    uint64_t u64;
  } value{};
};

struct LaunchRequest {
  dim3 grid, block;
  unsigned int dynamicSharedBytes = 0;
  std::vector<LaunchArg> args;
  std::vector<StoragePtr> zero;
  uint32_t warmup = 0, repeats = 1;
  double watchdogMs = 0;
};

struct LaunchFailure {
  std::string code, message;
  bool sticky = false;
  double watchdogMs = -1;  // set for a TIMEOUT
};

struct HoldFlags {
  int release;
  int timedOut;
};

// The stream, events and hold flags of one launch() call. After a timeout they are leaked: releasing them could
// wait for the kernel that never ends, and the process is about to be replaced anyway.
struct LaunchResources {
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  HoldFlags* hold = nullptr;
  bool leak = false;
  ~LaunchResources() {
    if (leak) return;
    if (start) DropCudaError(cudaEventDestroy(start));
    if (stop) DropCudaError(cudaEventDestroy(stop));
    if (stream) DropCudaError(cudaStreamDestroy(stream));
    if (hold) DropCudaError(cudaFreeHost(hold));
  }
};

// Releases the hold kernel when it goes out of scope, also when the launch fails between hold and release.
class HoldRelease {
 public:
  explicit HoldRelease(HoldFlags* hold) : hold_(hold) {}
  ~HoldRelease() {
    if (!hold_) return;
    std::atomic_thread_fence(std::memory_order_release);
    *static_cast<volatile int*>(&hold_->release) = 1;
  }
  HoldRelease(const HoldRelease&) = delete;
  HoldRelease& operator=(const HoldRelease&) = delete;

 private:
  HoldFlags* hold_;
};

std::string Dim3Text(const dim3& d) {
  return "[" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + "]";
}

class LaunchWorker : public Napi::AsyncWorker {
 public:
  LaunchWorker(Napi::Env env, std::shared_ptr<LoadedLibrary> library, LaunchRequest request)
      : Napi::AsyncWorker(env, "gpu-lab:kernel-launch"),
        deferred_(Napi::Promise::Deferred::New(env)),
        library_(std::move(library)),
        request_(std::move(request)) {}
  Napi::Promise Promise() const { return deferred_.Promise(); }

 protected:
  void Execute() override {
    try {
      RefuseWedgedDevice(library_->device);
      // Worker threads are shared: bind this one to the kernel's device on every launch.
      CUDA_CHECK(cudaSetDevice(library_->device));
      LaunchResources res;
      CUDA_CHECK(cudaStreamCreate(&res.stream));  // blocking: ordered after the poisoning and the input copies
      CUDA_CHECK(cudaEventCreate(&res.start));
      CUDA_CHECK(cudaEventCreate(&res.stop));
      CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&res.hold), sizeof(HoldFlags), cudaHostAllocMapped | cudaHostAllocPortable));
      std::vector<void*> argv;
      for (LaunchArg& a : request_.args) argv.push_back(&a.value);
      const uint32_t total = request_.warmup + request_.repeats;
      for (uint32_t i = 0; i < total && failure_.code.empty(); ++i) {
        const float ms = Sample(res, argv);
        if (i >= request_.warmup && failure_.code.empty()) samplesMs_.push_back(ms);
      }
    } catch (const NativeError& e) {
      failure_ = {e.code(), e.what(), e.code() == "DEVICE_LOST"};
    } catch (const std::bad_alloc&) {
      failure_ = {"OUT_OF_HOST_MEMORY", "The kernel launch ran out of host memory"};
    }
    if (failure_.sticky) library_->abandoned.store(true);
    if (!failure_.code.empty()) SetError(failure_.message);
  }

  void OnOK() override {
    Napi::Env env = Env();
    Napi::Array samples = Napi::Array::New(env, samplesMs_.size());
    for (size_t i = 0; i < samplesMs_.size(); ++i) samples.Set(static_cast<uint32_t>(i), samplesMs_[i]);
    Napi::Object r = Napi::Object::New(env);
    r.Set("samplesMs", samples);
    deferred_.Resolve(r);
  }

  void OnError(const Napi::Error&) override {
    Napi::Env env = Env();
    Napi::Error err = MakeError(env, failure_.code, failure_.message);
    Napi::Object details = Napi::Object::New(env);
    details.Set("sticky", failure_.sticky);
    if (failure_.watchdogMs >= 0) details.Set("watchdogMs", failure_.watchdogMs);
    err.Set("details", details);
    deferred_.Reject(err.Value());
  }

 private:
  // One launch between the events; the device's time in ms, or 0 with failure_ set.
  float Sample(LaunchResources& res, std::vector<void*>& argv) {
    // The first launch of the kernel loads its code (lazy loading), and that load waits for the running hold kernel:
    // it goes without the hold.
    const bool held = library_->warmed.load();
    for (int attempt = 0; attempt < kHeldAttempts; ++attempt) {
      for (const StoragePtr& z : request_.zero) CUDA_CHECK(cudaMemsetAsync(z->data, 0, z->bytes(), res.stream));
      if (held) {
        *static_cast<volatile int*>(&res.hold->release) = 0;
        *static_cast<volatile int*>(&res.hold->timedOut) = 0;
        CUDA_CHECK(kernels::LaunchHold(&res.hold->release, &res.hold->timedOut, kHoldTimeoutNs, res.stream));
      }
      {
        HoldRelease release(held ? res.hold : nullptr);
        CUDA_CHECK(cudaEventRecord(res.start, res.stream));
        const cudaError_t launched = cudaLaunchKernel(library_->fn(), request_.grid, request_.block, argv.data(),
                                                      request_.dynamicSharedBytes, res.stream);
        if (launched != cudaSuccess) return Fail(launched, "launching", res);
        CUDA_CHECK(cudaEventRecord(res.stop, res.stream));
      }
      if (!WaitWithDeadline(res)) return 0;
      if (held && *static_cast<volatile int*>(&res.hold->timedOut) != 0) continue;
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, res.start, res.stop));
      library_->warmed.store(true);
      return ms;
    }
    throw NativeError("CUDA_ERROR", "The events clock's hold kernel gave up " + std::to_string(kHeldAttempts) +
                                        " times before the host had queued the kernel: the host was stalled (a busy "
                                        "CPU?); run again");
  }

  bool WaitWithDeadline(LaunchResources& res) {
    const auto queued = Clock::now();
    for (;;) {
      const cudaError_t q = cudaEventQuery(res.stop);
      if (q == cudaSuccess) return true;
      if (q != cudaErrorNotReady) {
        Fail(q, "while running", res);
        return false;
      }
      if (ElapsedMs(queued, Clock::now()) >= request_.watchdogMs) {
        MarkWedged(library_->device);
        res.leak = true;
        char limit[32];
        std::snprintf(limit, sizeof limit, "%g", request_.watchdogMs);
        failure_ = {"TIMEOUT",
                    std::string("The kernel was still running after ") + limit +
                        " ms (the watchdog's limit): an endless loop or far too much work; the compute host must "
                        "restart to stop it",
                    true, request_.watchdogMs};
        return false;
      }
      std::this_thread::sleep_for(kPollInterval);
    }
  }

  float Fail(cudaError_t err, const char* when, LaunchResources& res) {
    const std::string code = CudaErrorCode(err);
    const bool sticky = code == "DEVICE_LOST";
    std::string message = std::string(cudaGetErrorName(err)) + " (" + cudaGetErrorString(err) + ") " + when + " `" +
                          library_->loweredName + "` with grid " + Dim3Text(request_.grid) + " and block " +
                          Dim3Text(request_.block);
    if (request_.dynamicSharedBytes > 0) message += " and " + std::to_string(request_.dynamicSharedBytes) + " bytes of dynamic shared memory";
    if (sticky) {
      message += "; the CUDA context is unusable until the process restarts";
      res.leak = true;
    } else {
      cudaGetLastError();  // not sticky: left there, the next launcher's check would report it as its own
    }
    failure_ = {code, message, sticky};
    return 0;
  }

  Napi::Promise::Deferred deferred_;
  std::shared_ptr<LoadedLibrary> library_;
  LaunchRequest request_;
  std::vector<double> samplesMs_;
  LaunchFailure failure_;
};

double Number(Napi::Object o, const char* name) {
  Napi::Value v = o.Get(name);
  if (!v.IsNumber()) ThrowInvalid(name, "a number", "a non-number");
  return v.As<Napi::Number>().DoubleValue();
}

dim3 Dim3Of(Napi::Object o, const char* name) {
  Napi::Value v = o.Get(name);
  if (!v.IsArray() || v.As<Napi::Array>().Length() != 3) ThrowInvalid(name, "an array of 3 numbers", "another value");
  Napi::Array a = v.As<Napi::Array>();
  unsigned int d[3];
  for (uint32_t i = 0; i < 3; ++i) d[i] = a.Get(i).As<Napi::Number>().Uint32Value();
  return dim3(d[0], d[1], d[2]);
}

LaunchArg ArgOf(Napi::Value v, uint32_t index) {
  const std::string name = "args[" + std::to_string(index) + "]";
  if (!v.IsObject()) ThrowInvalid(name, "an argument object", "another value");
  Napi::Object o = v.As<Napi::Object>();
  const std::string kind = o.Get("kind").ToString().Utf8Value();
  LaunchArg a;
  if (kind == "buffer") {
    a.kind = ArgKind::Pointer;
    a.buffer = BufferObject::StorageOf(o.Get("buffer"), name);
    a.value.pointer = a.buffer->data;
    return a;
  }
  const double d = Number(o, "value");
  if (kind == "f32") {
    a.kind = ArgKind::F32;
    a.value.f32 = static_cast<float>(d);
  } else if (kind == "f64") {
    a.kind = ArgKind::F64;
    a.value.f64 = d;
  } else if (kind == "i32") {
    a.kind = ArgKind::I32;
    a.value.i32 = static_cast<int32_t>(d);
  } else if (kind == "u64") {
    a.kind = ArgKind::U64;
    a.value.u64 = static_cast<uint64_t>(d);
  } else {
    ThrowInvalid(name + ".kind", "one of buffer, f32, f64, i32, u64", "\"" + kind + "\"");
  }
  return a;
}

}  // namespace

Napi::Value StartKernelLaunch(Napi::Env env, std::shared_ptr<LoadedLibrary> library, Napi::Object spec) {
  LaunchRequest r;
  r.grid = Dim3Of(spec, "grid");
  r.block = Dim3Of(spec, "block");
  r.dynamicSharedBytes = static_cast<unsigned int>(Number(spec, "dynamicSharedBytes"));
  r.warmup = static_cast<uint32_t>(Number(spec, "warmup"));
  r.repeats = static_cast<uint32_t>(Number(spec, "repeats"));
  r.watchdogMs = Number(spec, "watchdogMs");
  Napi::Value args = spec.Get("args");
  if (!args.IsArray()) ThrowInvalid("args", "an array", "another value");
  for (uint32_t i = 0; i < args.As<Napi::Array>().Length(); ++i) r.args.push_back(ArgOf(args.As<Napi::Array>().Get(i), i));
  Napi::Value zero = spec.Get("zero");
  if (zero.IsArray()) {
    for (uint32_t i = 0; i < zero.As<Napi::Array>().Length(); ++i) {
      r.zero.push_back(BufferObject::StorageOf(zero.As<Napi::Array>().Get(i), "zeroBeforeEach[" + std::to_string(i) + "]"));
    }
  }
  auto* worker = new LaunchWorker(env, std::move(library), std::move(r));
  Napi::Promise promise = worker->Promise();
  worker->Queue();
  return promise;
}

}  // namespace gpulab
