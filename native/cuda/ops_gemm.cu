// "cuda/gemm": C = A·B through cuBLAS (cublasGemmEx), row-major like the CPU GEMM.
//   buffers   fp64, fp32, fp16, bf16 (A, B and C of one dtype), or int8 A and B with an fp32 C
//   math      "default", or "tf32" for fp32 buffers: TF32 tensor cores (10-bit mantissa inputs, fp32 accumulate)
//   variant   "resident" (device buffers) or "with-copies" (host buffers copied in and the result back each time)
//
// cuBLAS is column-major; a row-major C = A·B is the column-major Cᵀ = Bᵀ·Aᵀ, so B is passed first and no data
// is transposed. Compute types: fp64 → 64F; fp32 → 32F with the default math mode, which never uses TF32 (unless
// NVIDIA_TF32_OVERRIDE=1 is set in the environment); tf32 → 32F_FAST_TF32; fp16 and bf16 → 32F (fp32 accumulate,
// as PyTorch does); int8 → 32I into an int32 scratch matrix, cast to fp32 after the timed region. int8 tensor
// cores need both operands k-major ("TN"): A already is; B is transposed into Bᵀ, once before timing for resident
// data (as int8 weights are stored), inside every execution for the with-copies variant.
#include <library_types.h>

#include "cublas.h"
#include "cuda_op.h"
#include "cuda_ops.h"
#include "kernels.cuh"

namespace gpulab {

namespace {

struct GemmTypes {
  cudaDataType ab, c;
  cublasComputeType_t compute;
  const char* computeName;
};

GemmTypes TypesFor(DType dtype, bool tf32) {
  switch (dtype) {
    case DType::F64: return {CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, "CUBLAS_COMPUTE_64F"};
    case DType::F32:
      return tf32 ? GemmTypes{CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, "CUBLAS_COMPUTE_32F_FAST_TF32"}
                  : GemmTypes{CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, "CUBLAS_COMPUTE_32F"};
    case DType::F16: return {CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, "CUBLAS_COMPUTE_32F"};
    case DType::BF16: return {CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, "CUBLAS_COMPUTE_32F"};
    case DType::I8: return {CUDA_R_8I, CUDA_R_32I, CUBLAS_COMPUTE_32I, "CUBLAS_COMPUTE_32I"};
  }
  return {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, "CUBLAS_COMPUTE_32F"};
}

class CublasGemmOp : public CudaOp {
 public:
  explicit CublasGemmOp(const OpArgs& args) : CudaOp(args) {
    const CublasLibrary& lib = Cublas();
    if (!lib.available) throw NativeError("LIBRARY_UNAVAILABLE", "cuBLAS is not available: " + lib.reason);
    withCopies_ = args.variant == "with-copies";
    if (!withCopies_ && args.variant != "resident") {
      throw NativeError("INVALID_ARGUMENT", "Expected \"resident\" or \"with-copies\" for `variant` of `gemm` but received \"" +
                                                args.variant + "\"");
    }
    const std::string math = args.string("math", "default");
    if (math != "default" && math != "tf32") {
      throw NativeError("INVALID_ARGUMENT", "Expected \"default\" or \"tf32\" for `math` but received \"" + math + "\"");
    }
    dtype_ = args.buffer("a")->dtype;
    if (math == "tf32" && dtype_ != DType::F32) {
      throw NativeError("DTYPE_MISMATCH", std::string("TF32 math takes fp32 buffers but `a` is ") + DTypeName(dtype_));
    }
    types_ = TypesFor(dtype_, math == "tf32");
    const DType outType = dtype_ == DType::I8 ? DType::F32 : dtype_;
    const auto operand = [&](const char* name, DType t) -> StoragePtr {
      return withCopies_ ? HostOperandOf(args, name, t) : DeviceOperand(args, name, t);
    };
    a_ = operand("a", dtype_);
    b_ = operand("b", dtype_);
    out_ = operand("out", outType);
    shape_ = GemmShapeOf(args, *a_, *b_, *out_);
  }

  ~CublasGemmOp() override {
    if (handle_) Cublas().destroy(handle_);
  }

  std::string implementation() const override {
    const CublasLibrary& lib = Cublas();
    return "cuBLAS " + lib.version() + " cublasGemmEx, " + types_.computeName + (dtype_ == DType::I8 ? ", Bᵀ (TN)" : "") +
           " (" + lib.soname + ")" + (withCopies_ ? " with host↔device copies" : "");
  }

