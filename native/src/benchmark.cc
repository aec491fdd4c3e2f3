#include "benchmark.h"

#include <atomic>
#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "buffer.h"
#include "errors.h"
#include "timed_op.h"

namespace gpulab {

namespace {

// Every measurement of the process runs on this one thread, one at a time, for the life of the process. A BLAS on
// OpenMP (MKL inside PyTorch's libtorch_cpu.so, on GNU OpenMP) keeps a team of threads per calling thread, and its
// thread count is a setting of the calling thread: measured from whichever libuv worker took the job, each worker
// grew a team of its own, the last team's threads still spun while the next one worked, and once more threads were
// managed than there are cores every team's barriers fell back to sleeping (on the GPU machine, MKL at N = 2048 fp32
// took 20.5 ms where torch.matmul takes 12.1, and 16 threads were slower than 8 at N = 512). One long-lived caller
// keeps one team, with its own settings, as a program calling its BLAS from its main thread has.
class MeasurementThread {
 public:
  static MeasurementThread& Get() {
    // Never destroyed, as the thread pool: joining during process exit, after the addon's environment is gone, is not
    // safe.
    static MeasurementThread* thread = new MeasurementThread();
    return *thread;
  }

  // Runs `job` there and returns when it is done; callers take turns. `job` must not throw.
  void Run(const std::function<void()>& job) {
    std::lock_guard<std::mutex> turn(turn_);
    std::unique_lock<std::mutex> lock(m_);
    job_ = &job;
    done_ = false;
    bell_.notify_one();
    finished_.wait(lock, [&] { return done_; });
  }

 private:
  MeasurementThread() {
    std::thread([this] { Loop(); }).detach();
  }

  void Loop() {
    std::unique_lock<std::mutex> lock(m_);
    for (;;) {
      bell_.wait(lock, [&] { return job_ != nullptr; });
      const std::function<void()>* job = job_;
      lock.unlock();
      (*job)();
      lock.lock();
      job_ = nullptr;
      done_ = true;
      finished_.notify_one();
    }
  }

  std::mutex turn_;
  std::mutex m_;
  std::condition_variable bell_;
  std::condition_variable finished_;
  const std::function<void()>* job_ = nullptr;
  bool done_ = false;
};

struct Progress {
  uint32_t done;       // samples taken, warm-up included
  uint32_t total;      // warm-up + repeats
  double lastHostMs;
};

// A batch never holds more executions than this: a 10-ns empty op batched to a millisecond would be 10⁵.
constexpr double kMaxExecutionsPerSample = 100000;

// A warm-up whose fastest run took from one to this many minSampleMs gets up to kExtraCalibrationRuns more runs
// before the batch is sized from it (at most 80 ms more at the break-even labs' 5 ms).
constexpr double kRecheckBelowSamples = 4;
constexpr int kExtraCalibrationRuns = 4;

// Progress reaches JS at most this often, so that a run of a million tiny samples does not flood the event loop.
constexpr double kProgressIntervalMs = 50.0;

class BenchmarkWorker : public Napi::AsyncProgressQueueWorker<Progress> {
 public:
  BenchmarkWorker(Napi::Env env, std::unique_ptr<TimedOp> op, uint32_t warmup, uint32_t repeats, double minSampleMs,
                  uint32_t fixedExecutions, std::shared_ptr<std::atomic<bool>> cancel, Napi::Function onProgress)
      : Napi::AsyncProgressQueueWorker<Progress>(env, "gpu-lab:benchmark"),
        deferred_(Napi::Promise::Deferred::New(env)),
        op_(std::move(op)),
        warmup_(warmup),
        repeats_(repeats),
        minSampleMs_(minSampleMs),
        fixedExecutions_(fixedExecutions),
        cancel_(std::move(cancel)) {
    if (!onProgress.IsEmpty()) onProgress_ = Napi::Persistent(onProgress);
    implementation_ = op_->implementation();
    threads_ = op_->threads();
    if (fixedExecutions_ > 0) executionsPerSample_ = fixedExecutions_;
  }

  Napi::Promise Promise() const { return deferred_.Promise(); }

 protected:
  void Execute(const ExecutionProgress& progress) override {
    MeasurementThread::Get().Run([&] { TakeSamples(progress); });
  }

