#include "cuda_op.h"

#include <algorithm>
#include <atomic>
#include <cmath>

#include "kernels.cuh"

namespace gpulab {

namespace {

SampleClock ParseClock(const OpArgs& args) {
  const std::string c = args.string("clock", "events");
  if (c == "events") return SampleClock::Events;
  if (c == "host") return SampleClock::Host;
  if (c == "host-nosync") return SampleClock::HostNoSync;
  throw NativeError("INVALID_ARGUMENT", "Expected one of events, host, host-nosync for `clock` but received \"" + c + "\"");
}

}  // namespace

CudaOp::CudaOp(const OpArgs& args) : device_(args.device), clock_(ParseClock(args)) {}

CudaOp::~CudaOp() {
  // On the worker thread, after the last sample; nothing can be reported from a destructor.
  if (start_) DropCudaError(cudaEventDestroy(start_));
  if (stop_) DropCudaError(cudaEventDestroy(stop_));
  if (stream_) DropCudaError(cudaStreamDestroy(stream_));
  if (hold_) DropCudaError(cudaFreeHost(hold_));
}

void CudaOp::Setup() {
  CheckDeviceOrdinal(device_);
  // The device is a property of the host thread, and worker threads are shared: bind it on every measurement.
  CUDA_CHECK(cudaSetDevice(device_));
  // A blocking stream: work on the legacy default stream (cudaMemcpy) is ordered with it, so events on this stream
  // also bracket synchronous copies.
  CUDA_CHECK(cudaStreamCreate(&stream_));
  CUDA_CHECK(cudaEventCreate(&start_));
  CUDA_CHECK(cudaEventCreate(&stop_));
  if (clock_ == SampleClock::Events && EnqueueIsAsync()) {
    CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&hold_), sizeof(HoldFlags), cudaHostAllocMapped | cudaHostAllocPortable));
    hold_->release = 1;
    hold_->timedOut = 0;
  }
  Prepare();
  // The first launch of a kernel loads it (lazy module loading), and the load waits for the kernels running on
  // the device: behind a spinning hold kernel, the first sample took the hold's whole 50 ms timeout. One untimed
  // execution without the hold loads everything the op launches.
  Run();
  if (hold_) {
    // One held execution: where even this one times out (a tool that serialises launches holds the work back
    // until the hold kernel gives up), the op is timed without the hold rather than failing every sample.
    QueueHeldExecution();
    CUDA_CHECK(cudaEventSynchronize(stop_));
    if (HoldTimedOut()) {
      CUDA_CHECK(cudaFreeHost(hold_));
      hold_ = nullptr;
    }
  }
}

void CudaOp::Run() {
  Enqueue();
  WaitForWork();
  Finish();
}

// cudaStreamSynchronize(stream_) is not enough: a synchronous copy runs on the legacy default stream, and between
// device buffers cudaMemcpy returns before the copy is done, so the stream has nothing left to wait for (1 GiB
// device → device read 0.012 ms on the host clock against 0.515 ms of events). stream_ is a blocking stream: an
// event recorded on it after the copy completes only after the copy.
void CudaOp::WaitForWork() {
  CUDA_CHECK(cudaEventRecord(stop_, stream_));
  CUDA_CHECK(cudaEventSynchronize(stop_));
}

namespace {

// The hold kernel gives up after this long: far more than queueing any op takes, short enough that a host that
// never releases it costs one slow sample.
constexpr unsigned long long kHoldTimeoutNs = 50'000'000;

// Releases the hold kernel when it goes out of scope, also when Enqueue() throws.
class HoldRelease {
 public:
  explicit HoldRelease(int* flag) : flag_(flag) {}
  ~HoldRelease() {
    if (!flag_) return;
    std::atomic_thread_fence(std::memory_order_release);
    *static_cast<volatile int*>(flag_) = 1;
  }
  HoldRelease(const HoldRelease&) = delete;
  HoldRelease& operator=(const HoldRelease&) = delete;

 private:
  int* flag_;
};

}  // namespace

void CudaOp::QueueHeldExecution() {
  if (hold_) {
    *static_cast<volatile int*>(&hold_->release) = 0;
    *static_cast<volatile int*>(&hold_->timedOut) = 0;
    CUDA_CHECK(kernels::LaunchHold(&hold_->release, &hold_->timedOut, kHoldTimeoutNs, stream_));
  }
  HoldRelease release(hold_ ? &hold_->release : nullptr);
  CUDA_CHECK(cudaEventRecord(start_, stream_));
  Enqueue();
  CUDA_CHECK(cudaEventRecord(stop_, stream_));
}

bool CudaOp::HoldTimedOut() const {
  return hold_ && *static_cast<const volatile int*>(&hold_->timedOut) != 0;
}

Sample CudaOp::MeasureBatch(uint32_t executions) {
  if (executions <= 1 || clock_ != SampleClock::Host) return Measure();
  const auto t0 = Clock::now();
  for (uint32_t i = 0; i < executions; ++i) {
    Enqueue();
    WaitForWork();
  }
  const double hostMs = ElapsedMs(t0, Clock::now()) / executions;
  // Once, outside the window: every execution wrote the same output.
  Finish();
  return {hostMs, std::nan("")};
}

