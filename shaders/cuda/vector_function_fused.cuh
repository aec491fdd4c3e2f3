// launch: block=256 grid=tiles:512
// The fused kernel of vector_function.cu (v2, whose header explains it): z = a·x² + b·y + c over fp64 vectors,
// one thread per pair of elements. Launch: 256 threads a block, ⌈(n / 2 + n mod 2) / 256⌉ blocks (the header
// above: a block covers 512 elements).
//
// One source for two compilers: vector_function.cu includes it into the addon (nvcc), and the kernel playground
// compiles this file alone with NVRTC as the reference solution of the fp64 polynomial exercise, as a student's file:
// the kernel has the exercise's name and signature. So it includes nothing, and uses only what both compilers
// provide without headers (double2, make_double2, size_t).
// An include guard, not #pragma once: the playground allows only the directives a kernel needs.
#ifndef GPU_LAB_VECTOR_FUNCTION_FUSED_CUH
#define GPU_LAB_VECTOR_FUNCTION_FUSED_CUH

__device__ __forceinline__ double2 Polynomial(double2 x, double2 y, double a, double b, double c) {
  return make_double2(a * x.x * x.x + b * y.x + c, a * x.y * x.y + b * y.y + c);
}

__global__ void polynomial(const double* __restrict__ x, const double* __restrict__ y, double* __restrict__ z, double a,
                           double b, double c, size_t n) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t pairs = n / 2;
  if (i < pairs) {
    // Consecutive threads take consecutive 16-byte pairs: each warp load is 512 contiguous bytes.
    const double2 xv = reinterpret_cast<const double2*>(x)[i];
    const double2 yv = reinterpret_cast<const double2*>(y)[i];
    reinterpret_cast<double2*>(z)[i] = Polynomial(xv, yv, a, b, c);
  }
  // An odd n leaves one element after the pairs.
  if (i == pairs && (n & 1)) z[n - 1] = a * x[n - 1] * x[n - 1] + b * y[n - 1] + c;
}

#endif  // GPU_LAB_VECTOR_FUNCTION_FUSED_CUH