  void TakeSamples(const ExecutionProgress& progress) {
    try {
      op_->Setup();
      const uint32_t total = warmup_ + repeats_;
      host_.reserve(repeats_);
      device_.reserve(repeats_);
      auto lastSent = Clock::now();
      double fastestWarmupMs = std::numeric_limits<double>::infinity();
      for (uint32_t i = 0; i < total; ++i) {
        if (cancel_->load(std::memory_order_relaxed)) {
          cancelled_ = true;
          break;
        }
        // The batch is sized once, before the first timed sample: from the warm-up's fastest single run, then
        // corrected by untimed batches (a lone run also pays for the clock and for caches its neighbours warm),
        // so that a sample lasts about minSampleMs. No batching without a warm-up or without a minimum. A later round
        // of the same point passes the size its first round found (fixedExecutions) and is not sized again: the
        // calibration batches cost as much as two samples, and rounds of three samples spent half their time on them.
        if (i == warmup_ && warmup_ > 0 && minSampleMs_ > 0 && fastestWarmupMs > 0 && fixedExecutions_ == 0) {
          const auto sized = [](double executions) {
            return static_cast<uint32_t>(std::clamp(std::ceil(executions), 1.0, kMaxExecutionsPerSample));
          };
          // A warm-up whose runs all took a sample's time or a little more can be slow first calls (a BLAS waking
          // its threads took over 5 ms for a 64-µs product, which was then timed one run at a time): a few more
          // single runs, while none comes in under minSampleMs.
          for (int extra = 0; extra < kExtraCalibrationRuns && fastestWarmupMs >= minSampleMs_ &&
                              fastestWarmupMs < kRecheckBelowSamples * minSampleMs_ && !cancel_->load(std::memory_order_relaxed);
               ++extra) {
            fastestWarmupMs = std::min(fastestWarmupMs, op_->Measure().hostMs);
          }
          executionsPerSample_ = sized(minSampleMs_ / fastestWarmupMs);
          if (executionsPerSample_ > 1) {
            // The faster of two batches: one slowed by an interrupt would size every sample too small.
            const double first = op_->MeasureBatch(executionsPerSample_).hostMs;
            const double batchMs = std::min(first, op_->MeasureBatch(executionsPerSample_).hostMs) * executionsPerSample_;
            if (batchMs > 0 && batchMs < minSampleMs_) executionsPerSample_ = sized(executionsPerSample_ * minSampleMs_ / batchMs);
          }
        }
        const Sample s = i < warmup_ ? op_->Measure() : op_->MeasureBatch(executionsPerSample_);
        if (i < warmup_) fastestWarmupMs = std::min(fastestWarmupMs, s.hostMs);
        if (i >= warmup_) {
          host_.push_back(s.hostMs);
          device_.push_back(s.deviceMs);
        }
        const auto now = Clock::now();
        if (i + 1 == total || ElapsedMs(lastSent, now) >= kProgressIntervalMs) {
          Progress p{i + 1, total, s.hostMs};
          progress.Send(&p, 1);
          lastSent = now;
        }
      }
    } catch (const NativeError& e) {
      code_ = e.code();
      SetError(e.what());
    } catch (const std::bad_alloc&) {
      code_ = "OUT_OF_HOST_MEMORY";
      SetError("The measurement ran out of host memory");
    } catch (const std::exception& e) {
      code_ = "NATIVE_ERROR";
      SetError(e.what());
    } catch (...) {
      code_ = "NATIVE_ERROR";
      SetError("The measurement failed with an unknown native error");
    }
    // Release what the op holds (events, streams, scratch memory) on the measurement thread, not the JS one.
    op_.reset();
  }

  void OnProgress(const Progress* data, size_t count) override {
    if (onProgress_.IsEmpty() || count == 0) return;
    Napi::Env env = Env();
    const Progress& p = data[count - 1];
    Napi::Object o = Napi::Object::New(env);
    o.Set("done", p.done);
    o.Set("total", p.total);
    o.Set("lastHostMs", p.lastHostMs);
    onProgress_.Call({o});
  }

  void OnOK() override {
    Napi::Env env = Env();
    Napi::Object r = Napi::Object::New(env);
    Napi::Array host = Napi::Array::New(env, host_.size());
    Napi::Array device = Napi::Array::New(env, device_.size());
    bool anyDevice = false;
    for (size_t i = 0; i < host_.size(); ++i) {
      host.Set(static_cast<uint32_t>(i), host_[i]);
      if (!std::isnan(device_[i])) anyDevice = true;
      device.Set(static_cast<uint32_t>(i), device_[i]);
    }
    r.Set("hostMs", host);
    r.Set("deviceMs", anyDevice ? Napi::Value(device) : env.Null());
    r.Set("implementation", implementation_);
    r.Set("threads", threads_);
    r.Set("warmup", warmup_);
    r.Set("executionsPerSample", executionsPerSample_);
    r.Set("cancelled", cancelled_);
    deferred_.Resolve(r);
  }

  void OnError(const Napi::Error& e) override {
    deferred_.Reject(MakeError(Env(), code_, e.Message()).Value());
  }

