// "cuda/gemm", variant "cublas": C = A·B through cuBLAS (cublasGemmEx), row-major like the CPU GEMM.
//   dtype     fp64, fp32, fp16, bf16 (A, B and C of one dtype), int8 (A and B, with an fp32 C), or tf32 (fp32
//             buffers on TF32 tensor cores: 10-bit mantissa inputs, fp32 accumulate)
//   path      "resident" (device buffers) or "with-copies" (host buffers copied in and the result back each time)
//
// cuBLAS is column-major; a row-major C = A·B is the column-major Cᵀ = Bᵀ·Aᵀ, so B is passed first and no data
// is transposed. Compute types: fp64 → 64F; fp32 → 32F with the default math mode, which never uses TF32 (unless
// NVIDIA_TF32_OVERRIDE=1 is set in the environment); tf32 → 32F_FAST_TF32; fp16 and bf16 → 32F (fp32 accumulate,
// as PyTorch does); int8 → 32I into an int32 scratch matrix, cast to fp32 after the timed region. int8 tensor
// cores need both operands k-major ("TN"): A already is; B is transposed into Bᵀ, once before timing for resident
// data (as int8 weights are stored), inside every execution where the copies are timed.
//
// int8 shapes off a multiple of 16 are padded. cuBLAS runs int8 at full tensor-core rate only when m, n, k and the
// leading dimensions are multiples of 16 (16 bytes of int8; NVIDIA's "Matrix Multiplication Background" guide: from
// cuBLAS 11 int8 takes tensor cores at any size "but most efficient with multiples of 16"), and its operands 16-byte
// aligned; Hopper's fastest kernels load tiles through TMA, whose row strides must be multiples of 16 bytes
// (cuTensorMapEncodeTiled). On an H100, N = 7000 (a multiple of 8, not of 16) ran 437 TOP/s against 1350 at 4096
// and 1370 at 7168.
// So for int8 with any of m, n, k off the multiple, cuBLAS gets each rounded up to it (7000 → 7008 = 16·438):
//   - A and B are copied into zero-filled m'×k' and k'×n' buffers (the real data in the top-left corner, by
//     cudaMemcpy2D), B' is transposed into B'ᵀ (n'×k'), and the GEMM runs m'×n'×k'. The extra products multiply a
//     zero, so the real m×n corner of the m'×n' int32 result is exactly A·B; its cast to fp32 reads the real m rows
//     at the padded pitch n', and only the real m×n are copied out.
//   - Resident: A', B'ᵀ and the zeros are made once before timing (as Bᵀ is without padding); the timed region is
//     the GEMM alone, as before. With copies: the buffers are zeroed once, and each execution copies only the real
//     bytes in (m·k and k·n, into the corners) and out (m·n floats), as the unpadded case does.
//   - Cost at 7000: 7008³/7000³ = 1.0034, 0.34 % more multiply-adds, spent on zeros and counted nowhere (the work
//     reported stays 2·m·n·k); the with-copies transpose and cast touch 0.23 % and 0.11 % more bytes. Memory: every
//     scratch buffer grows by the padding (7008²/7000² = 1.0023), and the resident path holds two more, A'
//     (7008² B = 49 MB) and the fp32 cast (7000·7008·4 B = 196 MB: the fp32 output cannot hold rows of pitch n').
// Shapes already on the multiple take the unpadded path, unchanged; so does one whose padded sizes would pass an
// int (cuBLAS's dimensions) or whose padded int32 row would pass the largest pitch cudaMemcpy2D takes.
#include <library_types.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>

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

// The multiple cuBLAS's int8 tensor-core kernels want m, n, k and the leading dimensions in (16 int8 = 16 bytes).
constexpr int64_t kInt8Multiple = 16;
// cudaDeviceProp::memPitch, the largest pitch cudaMemcpy2D takes: 2³¹ − 1 bytes on the GPUs cuBLAS 12 and 13 run
// on. The widest pitch of the padded path is a row of the int32 result, n'·4 bytes.
constexpr int64_t kMaxPitchBytes = INT_MAX;

