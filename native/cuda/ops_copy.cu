// "cuda/copy": one copy of a whole buffer, host→device, device→host or device→device, inferred from where `src`
// and `dst` live (pageable host, pinned host or device memory).
//   mode "sync"   cudaMemcpy: the host waits (for host↔device copies) until the copy is done. Between device
//                    buffers cudaMemcpy returns at once; every clock still waits for the copy to finish, as a
//                    user's next call that touches the data would.
//   mode "async"  cudaMemcpyAsync on the op's stream. From pinned memory the copy engine reads host memory
//                    directly; from pageable memory the driver stages it through a pinned bounce buffer, so the
//                    call behaves almost synchronously and runs at a fraction of the link speed.
#include "cuda_op.h"
#include "cuda_ops.h"

namespace gpulab {

namespace {

class CopyOp : public CudaOp {
 public:
  explicit CopyOp(const OpArgs& args) : CudaOp(args) {
    const std::string mode = args.string("mode", "");
    async_ = mode == "async";
    if (!async_ && mode != "sync") {
      throw NativeError("INVALID_ARGUMENT", "Expected \"sync\" or \"async\" for `mode` of `copy` but received \"" + mode + "\"");
    }
    src_ = args.buffer("src");
    dst_ = args.buffer("dst");
    const bool fromDevice = src_->location == Location::Device, toDevice = dst_->location == Location::Device;
    if (!fromDevice && !toDevice) {
      throw NativeError("INVALID_ARGUMENT", "Expected a device buffer for `src` or `dst` of `copy` but both are host memory");
    }
    for (const StoragePtr* s : {&src_, &dst_}) {
      if ((*s)->location == Location::Device && (*s)->device != args.device) {
        throw NativeError("INVALID_ARGUMENT", "Expected the device buffers of `copy` on cuda:" + std::to_string(args.device) +
                                                  " but one is on cuda:" + std::to_string((*s)->device));
      }
    }
    if (src_->bytes() != dst_->bytes()) {
      throw NativeError("LENGTH_MISMATCH", "Expected `dst` to hold the " + std::to_string(src_->bytes()) +
                                               " bytes of `src` but it holds " + std::to_string(dst_->bytes()));
    }
    kind_ = fromDevice && toDevice ? cudaMemcpyDeviceToDevice : fromDevice ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice;
    const Storage& host = fromDevice ? *dst_ : *src_;
    description_ = kind_ == cudaMemcpyDeviceToDevice ? "device → device"
                   : std::string(kind_ == cudaMemcpyHostToDevice ? "host → device, " : "device → host, ") +
                         (host.location == Location::Pinned ? "pinned" : "pageable") + " host memory";
  }

  std::string implementation() const override {
    return std::string(async_ ? "cudaMemcpyAsync" : "cudaMemcpy") + ", " + description_;
  }

 protected:
  // Only an asynchronous copy between device and device or pinned memory returns before the copy is done.
  bool EnqueueIsAsync() const override {
    return async_ && src_->location != Location::Host && dst_->location != Location::Host;
  }

  void Enqueue() override {
    if (async_) {
      CUDA_CHECK(cudaMemcpyAsync(dst_->data, src_->data, src_->bytes(), kind_, stream_));
    } else {
      CUDA_CHECK(cudaMemcpy(dst_->data, src_->data, src_->bytes(), kind_));
    }
  }

 private:
  bool async_ = false;
  StoragePtr src_, dst_;
  cudaMemcpyKind kind_ = cudaMemcpyDefault;
  std::string description_;
};

}  // namespace

void RegisterCudaCopy() {
  RegisterOp("cuda/copy", [](const OpArgs& a) -> std::unique_ptr<TimedOp> { return std::make_unique<CopyOp>(a); });
}

}  // namespace gpulab