 private:
  Napi::Promise::Deferred deferred_;
  std::unique_ptr<TimedOp> op_;
  uint32_t warmup_, repeats_;
  double minSampleMs_;
  uint32_t fixedExecutions_;
  uint32_t executionsPerSample_ = 1;
  std::shared_ptr<std::atomic<bool>> cancel_;
  Napi::FunctionReference onProgress_;
  std::string implementation_;
  int threads_ = 1;
  std::vector<double> host_, device_;
  bool cancelled_ = false;
  std::string code_ = "NATIVE_ERROR";
};

uint32_t CountArg(Napi::Object spec, const char* name, uint32_t min) {
  Napi::Value v = spec.Get(name);
  const double d = v.IsNumber() ? v.As<Napi::Number>().DoubleValue() : std::nan("");
  if (!(d >= min) || std::floor(d) != d || d > 1e9) {
    ThrowInvalid(name, "an integer of at least " + std::to_string(min), v.IsNumber() ? std::to_string(d) : "a non-number");
  }
  return static_cast<uint32_t>(d);
}

OpArgs ParseOpArgs(Napi::Object spec) {
  OpArgs a;
  Napi::Value op = spec.Get("op");
  if (!op.IsString()) ThrowInvalid("op", "an operation name", "a non-string");
  a.op = op.As<Napi::String>().Utf8Value();
  Napi::Value variant = spec.Get("variant");
  if (variant.IsString()) a.variant = variant.As<Napi::String>().Utf8Value();
  Napi::Value device = spec.Get("device");
  if (device.IsNumber()) a.device = device.As<Napi::Number>().Int32Value();
  Napi::Value threads = spec.Get("threads");
  if (threads.IsNumber()) a.threads = threads.As<Napi::Number>().Int32Value();
  Napi::Value buffers = spec.Get("buffers");
  if (buffers.IsObject()) {
    Napi::Object b = buffers.As<Napi::Object>();
    Napi::Array names = b.GetPropertyNames();
    for (uint32_t i = 0; i < names.Length(); ++i) {
      std::string name = names.Get(i).As<Napi::String>().Utf8Value();
      a.buffers[name] = BufferObject::StorageOf(b.Get(name), name);
    }
  }
  Napi::Value numbers = spec.Get("numbers");
  if (numbers.IsObject()) {
    Napi::Object n = numbers.As<Napi::Object>();
    Napi::Array names = n.GetPropertyNames();
    for (uint32_t i = 0; i < names.Length(); ++i) {
      std::string name = names.Get(i).As<Napi::String>().Utf8Value();
      Napi::Value v = n.Get(name);
      if (!v.IsNumber()) ThrowInvalid(name, "a number", "a non-number");
      a.numbers[name] = v.As<Napi::Number>().DoubleValue();
    }
  }
  // The measurement vocabulary's other words, each a string where given.
  for (const char* name : {"path", "clock", "dtype", "mode", "routine"}) {
    Napi::Value v = spec.Get(name);
    if (v.IsUndefined()) continue;
    if (!v.IsString()) ThrowInvalid(name, "a string", "a non-string");
    a.strings[name] = v.As<Napi::String>().Utf8Value();
  }
  return a;
}

Napi::Value StartBenchmark(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return Guarded(env, [&]() -> Napi::Value {
    if (!info[0].IsObject()) ThrowInvalid("spec", "an object", "another value");
    Napi::Object spec = info[0].As<Napi::Object>();
    const uint32_t warmup = CountArg(spec, "warmup", 0);
    const uint32_t repeats = CountArg(spec, "repeats", 1);
    // The facade checks it: a number from 0 (no batching) to 1000 ms.
    Napi::Value minSample = spec.Get("minSampleMs");
    const double minSampleMs = minSample.IsNumber() ? minSample.As<Napi::Number>().DoubleValue() : 0.0;
    // The facade checks it too: 0 (size the batch here) or a count of runs per sample, at most kMaxExecutionsPerSample.
    const uint32_t fixedExecutions = spec.Get("executionsPerSample").IsUndefined() ? 0 : CountArg(spec, "executionsPerSample", 0);
    if (fixedExecutions > kMaxExecutionsPerSample) ThrowInvalid("executionsPerSample", "at most 100000 runs per sample", "more");
    OpArgs args = ParseOpArgs(spec);
    std::unique_ptr<TimedOp> op = CreateOp(args);
    Napi::Function onProgress;
    if (info.Length() > 1 && info[1].IsFunction()) onProgress = info[1].As<Napi::Function>();
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    auto* worker = new BenchmarkWorker(env, std::move(op), warmup, repeats, minSampleMs, fixedExecutions, cancel, onProgress);
    Napi::Object handle = Napi::Object::New(env);
    handle.Set("promise", worker->Promise());
    handle.Set("cancel", Napi::Function::New(env, [cancel](const Napi::CallbackInfo& ci) {
                 cancel->store(true);
                 return ci.Env().Undefined();
               }, "cancel"));
    worker->Queue();
    return handle;
  });
}

}  // namespace

void InitBenchmark(Napi::Env env, Napi::Object exports) {
  exports.Set("startBenchmark", Napi::Function::New(env, StartBenchmark, "startBenchmark"));
}

}  // namespace gpulab