Sample CudaOp::Measure() {
  float deviceMs = std::nanf("");
  double hostMs = 0;
  switch (clock_) {
    case SampleClock::Events: {
      const auto t0 = Clock::now();
      QueueHeldExecution();
      CUDA_CHECK(cudaEventSynchronize(stop_));
      hostMs = ElapsedMs(t0, Clock::now());
      CUDA_CHECK(cudaEventElapsedTime(&deviceMs, start_, stop_));
      if (HoldTimedOut()) {
        throw NativeError("CUDA_ERROR", "The events clock's hold kernel gave up after " +
                                            std::to_string(kHoldTimeoutNs / 1'000'000) +
                                            " ms, before the host had queued the work: the GPU may have started it "
                                            "while the host was still queueing, so this sample's device time (" +
                                            std::to_string(deviceMs) +
                                            " ms) is not the work's own. The host was stalled (a busy CPU?); "
                                            "measure again");
      }
      break;
    }
    case SampleClock::Host: {
      const auto t0 = Clock::now();
      Enqueue();
      WaitForWork();
      hostMs = ElapsedMs(t0, Clock::now());
      break;
    }
    case SampleClock::HostNoSync: {
      CUDA_CHECK(cudaEventRecord(start_, stream_));
      const auto t0 = Clock::now();
      Enqueue();
      hostMs = ElapsedMs(t0, Clock::now());
      CUDA_CHECK(cudaEventRecord(stop_, stream_));
      CUDA_CHECK(cudaEventSynchronize(stop_));
      CUDA_CHECK(cudaEventElapsedTime(&deviceMs, start_, stop_));
      break;
    }
  }
  Finish();
  return {hostMs, static_cast<double>(deviceMs)};
}

bool WithCopies(const OpArgs& args) {
  const std::string path = args.string("path", "resident");
  if (path != "resident" && path != "with-copies") {
    throw NativeError("INVALID_ARGUMENT", "Expected \"resident\" or \"with-copies\" for `path` of `" + args.op +
                                              "` but received \"" + path + "\"");
  }
  return path == "with-copies";
}

const StoragePtr& DeviceOperand(const OpArgs& args, const std::string& name, DType dtype) {
  const StoragePtr& s = args.buffer(name);
  if (s->location != Location::Device || s->device != args.device) {
    throw NativeError("INVALID_ARGUMENT", "Expected device memory on cuda:" + std::to_string(args.device) + " for `" +
                                              name + "` of `" + args.op + "` but received " + LocationName(s->location) +
                                              (s->location == Location::Device ? " memory on cuda:" + std::to_string(s->device)
                                                                               : std::string(" memory")));
  }
  if (s->dtype != dtype) {
    throw NativeError("DTYPE_MISMATCH", std::string("Expected a ") + DTypeName(dtype) + " buffer for `" + name +
                                            "` but received " + DTypeName(s->dtype));
  }
  return s;
}

const StoragePtr& HostOperandOf(const OpArgs& args, const std::string& name, DType dtype) {
  const StoragePtr& s = args.buffer(name);
  if (s->location == Location::Device) {
    throw NativeError("INVALID_ARGUMENT", "Expected host or pinned memory for `" + name + "` of `" + args.op +
                                              "` (path with-copies) but received device memory");
  }
  if (s->dtype != dtype) {
    throw NativeError("DTYPE_MISMATCH", std::string("Expected a ") + DTypeName(dtype) + " buffer for `" + name +
                                            "` but received " + DTypeName(s->dtype));
  }
  return s;
}

void RequireSameLength(const OpArgs& args, const StoragePtr& a, const char* an, const StoragePtr& b, const char* bn) {
  if (a->length != b->length) {
    throw NativeError("LENGTH_MISMATCH", "Expected `" + std::string(bn) + "` to have the " + std::to_string(a->length) +
                                             " elements of `" + an + "` but it has " + std::to_string(b->length) +
                                             " (operation `" + args.op + "`)");
  }
}

void InputRotation::Prepare(std::vector<StoragePtr> inputs, int device, cudaStream_t stream, bool copy) {
  originals_ = std::move(inputs);
  size_t bytes = 0;
  for (const StoragePtr& s : originals_) bytes += s->bytes();
  int l2 = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  const size_t l2Bytes = static_cast<size_t>(l2);
  sets_ = !copy || bytes == 0 || bytes >= l2Bytes ? 1 : std::min<size_t>(kMaxSets, (2 * l2Bytes + bytes - 1) / bytes);
  set_ = 0;
  copies_.clear();
  for (size_t set = 1; set < sets_; ++set) {
    for (const StoragePtr& s : originals_) {
      copies_.emplace_back(s->bytes(), device, "rotated input copy");
      CUDA_CHECK(cudaMemcpyAsync(copies_.back().get(), s->data, s->bytes(), cudaMemcpyDeviceToDevice, stream));
    }
  }
}

}  // namespace gpulab
