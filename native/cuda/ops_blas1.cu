// "cuda/blas1": cuBLAS on device-resident fp32 data, the library's answer to three of the playground's exercises,
// timed like every CUDA op. `routine` names it:
//   saxpy      out = a·x + y by cublasSaxpy_v2, which works in place (y ← a·x + y): see SaxpyBuffers below
//   sum        out[0] = Σ|x| by cublasSasum_v2, the result written to device memory
//   transpose  out = inᵀ of an n×n row-major matrix by cublasSgeam
// No input rotation: the student's kernel and the references it is set beside are timed on the same buffers
// launch after launch, and the library is timed on the same terms (below the L2's size, all of them read the
// cache).
#include <cfloat>
#include <climits>
#include <cmath>

#include "cublas.h"
#include "cuda_op.h"
#include "cuda_ops.h"

namespace gpulab {

namespace {

enum class Routine { Saxpy, Sum, Transpose };

Routine ParseRoutine(const OpArgs& args) {
  const std::string routine = args.string("routine", "");
  if (routine == "saxpy") return Routine::Saxpy;
  if (routine == "sum") return Routine::Sum;
  if (routine == "transpose") return Routine::Transpose;
  throw NativeError("INVALID_ARGUMENT", "Expected one of saxpy, sum, transpose for `routine` of `blas1` but received \"" +
                                            routine + "\"");
}

// cuBLAS counts elements, rows and columns in int.
int IntCount(const char* name, double value) {
  if (!(value >= 1) || value > INT_MAX || std::floor(value) != value) {
    throw NativeError("INVALID_ARGUMENT", std::string("Expected an integer from 1 to ") + std::to_string(INT_MAX) + " for `" +
                                              name + "` of `blas1` but received " + std::to_string(value));
  }
  return static_cast<int>(value);
}

void ExpectElements(const StoragePtr& s, const char* name, size_t want, const std::string& formula) {
  if (s->length != want) {
    throw NativeError("LENGTH_MISMATCH", "Expected `" + std::string(name) + "` to hold " + formula + " = " +
                                             std::to_string(want) + " elements but it holds " + std::to_string(s->length) +
                                             " (operation `blas1`)");
  }
}

class Blas1Op : public CudaOp {
 public:
  explicit Blas1Op(const OpArgs& args) : CudaOp(args), routine_(ParseRoutine(args)) {
    const CublasLibrary& lib = Cublas();
    if (!lib.available) throw NativeError("LIBRARY_UNAVAILABLE", "cuBLAS is not available: " + lib.reason);
    if (!lib.blas1Reason.empty()) throw NativeError("LIBRARY_UNAVAILABLE", "cuBLAS cannot run `blas1`: " + lib.blas1Reason);
    out_ = DeviceOperand(args, "out", DType::F32);
    switch (routine_) {
      case Routine::Saxpy: {
        x_ = DeviceOperand(args, "x", DType::F32);
        y_ = DeviceOperand(args, "y", DType::F32);
        RequireSameLength(args, x_, "x", y_, "y");
        RequireSameLength(args, x_, "x", out_, "out");
        n_ = IntCount("x.length", static_cast<double>(x_->length));
        const double a = args.number("a");
        if (!(std::fabs(a) <= FLT_MAX)) {
          throw NativeError("INVALID_ARGUMENT", "Expected a finite fp32 number for `a` of `blas1` (saxpy) but received " +
                                                    std::to_string(a));
        }
        alpha_ = static_cast<float>(a);
        break;
      }
      case Routine::Sum:
        x_ = DeviceOperand(args, "x", DType::F32);
        n_ = IntCount("x.length", static_cast<double>(x_->length));
        ExpectElements(out_, "out", 1, "one total");
        break;
      case Routine::Transpose: {
        x_ = DeviceOperand(args, "in", DType::F32);
        n_ = IntCount("n", args.number("n"));
        const size_t elements = static_cast<size_t>(n_) * static_cast<size_t>(n_);
        ExpectElements(x_, "in", elements, "n·n");
        ExpectElements(out_, "out", elements, "n·n");
        // geam writes over its A only untransposed (cuBLAS's in-place rule): a transpose needs two buffers.
        if (x_->data == out_->data) {
          throw NativeError("INVALID_ARGUMENT", "Expected `out` of `blas1` (transpose) to be another buffer than `in`: "
                                                "cublasSgeam cannot transpose in place");
        }
        break;
      }
    }
  }

