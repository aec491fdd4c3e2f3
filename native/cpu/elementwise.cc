#include "elementwise.h"

#include <cmath>

#include "op_common.h"

namespace gpulab {

namespace {

enum class Kind { Add, Mul, Exp };

// The loops are written plainly so that the compiler vectorises them; restrict tells it the buffers do not overlap.
void AddRange(const float* __restrict a, const float* __restrict b, float* __restrict out, size_t begin, size_t end) {
  for (size_t i = begin; i < end; ++i) out[i] = a[i] + b[i];
}
void MulRange(const float* __restrict a, const float* __restrict b, float* __restrict out, size_t begin, size_t end) {
  for (size_t i = begin; i < end; ++i) out[i] = a[i] * b[i];
}
void ExpRange(const float* __restrict x, float* __restrict out, size_t begin, size_t end) {
  for (size_t i = begin; i < end; ++i) out[i] = std::exp(x[i]);
}

class ElementwiseOp : public TimedOp {
 public:
  ElementwiseOp(Kind kind, const OpArgs& args) : kind_(kind), threads_(ThreadsFor(args)) {
    if (kind == Kind::Exp) {
      a_ = HostOperand(args, "x", DType::F32);
    } else {
      a_ = HostOperand(args, "a", DType::F32);
      b_ = HostOperand(args, "b", DType::F32);
      SameLength(args, a_, "a", b_, "b");
    }
    out_ = HostOperand(args, "out", DType::F32);
    SameLength(args, a_, kind == Kind::Exp ? "x" : "a", out_, "out");
  }
  std::string implementation() const override { return LoopName(threads_); }
  int threads() const override { return threads_; }
  void Run() override {
    const float* a = a_->as<float>();
    const float* b = b_ ? b_->as<float>() : nullptr;
    float* out = out_->as<float>();
    const Kind kind = kind_;
    ThreadPool::Global().ParallelFor(out_->length, static_cast<size_t>(threads_), [=](size_t begin, size_t end) {
      switch (kind) {
        case Kind::Add: AddRange(a, b, out, begin, end); break;
        case Kind::Mul: MulRange(a, b, out, begin, end); break;
        case Kind::Exp: ExpRange(a, out, begin, end); break;
      }
    });
  }

 private:
  Kind kind_;
  int threads_;
  StoragePtr a_, b_, out_;
};

// Nothing at all: its samples are the harness's overhead (two clock reads and a virtual call).
class EmptyOp : public TimedOp {
 public:
  std::string implementation() const override { return "empty operation"; }
  void Run() override {}
};

}  // namespace

void RegisterCpuElementwise() {
  RegisterOp("cpu/add", [](const OpArgs& a) -> std::unique_ptr<TimedOp> { return std::make_unique<ElementwiseOp>(Kind::Add, a); });
  RegisterOp("cpu/mul", [](const OpArgs& a) -> std::unique_ptr<TimedOp> { return std::make_unique<ElementwiseOp>(Kind::Mul, a); });
  RegisterOp("cpu/exp", [](const OpArgs& a) -> std::unique_ptr<TimedOp> { return std::make_unique<ElementwiseOp>(Kind::Exp, a); });
  RegisterOp("cpu/empty", [](const OpArgs&) -> std::unique_ptr<TimedOp> { return std::make_unique<EmptyOp>(); });
}

}  // namespace gpulab
