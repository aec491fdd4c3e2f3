// Variants of the fused vector-function kernel (z = a·x² + b·y + c, fp64, 5 M elements = 120 MB moved), timed
// with events beside cudaMemcpy D2D of the same bytes and of 1 GiB. Not part of the addon: a bench to choose the
// shape of shaders/cuda/vector_function.cu. Build and run on the GPU machine:
//   nvcc -O3 -std=c++17 -arch=sm_90 scripts/experiments/vector_function_variants.cu -o /tmp/vf && /tmp/vf
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

constexpr double A = 3.5, B = 2.8, C = 10;

__device__ __forceinline__ double2 P(double2 x, double2 y) {
  return make_double2(A * x.x * x.x + B * y.x + C, A * x.y * x.y + B * y.y + C);
}

// v1: the addon's kernel: grid-stride over one wave, kPairs double2 per thread per pass.
template <int kPairs, bool kStreaming>
__global__ void Strided(const double2* __restrict__ x, const double2* __restrict__ y, double2* __restrict__ z, size_t pairs) {
  const size_t threads = size_t(gridDim.x) * blockDim.x;
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (kPairs - 1) * threads < pairs; i += kPairs * threads) {
    double2 xv[kPairs], yv[kPairs];
#pragma unroll
    for (int u = 0; u < kPairs; ++u) {
      if (kStreaming) { xv[u] = __ldcs(x + i + u * threads); yv[u] = __ldcs(y + i + u * threads); }
      else { xv[u] = x[i + u * threads]; yv[u] = y[i + u * threads]; }
    }
#pragma unroll
    for (int u = 0; u < kPairs; ++u) {
      if (kStreaming) __stcs(z + i + u * threads, P(xv[u], yv[u]));
      else z[i + u * threads] = P(xv[u], yv[u]);
    }
  }
  for (; i < pairs; i += threads) z[i] = P(x[i], y[i]);
}

// v2: no loop: each thread kPairs consecutive-in-warp pairs of one block-sized chunk; as many blocks as needed.
template <int kPairs>
__global__ void Chunked(const double2* __restrict__ x, const double2* __restrict__ y, double2* __restrict__ z, size_t pairs) {
  const size_t base = size_t(blockIdx.x) * blockDim.x * kPairs + threadIdx.x;
  double2 xv[kPairs], yv[kPairs];
#pragma unroll
  for (int u = 0; u < kPairs; ++u) {
    const size_t i = base + u * blockDim.x;
    if (i < pairs) { xv[u] = x[i]; yv[u] = y[i]; }
  }
#pragma unroll
  for (int u = 0; u < kPairs; ++u) {
    const size_t i = base + u * blockDim.x;
    if (i < pairs) z[i] = P(xv[u], yv[u]);
  }
}

// v3: loads with the L2 256-byte prefetch hint (sector promotion), grid-stride as v1.
__device__ __forceinline__ double2 Load256(const double2* p) {
  double2 v;
  asm volatile("ld.global.nc.L2::256B.v2.f64 {%0, %1}, [%2];" : "=d"(v.x), "=d"(v.y) : "l"(p));
  return v;
}
template <int kPairs>
__global__ void Prefetch(const double2* __restrict__ x, const double2* __restrict__ y, double2* __restrict__ z, size_t pairs) {
  const size_t threads = size_t(gridDim.x) * blockDim.x;
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (kPairs - 1) * threads < pairs; i += kPairs * threads) {
    double2 xv[kPairs], yv[kPairs];
#pragma unroll
    for (int u = 0; u < kPairs; ++u) { xv[u] = Load256(x + i + u * threads); yv[u] = Load256(y + i + u * threads); }
#pragma unroll
    for (int u = 0; u < kPairs; ++u) z[i + u * threads] = P(xv[u], yv[u]);
  }
  for (; i < pairs; i += threads) z[i] = P(x[i], y[i]);
}

