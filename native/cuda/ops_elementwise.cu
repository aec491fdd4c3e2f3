// "cuda/add", "cuda/mul", "cuda/exp" (fp32) and "cuda/empty".
//   path "resident"     operands in device memory; inputs smaller than the L2 are rotated (see InputRotation)
//   path "with-copies"  operands in host memory: each execution copies the inputs in, runs the kernel and copies
//                          the result back, as a program that keeps its data on the host pays
#include "cuda_op.h"
#include "cuda_ops.h"
#include "kernels.cuh"

namespace gpulab {

namespace {

enum class Kind { Add, Mul, Exp };

const char* KindName(Kind k) { return k == Kind::Add ? "add" : k == Kind::Mul ? "mul" : "exp"; }

class ElementwiseOp : public CudaOp {
 public:
  ElementwiseOp(Kind kind, const OpArgs& args) : CudaOp(args), kind_(kind) {
    withCopies_ = WithCopies(args);
    const auto operand = [&](const char* name) -> StoragePtr {
      return withCopies_ ? HostOperandOf(args, name, DType::F32) : DeviceOperand(args, name, DType::F32);
    };
    for (const char* name : kind == Kind::Exp ? std::vector<const char*>{"x"} : std::vector<const char*>{"a", "b"}) {
      inputs_.push_back(operand(name));
      RequireSameLength(args, inputs_.front(), kind == Kind::Exp ? "x" : "a", inputs_.back(), name);
    }
    out_ = operand("out");
    RequireSameLength(args, inputs_.front(), kind == Kind::Exp ? "x" : "a", out_, "out");
  }

  std::string implementation() const override {
    return std::string("CUDA kernel ") + KindName(kind_) + " (shaders/cuda/elementwise.cu: grid-stride, float4)" +
           (withCopies_ ? " with host↔device copies" : "");
  }

 protected:
  // Copies from pageable host memory make the host wait for the device.
  bool EnqueueIsAsync() const override { return !withCopies_; }

  void Prepare() override {
    const size_t bytes = out_->bytes();
    if (withCopies_) {
      for (size_t i = 0; i < inputs_.size(); ++i) staged_.emplace_back(bytes, device_, "device copy of an input");
      stagedOut_ = DeviceAllocation(bytes, device_, "device copy of the output");
      return;
    }
    // An output that is also an input would make the rotated copies stale.
    bool aliased = false;
    for (const StoragePtr& in : inputs_) aliased = aliased || in->data == out_->data;
    rotation_.Prepare(inputs_, device_, stream_, !aliased);
  }

  void Enqueue() override {
    const size_t n = out_->length, bytes = out_->bytes();
    if (withCopies_) {
      for (size_t i = 0; i < inputs_.size(); ++i) {
        CUDA_CHECK(cudaMemcpyAsync(staged_[i].get(), inputs_[i]->data, bytes, cudaMemcpyHostToDevice, stream_));
      }
      Launch(staged_[0].as<float>(), staged_.size() > 1 ? staged_[1].as<float>() : nullptr, stagedOut_.as<float>(), n);
      CUDA_CHECK(cudaMemcpyAsync(out_->data, stagedOut_.get(), bytes, cudaMemcpyDeviceToHost, stream_));
      return;
    }
    const float* b = inputs_.size() > 1 ? rotation_.Input<float>(1) : nullptr;
    Launch(rotation_.Input<float>(0), b, out_->as<float>(), n);
    rotation_.Next();
  }

 private:
  void Launch(const float* a, const float* b, float* out, size_t n) {
    switch (kind_) {
      case Kind::Add: CUDA_CHECK(kernels::LaunchAdd(a, b, out, n, stream_)); break;
      case Kind::Mul: CUDA_CHECK(kernels::LaunchMul(a, b, out, n, stream_)); break;
      case Kind::Exp: CUDA_CHECK(kernels::LaunchExp(a, out, n, stream_)); break;
    }
  }

  Kind kind_;
  bool withCopies_ = false;
  std::vector<StoragePtr> inputs_;
  StoragePtr out_;
  InputRotation rotation_;
  std::vector<DeviceAllocation> staged_;
  DeviceAllocation stagedOut_;
};

class EmptyOp : public CudaOp {
 public:
  using CudaOp::CudaOp;
  std::string implementation() const override { return "empty CUDA kernel, 1 block of 1 thread (shaders/cuda/empty.cu)"; }

 protected:
  void Enqueue() override { CUDA_CHECK(kernels::LaunchEmpty(stream_)); }
};

}  // namespace

void RegisterCudaElementwise() {
  RegisterOp("cuda/add", [](const OpArgs& a) -> std::unique_ptr<TimedOp> { return std::make_unique<ElementwiseOp>(Kind::Add, a); });
  RegisterOp("cuda/mul", [](const OpArgs& a) -> std::unique_ptr<TimedOp> { return std::make_unique<ElementwiseOp>(Kind::Mul, a); });
  RegisterOp("cuda/exp", [](const OpArgs& a) -> std::unique_ptr<TimedOp> { return std::make_unique<ElementwiseOp>(Kind::Exp, a); });
  RegisterOp("cuda/empty", [](const OpArgs& a) -> std::unique_ptr<TimedOp> { return std::make_unique<EmptyOp>(a); });
}

}  // namespace gpulab
