#include "gemm.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "blas.h"
#include "op_common.h"
#include "../src/gemm_shape.h"

namespace gpulab {

namespace {

// Blocking: a K-slab of B (kKc rows × kNc columns) stays in L2 while row quads of A stream through it; four rows of
// C are updated together so that each loaded B row is used four times. The innermost loop over j is contiguous in
// B and C and is vectorised by the compiler.
constexpr size_t kKc = 256;
constexpr size_t kNc = 512;

template <typename T>
inline __attribute__((always_inline)) void BlockRows(const T* __restrict a, const T* __restrict b, T* __restrict c,
                                                    size_t rowBegin, size_t rowEnd, size_t n, size_t k) {
  for (size_t pc = 0; pc < k; pc += kKc) {
    const size_t pe = std::min(k, pc + kKc);
    for (size_t jc = 0; jc < n; jc += kNc) {
      const size_t je = std::min(n, jc + kNc);
      size_t i = rowBegin;
      for (; i + 4 <= rowEnd; i += 4) {
        T* __restrict c0 = c + i * n;
        T* __restrict c1 = c0 + n;
        T* __restrict c2 = c1 + n;
        T* __restrict c3 = c2 + n;
        for (size_t p = pc; p < pe; ++p) {
          const T a0 = a[i * k + p], a1 = a[(i + 1) * k + p], a2 = a[(i + 2) * k + p], a3 = a[(i + 3) * k + p];
          const T* __restrict bp = b + p * n;
          for (size_t j = jc; j < je; ++j) {
            const T bj = bp[j];
            c0[j] += a0 * bj;
            c1[j] += a1 * bj;
            c2[j] += a2 * bj;
            c3[j] += a3 * bj;
          }
        }
      }
      for (; i < rowEnd; ++i) {
        T* __restrict ci = c + i * n;
        for (size_t p = pc; p < pe; ++p) {
          const T ai = a[i * k + p];
          const T* __restrict bp = b + p * n;
          for (size_t j = jc; j < je; ++j) ci[j] += ai * bp[j];
        }
      }
    }
  }
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) void RowsAvx2(const float* a, const float* b, float* c, size_t r0, size_t r1,
                                                  size_t n, size_t k) {
  BlockRows(a, b, c, r0, r1, n, k);
}
__attribute__((target("avx2,fma"))) void RowsAvx2(const double* a, const double* b, double* c, size_t r0, size_t r1,
                                                  size_t n, size_t k) {
  BlockRows(a, b, c, r0, r1, n, k);
}
#endif

template <typename T>
void Rows(const T* a, const T* b, T* c, size_t r0, size_t r1, size_t n, size_t k) {
#if defined(__x86_64__)
  static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (avx2) return RowsAvx2(a, b, c, r0, r1, n, k);
#endif
  BlockRows(a, b, c, r0, r1, n, k);
}

template <typename T>
void Blocked(const T* a, const T* b, T* c, size_t m, size_t n, size_t k, size_t threads) {
  std::memset(c, 0, m * n * sizeof(T));
  // Split by row quads so that no quad straddles two threads.
  const size_t quads = (m + 3) / 4;
  ThreadPool::Global().ParallelFor(quads, threads, [&](size_t qb, size_t qe) {
    Rows(a, b, c, qb * 4, std::min(m, qe * 4), n, k);
  });
}

class GemmOp : public TimedOp {
 public:
  explicit GemmOp(const OpArgs& args) {
    const StoragePtr& a = args.buffer("a");
    dtype_ = a->dtype;
    if (dtype_ != DType::F32 && dtype_ != DType::F64) {
      throw NativeError("DTYPE_MISMATCH", std::string("Expected an fp32 or fp64 buffer for `a` of CPU GEMM but received ") +
                                              DTypeName(dtype_));
    }
    a_ = HostOperand(args, "a", dtype_);
    b_ = HostOperand(args, "b", dtype_);
    out_ = HostOperand(args, "out", dtype_);
    const GemmShape shape = GemmShapeOf(args, *a_, *b_, *out_);
    m_ = shape.m;
    n_ = shape.n;
    k_ = shape.k;
    blas_ = args.variant == "blas";
    if (!blas_ && args.variant != "blocked") {
      throw NativeError("INVALID_ARGUMENT",
                        "Expected \"blas\" or \"blocked\" for `variant` of `gemm` but received \"" + args.variant + "\"");
    }
    if (args.threads < 0 || args.threads > static_cast<int>(ThreadPool::kMaxThreads)) {
      throw NativeError("INVALID_ARGUMENT", "Expected 1 to " + std::to_string(ThreadPool::kMaxThreads) +
                                                " for `threads` but received " + std::to_string(args.threads));
    }
    threads_ = args.threads > 0 ? args.threads : static_cast<int>(ThreadPool::Global().size());
    if (blas_) {
      // The library the host chose (blas-libraries.ts), else the system's.
      const double id = args.number("library", -1);
      lib_ = id < 0 ? &Blas() : std::floor(id) == id && id <= 1e6 ? BlasById(static_cast<int>(id)) : nullptr;
      if (!lib_) {
        throw NativeError("INVALID_ARGUMENT", "Expected the id of an opened BLAS for `library` of `gemm` but received " +
                                                  std::to_string(id));
      }
      if (!lib_->available) throw NativeError("BLAS_UNAVAILABLE", "No BLAS: " + lib_->reason);
      // A BLAS without a thread setter picks its own count: report that one, or 0 for unknown.
      if (!lib_->CanSetThreads()) threads_ = lib_->Threads();
    }
  }

  std::string implementation() const override {
    if (blas_) return lib_->Describe() + " [" + lib_->origin + ": " + lib_->path + "]";
    return "built-in blocked GEMM";
  }
  int threads() const override { return threads_; }
  void Setup() override {
    if (blas_ && lib_->CanSetThreads()) lib_->SetThreads(threads_);
  }
  void Run() override {
    if (dtype_ == DType::F32) {
      if (blas_) lib_->Sgemm(m_, n_, k_, a_->as<float>(), b_->as<float>(), out_->as<float>());
      else BlockedGemm(a_->as<float>(), b_->as<float>(), out_->as<float>(), m_, n_, k_, threads_);
    } else {
      if (blas_) lib_->Dgemm(m_, n_, k_, a_->as<double>(), b_->as<double>(), out_->as<double>());
      else BlockedGemm(a_->as<double>(), b_->as<double>(), out_->as<double>(), m_, n_, k_, threads_);
    }
  }

 private:
  DType dtype_;
  StoragePtr a_, b_, out_;
  size_t m_ = 0, n_ = 0, k_ = 0;
  bool blas_ = false;
  const BlasLibrary* lib_ = nullptr;
  int threads_ = 1;
};

}  // namespace

void BlockedGemm(const float* a, const float* b, float* c, size_t m, size_t n, size_t k, size_t threads) {
  Blocked(a, b, c, m, n, k, threads);
}
void BlockedGemm(const double* a, const double* b, double* c, size_t m, size_t n, size_t k, size_t threads) {
  Blocked(a, b, c, m, n, k, threads);
}

void RegisterCpuGemm() {
  RegisterOp("cpu/gemm", [](const OpArgs& a) -> std::unique_ptr<TimedOp> { return std::make_unique<GemmOp>(a); });
}

}  // namespace gpulab
