// The base of every "cuda/<op>" TimedOp: binds the worker thread to the op's device, owns a stream and a pair of
// events, and times one execution on the clock the spec's `clock` names:
//
//   events       CUDA events recorded around the work on the op's stream: deviceMs is the GPU's own time; hostMs
//                runs from before the first event to after the second completed (launch + work + wake-up). Where
//                the work is queued without blocking the host, the events and the work are queued behind a hold
//                kernel (shaders/cuda/hold.cu) and released together, so that the host's submission time stays out
//                of deviceMs. A sample whose hold gave up before the host released it is refused (CUDA_ERROR):
//                its window may hold host time. Where the hold can never be released in time (a tool that
//                serialises launches, compute-sanitizer among them), the op is timed without it.
//   host         the host's monotonic clock around the work and the wait for all of it (a synchronous copy
//                included): end to end, as a user's wall clock sees it. No deviceMs.
//   host-nosync  the timing-pitfalls mistake: the host clock is read right after the work is queued, without
//                waiting for it. hostMs then shows the cost of queueing (a few µs), not the work. Events are
//                recorded outside that window, so deviceMs still shows what the GPU really spent, and the op waits
//                for them after reading the clock, so that no sample starts while the last one still runs.
//
// Subclasses check their arguments in the constructor (JS thread, no CUDA calls), allocate in Prepare() and queue
// one execution in Enqueue() (worker thread). Setup() runs one untimed execution, so that no sample pays for
// loading a kernel.
#pragma once
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "check.h"
#include "memory.h"
#include "src/gemm_shape.h"
#include "src/timed_op.h"

namespace gpulab {

// The measurement vocabulary's clocks (main/common/measurement.ts CLOCKS).
enum class SampleClock { Events, Host, HostNoSync };

class CudaOp : public TimedOp {
 public:
  explicit CudaOp(const OpArgs& args);
  ~CudaOp() override;

  void Setup() final;
  void Run() final;
  Sample Measure() final;
  // Batches on the host clock only: a device-timed sample is already free of the host's jitter, and a clock stopped
  // at the launch measures the launch, one at a time.
  Sample MeasureBatch(uint32_t executions) final;

 protected:
  // Worker thread, device bound, stream created: allocate scratch memory, create library handles.
  virtual void Prepare() {}
  // Queues one complete execution on stream_ (a synchronous copy may also block until done).
  virtual void Enqueue() = 0;
  // Runs after each timed execution has completed, outside the timed window: turning a result into the output
  // buffer's format, for instance.
  virtual void Finish() {}
  // Whether Enqueue() returns without waiting for the GPU. Copies from pageable memory and synchronous copies wait
  // for the device, so they cannot be queued behind the hold kernel (the host would wait for a GPU that waits for
  // the host).
  virtual bool EnqueueIsAsync() const { return true; }

  int device_;
  SampleClock clock_;
  cudaStream_t stream_ = nullptr;

 private:
  // Blocks until everything Enqueue() queued is done, on stream_ and on the legacy default stream.
  void WaitForWork();

  // Mapped pinned memory shared with the hold kernel: the host sets `release`, the kernel sets `timedOut` when it
  // gave up waiting.
  struct HoldFlags {
    int release;
    int timedOut;
  };

  // Queues one execution between start_ and stop_, behind the hold kernel where there is one.
  void QueueHeldExecution();
  // After stop_ completed: whether the hold of that execution gave up before the host released it.
  bool HoldTimedOut() const;

  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  // Null when the op is timed without the hold.
  HoldFlags* hold_ = nullptr;
};

// Whether the spec's `path` is with-copies (operands in host memory, the copies timed) rather than resident.
bool WithCopies(const OpArgs& args);
// The device operand `name`: device memory on the op's device, of `dtype`. Throws INVALID_ARGUMENT or
// DTYPE_MISMATCH naming the argument.
const StoragePtr& DeviceOperand(const OpArgs& args, const std::string& name, DType dtype);
// A host operand (pageable or pinned) of `dtype`.
const StoragePtr& HostOperandOf(const OpArgs& args, const std::string& name, DType dtype);
// Throws LENGTH_MISMATCH unless `b` has as many elements as `a`.
void RequireSameLength(const OpArgs& args, const StoragePtr& a, const char* an, const StoragePtr& b, const char* bn);


// Rotating copies of input buffers, for kernels whose inputs fit in the L2 cache: timing the same small input
// again and again measures the cache, not the memory. The inputs are copied into enough sets to cover twice the
// L2 (at most kMaxSets sets), and each execution uses the next set. Inputs larger than the L2 are not copied.
class InputRotation {
 public:
  static constexpr int kMaxSets = 16;
  // Worker thread, `device` current. With `copy` false (an output aliases an input) the inputs are used as they are.
  void Prepare(std::vector<StoragePtr> inputs, int device, cudaStream_t stream, bool copy = true);
  // Input `i` of the set this execution uses.
  template <typename T>
  const T* Input(size_t i) const {
    return static_cast<const T*>(set_ == 0 ? originals_[i]->data : copies_[(set_ - 1) * originals_.size() + i].get());
  }
  void Next() { set_ = (set_ + 1) % sets_; }
  int sets() const { return sets_; }

 private:
  std::vector<StoragePtr> originals_;
  std::vector<DeviceAllocation> copies_;
  size_t sets_ = 1, set_ = 0;
};

}  // namespace gpulab
