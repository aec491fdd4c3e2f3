// Counter-based random numbers: element i of a buffer filled with seed s is a pure function of (s, i), so a host
// buffer and a device buffer filled with the same seed hold the same values, whatever the thread count or grid.
// Compiles under g++ and nvcc alike.
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define GPULAB_HD __host__ __device__ __forceinline__
#else
#define GPULAB_HD inline
#endif

namespace gpulab {

// splitmix64's finaliser over a Weyl sequence keyed by the seed.
GPULAB_HD uint64_t RandomBits(uint64_t seed, uint64_t index) {
  uint64_t z = seed * 0x9E3779B97F4A7C15ull + (index + 1) * 0xD1B54A32D192ED03ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Uniform in [0, 1): 53 random bits for doubles, 24 for floats.
GPULAB_HD double RandomUnitDouble(uint64_t seed, uint64_t index) {
  return static_cast<double>(RandomBits(seed, index) >> 11) * (1.0 / 9007199254740992.0);
}
GPULAB_HD float RandomUnitFloat(uint64_t seed, uint64_t index) {
  return static_cast<float>(RandomBits(seed, index) >> 40) * (1.0f / 16777216.0f);
}

}  // namespace gpulab
