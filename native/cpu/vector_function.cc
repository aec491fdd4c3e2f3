#include "vector_function.h"

#include "op_common.h"

namespace gpulab {

namespace {

GPULAB_SIMD_CLONES void VectorFunctionRange(const double* __restrict x, const double* __restrict y, double* __restrict z, double a,
                         double b, double c, size_t begin, size_t end) {
  for (size_t i = begin; i < end; ++i) z[i] = a * x[i] * x[i] + b * y[i] + c;
}

class VectorFunctionOp : public TimedOp {
 public:
  explicit VectorFunctionOp(const OpArgs& args)
      : threads_(ThreadsFor(args)), a_(args.number("a")), b_(args.number("b")), c_(args.number("c")) {
    x_ = HostOperand(args, "x", DType::F64);
    y_ = HostOperand(args, "y", DType::F64);
    out_ = HostOperand(args, "out", DType::F64);
    SameLength(args, x_, "x", y_, "y");
    SameLength(args, x_, "x", out_, "out");
  }
  std::string implementation() const override { return LoopName(threads_); }
  int threads() const override { return threads_; }
  void Run() override {
    const double* x = x_->as<double>();
    const double* y = y_->as<double>();
    double* z = out_->as<double>();
    const double a = a_, b = b_, c = c_;
    ThreadPool::Global().ParallelFor(out_->length, static_cast<size_t>(threads_), [=](size_t begin, size_t end) {
      VectorFunctionRange(x, y, z, a, b, c, begin, end);
    }, kLoopGrain);
  }

 private:
  int threads_;
  double a_, b_, c_;
  StoragePtr x_, y_, out_;
};

}  // namespace

void RegisterCpuVectorFunction() {
  RegisterOp("cpu/vector-function",
             [](const OpArgs& a) -> std::unique_ptr<TimedOp> { return std::make_unique<VectorFunctionOp>(a); });
}

}  // namespace gpulab