// The shape cuBLAS runs an int8 GEMM of `s` on: m, n and k each rounded up to kInt8Multiple. `s` itself where it
// is already on the multiple, or where padding would pass an int or the largest pitch (see the header).
GemmShape PaddedInt8Shape(const GemmShape& s) {
  const auto up = [](int v) { return (static_cast<int64_t>(v) + kInt8Multiple - 1) / kInt8Multiple * kInt8Multiple; };
  const int64_t m = up(s.m), n = up(s.n), k = up(s.k);
  if (std::max({m, n, k}) > INT_MAX || n * static_cast<int64_t>(sizeof(int32_t)) > kMaxPitchBytes) return s;
  return {static_cast<int>(m), static_cast<int>(n), static_cast<int>(k)};
}

class CublasGemmOp : public CudaOp {
 public:
  explicit CublasGemmOp(const OpArgs& args) : CudaOp(args) {
    const CublasLibrary& lib = Cublas();
    if (!lib.available) throw NativeError("LIBRARY_UNAVAILABLE", "cuBLAS is not available: " + lib.reason);
    withCopies_ = WithCopies(args);
    // The GEMM's dtype: its buffers' element type, or tf32 (fp32 in memory, multiplied by tensor cores).
    const std::string dtype = args.string("dtype", "");
    const bool tf32 = dtype == "tf32";
    dtype_ = args.buffer("a")->dtype;
    if (dtype != (tf32 ? "tf32" : DTypeName(dtype_)) || (tf32 && dtype_ != DType::F32)) {
      throw NativeError("DTYPE_MISMATCH", "Expected `a` to hold the elements of the GEMM's dtype \"" + dtype + "\" but it holds " +
                                              DTypeName(dtype_));
    }
    types_ = TypesFor(dtype_, tf32);
    const DType outType = dtype_ == DType::I8 ? DType::F32 : dtype_;
    const auto operand = [&](const char* name, DType t) -> StoragePtr {
      return withCopies_ ? HostOperandOf(args, name, t) : DeviceOperand(args, name, t);
    };
    a_ = operand("a", dtype_);
    b_ = operand("b", dtype_);
    out_ = operand("out", outType);
    shape_ = GemmShapeOf(args, *a_, *b_, *out_);
    gemm_ = dtype_ == DType::I8 ? PaddedInt8Shape(shape_) : shape_;
    padded_ = gemm_.m != shape_.m || gemm_.n != shape_.n || gemm_.k != shape_.k;
  }

  ~CublasGemmOp() override {
    if (handle_) Cublas().destroy(handle_);
  }

  std::string implementation() const override {
    const CublasLibrary& lib = Cublas();
    const std::string padding = padded_ ? ", padded to " + std::to_string(gemm_.m) + "×" + std::to_string(gemm_.n) + "×" +
                                              std::to_string(gemm_.k)
                                        : "";
    return "cuBLAS " + lib.version() + " cublasGemmEx, " + types_.computeName + (dtype_ == DType::I8 ? ", Bᵀ (TN)" : "") +
           padding + " (" + lib.soname + ")" + (withCopies_ ? " with host↔device copies" : "");
  }

 protected:
  // Copies from pageable host memory make the host wait for the device.
  bool EnqueueIsAsync() const override { return !withCopies_; }

