// The one GEMM shape rule the addon keeps, for memory's sake: m, n, k of C = A·B (row-major: A m×k, B k×n, C m×n)
// from the spec's numbers, each an int (what BLAS and cuBLAS take), and each buffer holding exactly its matrix, so
// that no library reads or writes past one. The CPU's and the GPU's GEMMs both ask it; the facade (native/operands.ts)
// has said the same to the caller already, and how large a lab's matrices may be is the measurement's limit.
#pragma once
#include "storage.h"
#include "timed_op.h"

namespace gpulab {

struct GemmShape {
  int m, n, k;
};

GemmShape GemmShapeOf(const OpArgs& args, const Storage& a, const Storage& b, const Storage& out);

}  // namespace gpulab
