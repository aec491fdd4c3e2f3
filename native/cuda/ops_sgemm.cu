// "cuda/gemm", variants "naive" and "tiled": the hand-written fp32 GEMM kernels of shaders/cuda/sgemm.cu on
// device-resident A, B and C (cuBLAS's, variant "cublas", is ops_gemm.cu). No input rotation: at the sizes where
// these kernels are worth timing the matrices are re-read many times from the L2 within one execution anyway.
#include "cuda_op.h"
#include "cuda_ops.h"
#include "kernels.cuh"

namespace gpulab {

namespace {

class SgemmOp : public CudaOp {
 public:
  SgemmOp(bool tiled, const OpArgs& args) : CudaOp(args), tiled_(tiled) {
    a_ = DeviceOperand(args, "a", DType::F32);
    b_ = DeviceOperand(args, "b", DType::F32);
    out_ = DeviceOperand(args, "out", DType::F32);
    shape_ = GemmShapeOf(args, *a_, *b_, *out_);
  }

  std::string implementation() const override {
    return tiled_ ? "CUDA kernel sgemm tiled: 128×128 tiles in shared memory, 8×8 per thread (shaders/cuda/sgemm.cu)"
                  : "CUDA kernel sgemm naive: one thread per output (shaders/cuda/sgemm.cu)";
  }

 protected:
  void Enqueue() override {
    const auto launch = tiled_ ? kernels::LaunchSgemmTiled : kernels::LaunchSgemmNaive;
    CUDA_CHECK(launch(a_->as<float>(), b_->as<float>(), out_->as<float>(), shape_.m, shape_.n, shape_.k, stream_));
  }

 private:
  bool tiled_;
  StoragePtr a_, b_, out_;
  GemmShape shape_{};
};

}  // namespace

void RegisterCudaSgemm() {
  RegisterOp("cuda/gemm/naive", [](const OpArgs& a) -> std::unique_ptr<TimedOp> { return std::make_unique<SgemmOp>(false, a); });
  RegisterOp("cuda/gemm/tiled", [](const OpArgs& a) -> std::unique_ptr<TimedOp> { return std::make_unique<SgemmOp>(true, a); });
}

}  // namespace gpulab
