// "cuda/vector-function": z = a·x² + b·y + c over fp64 vectors.
//   variant "fused"        one kernel over device-resident x, y, z (24 bytes per element)
//   variant "unfused"      three kernels through a scratch vector (56 bytes per element)
//   path "with-copies"     x, y, z in host memory: copy x and y in, run the fused kernel, copy z back
#include "cuda_op.h"
#include "cuda_ops.h"
#include "kernels.cuh"

namespace gpulab {

namespace {

enum class Variant { Fused, Unfused, WithCopies };

// With the copies timed, the fused kernel runs whatever the variant (the facade refuses the unfused one there).
Variant ParseVariant(const OpArgs& args) {
  if (args.variant != "fused" && args.variant != "unfused") {
    throw NativeError("INVALID_ARGUMENT", "Expected \"fused\" or \"unfused\" for `variant` of `vector-function` but received \"" +
                                              args.variant + "\"");
  }
  if (WithCopies(args)) return Variant::WithCopies;
  return args.variant == "fused" ? Variant::Fused : Variant::Unfused;
}

class VectorFunctionOp : public CudaOp {
 public:
  explicit VectorFunctionOp(const OpArgs& args)
      : CudaOp(args), variant_(ParseVariant(args)), a_(args.number("a")), b_(args.number("b")), c_(args.number("c")) {
    const auto operand = [&](const char* name) -> StoragePtr {
      return variant_ == Variant::WithCopies ? HostOperandOf(args, name, DType::F64) : DeviceOperand(args, name, DType::F64);
    };
    x_ = operand("x");
    y_ = operand("y");
    z_ = operand("out");
    RequireSameLength(args, x_, "x", y_, "y");
    RequireSameLength(args, x_, "x", z_, "out");
  }

  std::string implementation() const override {
    switch (variant_) {
      case Variant::Fused: return "CUDA kernel, fused: one pass (shaders/cuda/vector_function.cu)";
      case Variant::Unfused: return "CUDA kernels, unfused: three passes (shaders/cuda/vector_function.cu)";
      case Variant::WithCopies: return "CUDA kernel, fused, with host↔device copies (shaders/cuda/vector_function.cu)";
    }
    return "";
  }

 protected:
  // Copies from pageable host memory make the host wait for the device.
  bool EnqueueIsAsync() const override { return variant_ != Variant::WithCopies; }

  void Prepare() override {
    const size_t bytes = z_->bytes();
    if (variant_ == Variant::Unfused) scratch_ = DeviceAllocation(bytes, device_, "scratch vector of the unfused passes");
    if (variant_ == Variant::WithCopies) {
      dx_ = DeviceAllocation(bytes, device_, "device copy of x");
      dy_ = DeviceAllocation(bytes, device_, "device copy of y");
      dz_ = DeviceAllocation(bytes, device_, "device copy of z");
      return;
    }
    const bool aliased = z_->data == x_->data || z_->data == y_->data;
    rotation_.Prepare({x_, y_}, device_, stream_, !aliased);
  }

  void Enqueue() override {
    const size_t n = z_->length, bytes = z_->bytes();
    switch (variant_) {
      case Variant::Fused:
        CUDA_CHECK(kernels::LaunchVectorFunctionFused(rotation_.Input<double>(0), rotation_.Input<double>(1),
                                                      z_->as<double>(), a_, b_, c_, n, stream_));
        rotation_.Next();
        break;
      case Variant::Unfused:
        CUDA_CHECK(kernels::LaunchVectorFunctionUnfused(rotation_.Input<double>(0), rotation_.Input<double>(1),
                                                        scratch_.as<double>(), z_->as<double>(), a_, b_, c_, n, stream_));
        rotation_.Next();
        break;
      case Variant::WithCopies:
        CUDA_CHECK(cudaMemcpyAsync(dx_.get(), x_->data, bytes, cudaMemcpyHostToDevice, stream_));
        CUDA_CHECK(cudaMemcpyAsync(dy_.get(), y_->data, bytes, cudaMemcpyHostToDevice, stream_));
        CUDA_CHECK(kernels::LaunchVectorFunctionFused(dx_.as<double>(), dy_.as<double>(), dz_.as<double>(), a_, b_, c_, n,
                                                      stream_));
        CUDA_CHECK(cudaMemcpyAsync(z_->data, dz_.get(), bytes, cudaMemcpyDeviceToHost, stream_));
        break;
    }
  }

 private:
  Variant variant_;
  double a_, b_, c_;
  StoragePtr x_, y_, z_;
  InputRotation rotation_;
  DeviceAllocation scratch_, dx_, dy_, dz_;
};

}  // namespace

void RegisterCudaVectorFunction() {
  RegisterOp("cuda/vector-function",
             [](const OpArgs& a) -> std::unique_ptr<TimedOp> { return std::make_unique<VectorFunctionOp>(a); });
}

}  // namespace gpulab