 protected:
  // Copies from pageable host memory make the host wait for the device.
  bool EnqueueIsAsync() const override { return !withCopies_; }

  void Prepare() override {
    const CublasLibrary& lib = Cublas();
    CUBLAS_CHECK(lib.create(&handle_));
    CUBLAS_CHECK(lib.setStream(handle_, stream_));
    CUBLAS_CHECK(lib.setMathMode(handle_, CUBLAS_DEFAULT_MATH));
    if (withCopies_) {
      da_ = DeviceAllocation(a_->bytes(), device_, "device copy of A");
      db_ = DeviceAllocation(b_->bytes(), device_, "device copy of B");
      dc_ = DeviceAllocation(out_->bytes(), device_, "device copy of C");
    }
    if (dtype_ == DType::I8) {
      c32_ = DeviceAllocation(static_cast<size_t>(shape_.m) * shape_.n * sizeof(int32_t), device_, "int32 result of the int8 GEMM");
      bt_ = DeviceAllocation(b_->bytes(), device_, "transposed B of the int8 GEMM");
      if (!withCopies_) TransposeB(b_->as<int8_t>());
    }
  }

  void Enqueue() override {
    const void* a = a_->data;
    const void* b = b_->data;
    if (withCopies_) {
      CUDA_CHECK(cudaMemcpyAsync(da_.get(), a_->data, a_->bytes(), cudaMemcpyHostToDevice, stream_));
      CUDA_CHECK(cudaMemcpyAsync(db_.get(), b_->data, b_->bytes(), cudaMemcpyHostToDevice, stream_));
      a = da_.get();
      b = db_.get();
      if (dtype_ == DType::I8) TransposeB(db_.as<int8_t>());
    }
    if (dtype_ == DType::I8) b = bt_.get();
    void* c = dtype_ == DType::I8 ? c32_.get() : withCopies_ ? dc_.get() : out_->data;
    Gemm(a, b, c);
    if (withCopies_) {
      if (dtype_ == DType::I8) CastResult(dc_.as<float>());
      CUDA_CHECK(cudaMemcpyAsync(out_->data, dc_.get(), out_->bytes(), cudaMemcpyDeviceToHost, stream_));
    }
  }

  void Finish() override {
    if (dtype_ != DType::I8 || withCopies_) return;
    CastResult(out_->as<float>());
    CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

 private:
  void Gemm(const void* a, const void* b, void* c) {
    const int m = shape_.m, n = shape_.n, k = shape_.k;
    union {
      double f64;
      float f32;
      int32_t i32;
    } alpha{}, beta{};
    switch (types_.compute) {
      case CUBLAS_COMPUTE_64F: alpha.f64 = 1.0; beta.f64 = 0.0; break;
      case CUBLAS_COMPUTE_32I: alpha.i32 = 1; beta.i32 = 0; break;
      default: alpha.f32 = 1.0f; beta.f32 = 0.0f; break;
    }
    // int8: b is Bᵀ (n×k row-major = k×n column-major), taken transposed: the TN layout.
    const bool tn = dtype_ == DType::I8;
    CUBLAS_CHECK(Cublas().gemmEx(handle_, tn ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, types_.ab, tn ? k : n,
                                 a, types_.ab, k, &beta, c, types_.c, n, types_.compute, CUBLAS_GEMM_DEFAULT));
  }

  void TransposeB(const int8_t* b) {
    CUDA_CHECK(kernels::LaunchTransposeInt8(b, bt_.as<int8_t>(), shape_.k, shape_.n, stream_));
  }

  void CastResult(float* out) {
    CUDA_CHECK(kernels::LaunchInt32ToFloat(c32_.as<int32_t>(), out, static_cast<size_t>(shape_.m) * shape_.n, stream_));
  }

  DType dtype_ = DType::F32;
  GemmTypes types_{};
  bool withCopies_ = false;
  StoragePtr a_, b_, out_;
  GemmShape shape_{};
  cublasHandle_t handle_ = nullptr;
  DeviceAllocation da_, db_, dc_, c32_, bt_;
};

}  // namespace

void RegisterCudaGemm() {
  RegisterOp("cuda/gemm", [](const OpArgs& a) -> std::unique_ptr<TimedOp> { return std::make_unique<CublasGemmOp>(a); });
}

}  // namespace gpulab