  void Prepare() override {
    const CublasLibrary& lib = Cublas();
    CUBLAS_CHECK(lib.create(&handle_));
    CUBLAS_CHECK(lib.setStream(handle_, stream_));
    CUBLAS_CHECK(lib.setMathMode(handle_, CUBLAS_DEFAULT_MATH));
    if (padded_) {
      PreparePadded();
      return;
    }
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
    if (padded_) {
      EnqueuePadded();
      return;
    }
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
    if (padded_) {
      CastResult(dc_.as<float>());
      CopyOutPadded(cudaMemcpyDeviceToDevice);
    } else {
      CastResult(out_->as<float>());
    }
    CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

 private:
  // The padded int8 path (see the header): da_ is A' (m'×k'), db_ is B' (k'×n'), both zero outside the real
  // corner; bt_ is B'ᵀ (n'×k'); c32_ the m'×n' int32 result; dc_ its real m rows cast to fp32 (m×n', pitch n').
  void PreparePadded() {
    const size_t mp = gemm_.m, np = gemm_.n, kp = gemm_.k;
    da_ = DeviceAllocation(mp * kp, device_, "zero-padded A of the int8 GEMM");
    db_ = DeviceAllocation(kp * np, device_, "zero-padded B of the int8 GEMM");
    bt_ = DeviceAllocation(np * kp, device_, "zero-padded transposed B of the int8 GEMM");
    c32_ = DeviceAllocation(mp * np * sizeof(int32_t), device_, "int32 result of the padded int8 GEMM");
    dc_ = DeviceAllocation(static_cast<size_t>(shape_.m) * np * sizeof(float), device_, "fp32 result of the padded int8 GEMM");
    // Zeroed once: every later copy writes only the real corner, so the padding stays zero.
    CUDA_CHECK(cudaMemsetAsync(da_.get(), 0, mp * kp, stream_));
    CUDA_CHECK(cudaMemsetAsync(db_.get(), 0, kp * np, stream_));
    if (withCopies_) return;
    CopyInPadded(cudaMemcpyDeviceToDevice);
    TransposeB(db_.as<int8_t>());
    // B' is not read again (its transpose is): freed once the transpose is done.
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    db_ = DeviceAllocation();
  }

  void EnqueuePadded() {
    if (withCopies_) {
      CopyInPadded(cudaMemcpyHostToDevice);
      TransposeB(db_.as<int8_t>());
    }
    Gemm(da_.get(), bt_.get(), c32_.get());
    if (withCopies_) {
      CastResult(dc_.as<float>());
      CopyOutPadded(cudaMemcpyDeviceToHost);
    }
  }

  // The real m×k of A and k×n of B into the top-left corners of A' and B': only the real bytes move, as many as the
  // unpadded case copies.
  void CopyInPadded(cudaMemcpyKind kind) {
    const size_t m = shape_.m, n = shape_.n, k = shape_.k;
    CUDA_CHECK(cudaMemcpy2DAsync(da_.get(), gemm_.k, a_->data, k, k, m, kind, stream_));
    CUDA_CHECK(cudaMemcpy2DAsync(db_.get(), gemm_.n, b_->data, n, n, k, kind, stream_));
  }

  // The real m×n of the fp32 result (dc_, pitch n') into out_.
  void CopyOutPadded(cudaMemcpyKind kind) {
    const size_t row = static_cast<size_t>(shape_.n) * sizeof(float);
    CUDA_CHECK(cudaMemcpy2DAsync(out_->data, row, dc_.get(), static_cast<size_t>(gemm_.n) * sizeof(float), row, shape_.m,
                                 kind, stream_));
  }

  // On the padded shape where the int8 path pads (the real one otherwise).
  void Gemm(const void* a, const void* b, void* c) {
    const int m = gemm_.m, n = gemm_.n, k = gemm_.k;
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

  // b is k'×n' (B' where padded, B itself otherwise). k' stays within the grid's limit on k (native/ops-cuda.ts):
  // that limit, 65535·32, is itself a multiple of 16.
  void TransposeB(const int8_t* b) {
    CUDA_CHECK(kernels::LaunchTransposeInt8(b, bt_.as<int8_t>(), gemm_.k, gemm_.n, stream_));
  }

  // The real m rows of the int32 result at its pitch n' (n' = n without padding): m·n' elements, the padded
  // columns included, since the cast kernel takes one contiguous run.
  void CastResult(float* out) {
    CUDA_CHECK(kernels::LaunchInt32ToFloat(c32_.as<int32_t>(), out, static_cast<size_t>(shape_.m) * gemm_.n, stream_));
  }

  DType dtype_ = DType::F32;
  GemmTypes types_{};
  bool withCopies_ = false;
  StoragePtr a_, b_, out_;
  GemmShape shape_{};
  // The shape cuBLAS runs: shape_, or for int8 shape_ padded to multiples of 16 (padded_).
  GemmShape gemm_{};
  bool padded_ = false;
  cublasHandle_t handle_ = nullptr;
  DeviceAllocation da_, db_, dc_, c32_, bt_;
};

}  // namespace

void RegisterCudaGemm() {
  RegisterOp("cuda/gemm/cublas", [](const OpArgs& a) -> std::unique_ptr<TimedOp> { return std::make_unique<CublasGemmOp>(a); });
}

}  // namespace gpulab
