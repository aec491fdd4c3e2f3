// What the timing harness runs. An operation is built on the JS thread from plain arguments (OpArgs), then
// measured on a worker thread that touches nothing of N-API. Each op file registers a factory by name.
#pragma once
#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "storage.h"

namespace gpulab {

// One measurement. hostMs: monotonic host clock around one complete execution. deviceMs: device time from CUDA
// events, NaN where the op recorded none (the host clock, and work on the CPU).
struct Sample {
  double hostMs;
  double deviceMs;
};

using Clock = std::chrono::steady_clock;
inline double ElapsedMs(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

class TimedOp {
 public:
  virtual ~TimedOp() = default;
  // Names the code that runs, as results show it: "single-thread loop", "OpenBLAS 0.3.21 (libopenblas.so.0)".
  virtual std::string implementation() const = 0;
  // Threads the op computes with (1 for the single-thread loops).
  virtual int threads() const { return 1; }
  // Runs on the worker thread once before warm-up (binding a CUDA device to the thread, creating handles).
  virtual void Setup() {}
  // One complete execution: when it returns, the result is in the output buffer.
  virtual void Run() = 0;
  // One sample. The default times Run() with the host clock; GPU ops override it to use events.
  virtual Sample Measure() {
    const auto t0 = Clock::now();
    Run();
    const auto t1 = Clock::now();
    return {ElapsedMs(t0, t1), std::nan("")};
  }
  // One sample of `executions` complete executions back to back on the host clock, divided by their number: the
  // mean time of one, for an execution too short for a single reading to be more than the clock's and the
  // scheduler's jitter. Each execution is whole (a GPU op synchronises every one), so the mean is the time one
  // call costs in a loop of calls. With one execution, Measure().
  virtual Sample MeasureBatch(uint32_t executions) {
    if (executions <= 1) return Measure();
    const auto t0 = Clock::now();
    for (uint32_t i = 0; i < executions; ++i) Run();
    return {ElapsedMs(t0, Clock::now()) / executions, std::nan("")};
  }
};

// Plain copies of the JS arguments of one measurement. Factories read what they need and throw NativeError
// (INVALID_ARGUMENT, DTYPE_MISMATCH, …) where memory would be at stake; the facade (native/*.ts) checked the rest.
// The words are the measurement vocabulary's (main/common/measurement.ts), unchanged: `op`, `variant` (the
// implementation), and in `strings` `path` (resident, with-copies), `clock` (events, host, host-nosync), `dtype`,
// `mode` (a copy's sync, async) and `routine` (cuBLAS's saxpy, sum, transpose).
struct OpArgs {
  std::string op;
  std::string variant;
  int device = -1;   // -1: the CPU; otherwise a CUDA ordinal
  int threads = 0;   // 0: all logical cores
  std::map<std::string, StoragePtr> buffers;
  std::map<std::string, double> numbers;
  std::map<std::string, std::string> strings;

  const StoragePtr& buffer(const std::string& name) const;
  double number(const std::string& name) const;
  double number(const std::string& name, double fallback) const;
  std::string string(const std::string& name, const std::string& fallback) const;
};

using OpFactory = std::unique_ptr<TimedOp> (*)(const OpArgs&);
// `key` is "cpu/<op>" or "cuda/<op>": the same op name is a different factory on each side; "cuda/<op>/<variant>"
// where one variant of an op is an op file of its own (the hand-written GEMMs beside cuBLAS's).
void RegisterOp(const std::string& key, OpFactory factory);
std::unique_ptr<TimedOp> CreateOp(const OpArgs& args);

}  // namespace gpulab
