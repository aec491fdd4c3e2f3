// Argument checks shared by the CPU ops. The facade validated everything already; these keep a direct caller of
// the raw addon from reaching out-of-bounds memory.
#pragma once
#include <string>

#include "../src/errors.h"
#include "../src/thread_pool.h"
#include "../src/timed_op.h"

// Hot loops are compiled three times, for AVX-512, AVX2+FMA and the baseline; the loader picks one per machine (ifunc).
#if defined(__x86_64__) && defined(__linux__)
#define GPULAB_SIMD_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2,fma", "default")))
#else
#define GPULAB_SIMD_CLONES
#endif

namespace gpulab {

inline const StoragePtr& HostOperand(const OpArgs& args, const std::string& name, DType dtype) {
  const StoragePtr& s = args.buffer(name);
  if (s->location == Location::Device) {
    throw NativeError("INVALID_ARGUMENT", "Expected host memory for `" + name + "` of the CPU operation `" + args.op +
                                              "` but received a device buffer");
  }
  if (s->dtype != dtype) {
    throw NativeError("DTYPE_MISMATCH", std::string("Expected a ") + DTypeName(dtype) + " buffer for `" + name +
                                            "` but received " + DTypeName(s->dtype));
  }
  return s;
}

inline void SameLength(const OpArgs& args, const StoragePtr& a, const char* an, const StoragePtr& b, const char* bn) {
  if (a->length != b->length) {
    throw NativeError("LENGTH_MISMATCH", "Expected `" + std::string(bn) + "` to have the " + std::to_string(a->length) +
                                             " elements of `" + an + "` but it has " + std::to_string(b->length) +
                                             " (operation `" + args.op + "`)");
  }
}

// The variant's thread count: 1 for "single", else what was asked for, or every logical core.
inline int ThreadsFor(const OpArgs& args) {
  if (args.variant == "single") return 1;
  if (args.variant != "threads") {
    throw NativeError("INVALID_ARGUMENT", "Expected \"single\" or \"threads\" for `variant` of `" + args.op +
                                              "` but received \"" + args.variant + "\"");
  }
  if (args.threads < 0 || args.threads > static_cast<int>(ThreadPool::kMaxThreads)) {
    throw NativeError("INVALID_ARGUMENT", "Expected 1 to " + std::to_string(ThreadPool::kMaxThreads) +
                                              " for `threads` but received " + std::to_string(args.threads));
  }
  return args.threads > 0 ? args.threads : static_cast<int>(ThreadPool::Global().size());
}

// Elements below which a memory-bound loop is not worth another thread (PyTorch's parallel grain is the same).
constexpr size_t kLoopGrain = 32768;

inline std::string LoopName(int threads) {
  return threads == 1 ? "single-thread loop"
                      : "native loop on up to " + std::to_string(threads) + " threads (" + std::to_string(kLoopGrain) +
                            "+ elements each)";
}

}  // namespace gpulab