  ~Blas1Op() override {
    if (handle_) Cublas().destroy(handle_);
  }

  std::string implementation() const override {
    const CublasLibrary& lib = Cublas();
    const char* what = routine_ == Routine::Saxpy ? "cublasSaxpy_v2 (in place, on a device copy of y)"
                       : routine_ == Routine::Sum ? "cublasSasum_v2 (result in device memory)"
                                                  : "cublasSgeam (transa = T, β = 0)";
    return "cuBLAS " + lib.version() + " " + what + " (" + lib.soname + ")";
  }

 protected:
  void Prepare() override {
    const CublasLibrary& lib = Cublas();
    CUBLAS_CHECK(lib.create(&handle_));
    CUBLAS_CHECK(lib.setStream(handle_, stream_));
    // The sum's result goes to device memory: with a host pointer, cublasSasum_v2 would wait for the GPU and copy
    // 4 bytes back inside every timed execution, which the student's kernel (writing `total` on the device) does
    // not pay; and a call that waits cannot be queued behind the hold kernel of the events clock. alpha and beta
    // of saxpy and geam stay in host memory: cuBLAS reads them when the call is made, and nothing waits.
    CUBLAS_CHECK(lib.setPointerMode(handle_, routine_ == Routine::Sum ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST));
    if (routine_ == Routine::Saxpy) PrepareSaxpy();
  }

  void Enqueue() override {
    const CublasLibrary& lib = Cublas();
    switch (routine_) {
      case Routine::Saxpy:
        CUBLAS_CHECK(lib.saxpy(handle_, n_, &alpha_, x_->as<float>(), 1, accumulator_.as<float>(), 1));
        break;
      case Routine::Sum:
        // Σ|x|: the sum itself wherever x holds no negative number, as the reduction exercise's inputs do.
        CUBLAS_CHECK(lib.sasum(handle_, n_, x_->as<float>(), 1, out_->as<float>()));
        break;
      case Routine::Transpose: {
        // cuBLAS is column-major. The row-major n×n `in`, read column-major with leading dimension n, is inᵀ; geam
        // with transa = T writes (inᵀ)ᵀ = in column-major, and that storage read row-major is inᵀ: the transpose
        // the exercise asks for, with no copy. With β = 0, B adds nothing; it is `in` again, a valid n×n matrix that
        // does not overlap `out` (geam refuses a B = C that is transposed).
        const float one = 1.0f, zero = 0.0f;
        const float* in = x_->as<float>();
        CUBLAS_CHECK(lib.sgeam(handle_, CUBLAS_OP_T, CUBLAS_OP_N, n_, n_, &one, in, n_, &zero, in, n_, out_->as<float>(), n_));
        break;
      }
    }
  }

 private:
  // Saxpy accumulates into y, so executions after the first no longer compute a·x + y from the inputs. `out`
  // receives exactly one execution, the first, on a copy of y, before anything is timed: that is what is
  // verified. The timed executions then run in place on a scratch copy of y (`accumulator_`), as a program that
  // calls saxpy in a loop would; its values grow by a·x each time, which changes nothing in the time. x and y are
  // left as they came, for the check of `out`.
  void PrepareSaxpy() {
    const Storage& y = *y_;
    CUDA_CHECK(cudaMemcpyAsync(out_->data, y.data, y.bytes(), cudaMemcpyDeviceToDevice, stream_));
    CUBLAS_CHECK(Cublas().saxpy(handle_, n_, &alpha_, x_->as<float>(), 1, out_->as<float>(), 1));
    accumulator_ = DeviceAllocation(y.bytes(), device_, "device copy of y that the timed saxpy updates in place");
    CUDA_CHECK(cudaMemcpyAsync(accumulator_.get(), y.data, y.bytes(), cudaMemcpyDeviceToDevice, stream_));
  }

  Routine routine_;
  // x of saxpy and sum, `in` of the transpose.
  StoragePtr x_, y_, out_;
  // Elements of x (saxpy, sum), or the matrix order n (transpose).
  int n_ = 0;
  float alpha_ = 0.0f;
  cublasHandle_t handle_ = nullptr;
  DeviceAllocation accumulator_;
};

}  // namespace

void RegisterCudaBlas1() {
  RegisterOp("cuda/blas1", [](const OpArgs& a) -> std::unique_ptr<TimedOp> { return std::make_unique<Blas1Op>(a); });
}

}  // namespace gpulab