float Median(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

int main() {
  const size_t n = 5'000'000, pairs = n / 2, bytes = n * 8;
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  double2 *x, *y, *z;
  char *big0, *big1;
  CHECK(cudaMalloc(&x, bytes)); CHECK(cudaMalloc(&y, bytes)); CHECK(cudaMalloc(&z, bytes));
  CHECK(cudaMalloc(&big0, 1 << 30)); CHECK(cudaMalloc(&big1, 1 << 30));
  CHECK(cudaMemset(x, 1, bytes)); CHECK(cudaMemset(y, 2, bytes)); CHECK(cudaMemset(big0, 3, 1 << 30));
  cudaEvent_t s, e;
  cudaEventCreate(&s); cudaEventCreate(&e);
  auto time = [&](const char* name, double moved, std::function<void()> fn) {
    for (int i = 0; i < 20; ++i) fn();
    std::vector<float> ms;
    for (int i = 0; i < 300; ++i) {
      cudaEventRecord(s); fn(); cudaEventRecord(e); cudaEventSynchronize(e);
      float t; cudaEventElapsedTime(&t, s, e); ms.push_back(t);
    }
    const float m = Median(ms);
    printf("%-44s %8.2f us  %7.0f GB/s  (%s)\n", name, m * 1e3, moved / (m * 1e6), cudaGetErrorString(cudaGetLastError()));
  };
  const double vf = 24.0 * n;
  time("memcpy D2D 1 GiB (read+write)", 2.0 * (1 << 30), [&] { cudaMemcpyAsync(big1, big0, 1 << 30, cudaMemcpyDeviceToDevice); });
  time("memcpy D2D 120 MB (read+write)", 2.0 * 60e6, [&] { cudaMemcpyAsync(big1, big0, 60'000'000, cudaMemcpyDeviceToDevice); });
  for (int bps : {4, 8, 16}) {
    char name[64];
    snprintf(name, sizeof name, "strided kPairs=2, %d blocks/SM", bps);
    time(name, vf, [&] { Strided<2, false><<<sms * bps, 256>>>(x, y, z, pairs); });
  }
  time("strided kPairs=1, 8 blocks/SM", vf, [&] { Strided<1, false><<<sms * 8, 256>>>(x, y, z, pairs); });
  time("strided kPairs=4, 8 blocks/SM", vf, [&] { Strided<4, false><<<sms * 8, 256>>>(x, y, z, pairs); });
  time("strided kPairs=2 streaming (ldcs/stcs)", vf, [&] { Strided<2, true><<<sms * 8, 256>>>(x, y, z, pairs); });
  time("strided kPairs=4 streaming (ldcs/stcs)", vf, [&] { Strided<4, true><<<sms * 8, 256>>>(x, y, z, pairs); });
  time("prefetch L2::256B kPairs=2", vf, [&] { Prefetch<2><<<sms * 8, 256>>>(x, y, z, pairs); });
  time("prefetch L2::256B kPairs=4", vf, [&] { Prefetch<4><<<sms * 8, 256>>>(x, y, z, pairs); });
  for (int tpb : {128, 256, 512}) {
    char name[64];
    snprintf(name, sizeof name, "chunked kPairs=1, %d threads", tpb);
    time(name, vf, [&] { Chunked<1><<<(pairs + tpb - 1) / tpb, tpb>>>(x, y, z, pairs); });
    snprintf(name, sizeof name, "chunked kPairs=2, %d threads", tpb);
    time(name, vf, [&] { Chunked<2><<<(pairs + 2 * tpb - 1) / (2 * tpb), tpb>>>(x, y, z, pairs); });
    snprintf(name, sizeof name, "chunked kPairs=4, %d threads", tpb);
    time(name, vf, [&] { Chunked<4><<<(pairs + 4 * tpb - 1) / (4 * tpb), tpb>>>(x, y, z, pairs); });
  }
  return 0;
}
