// Element types a buffer can hold, their sizes, and the 16-bit float conversions.
// fp16 and bf16 are storage formats here: the CPU computes in fp32 and rounds on store.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

namespace gpulab {

enum class DType { F64, F32, F16, BF16, I8 };

inline size_t DTypeSize(DType t) {
  switch (t) {
    case DType::F64: return 8;
    case DType::F32: return 4;
    case DType::F16:
    case DType::BF16: return 2;
    case DType::I8: return 1;
  }
  return 0;
}

inline const char* DTypeName(DType t) {
  switch (t) {
    case DType::F64: return "fp64";
    case DType::F32: return "fp32";
    case DType::F16: return "fp16";
    case DType::BF16: return "bf16";
    case DType::I8: return "int8";
  }
  return "?";
}

inline std::optional<DType> ParseDType(const std::string& s) {
  if (s == "fp64") return DType::F64;
  if (s == "fp32") return DType::F32;
  if (s == "fp16") return DType::F16;
  if (s == "bf16") return DType::BF16;
  if (s == "int8") return DType::I8;
  return std::nullopt;
}

inline uint32_t FloatBits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float BitsFloat(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }

// bf16 is the top half of an fp32; round to nearest even on the dropped 16 bits, keep NaN a NaN.
inline uint16_t FloatToBf16(float f) {
  uint32_t u = FloatBits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
}
inline float Bf16ToFloat(uint16_t h) { return BitsFloat(static_cast<uint32_t>(h) << 16); }

// IEEE binary16: 1 sign, 5 exponent (bias 15), 10 mantissa bits. Round to nearest even, with subnormals.
inline uint16_t FloatToHalf(float f) {
  uint32_t u = FloatBits(f);
  uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  uint32_t abs = u & 0x7fffffffu;
  if (abs >= 0x7f800000u) return sign | (abs > 0x7f800000u ? 0x7e00u : 0x7c00u);
  if (abs >= 0x477ff000u) return sign | 0x7c00u;  // rounds past 65504: infinity
  if (abs < 0x38800000u) {                           // below 2^-14: subnormal half or zero
    if (abs < 0x33000000u) return sign;              // below half of the smallest subnormal
    uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
    int shift = 126 - static_cast<int>(abs >> 23);   // 14 + (127 - e) - 1 + ... aligns to 2^-24 units
    uint32_t half = mant >> (shift);
    uint32_t rem = mant & ((1u << shift) - 1u);
    uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1u))) ++half;
    return sign | static_cast<uint16_t>(half);
  }
  uint32_t r = abs - 0x38000000u;                    // rebias exponent 127 -> 15
  r += 0xfffu + ((r >> 13) & 1u);
  return sign | static_cast<uint16_t>(r >> 13);
}

inline float HalfToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0) {
    if (mant == 0) return BitsFloat(sign);
    // subnormal: value = mant * 2^-24
    float v = static_cast<float>(mant) * 5.9604644775390625e-8f;
    return sign ? -v : v;
  }
  if (exp == 31) return BitsFloat(sign | 0x7f800000u | (mant << 13));
  return BitsFloat(sign | ((exp + 112u) << 23) | (mant << 13));
}

}  // namespace gpulab
