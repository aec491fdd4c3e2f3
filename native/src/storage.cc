#include "storage.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "errors.h"
#include "random.h"
#include "thread_pool.h"

namespace gpulab {

namespace {
constexpr size_t kPage = 4096;
void ReleaseHost(void* data, int) { std::free(data); }
}  // namespace

StoragePtr AllocateHost(DType dtype, size_t length) {
  auto s = std::make_shared<Storage>();
  s->dtype = dtype;
  s->length = length;
  s->location = Location::Host;
  size_t bytes = s->bytes();
  size_t rounded = (bytes + kPage - 1) / kPage * kPage;
  void* p = std::aligned_alloc(kPage, rounded);
  if (!p) {
    throw NativeError("OUT_OF_HOST_MEMORY", "Could not allocate " + std::to_string(bytes) + " bytes of host memory for " +
                                                std::to_string(length) + " " + DTypeName(dtype) + " elements");
  }
  s->data = p;
  s->release = ReleaseHost;
  return s;
}

namespace {
template <typename F>
void ForEachChunk(size_t n, F&& body) {
  // Large fills run on every core; the values do not depend on how the range is split.
  ThreadPool& pool = ThreadPool::Global();
  size_t threads = n < (1u << 20) ? 1 : pool.size();
  pool.ParallelFor(n, threads, body, 1, ThreadPool::IfBusy::RunAlone);
}
}  // namespace

void FillHostRandom(const Storage& s, uint64_t seed, double low, double high) {
  const double span = high - low;
  switch (s.dtype) {
    case DType::F64: {
      double* p = s.as<double>();
      ForEachChunk(s.length, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) p[i] = low + span * RandomUnitDouble(seed, i);
      });
      break;
    }
    case DType::F32: {
      float* p = s.as<float>();
      const float lo = static_cast<float>(low), sp = static_cast<float>(span);
      ForEachChunk(s.length, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) p[i] = lo + sp * RandomUnitFloat(seed, i);
      });
      break;
    }
    case DType::F16:
    case DType::BF16: {
      uint16_t* p = s.as<uint16_t>();
      const bool half = s.dtype == DType::F16;
      const float lo = static_cast<float>(low), sp = static_cast<float>(span);
      ForEachChunk(s.length, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) {
          float v = lo + sp * RandomUnitFloat(seed, i);
          p[i] = half ? FloatToHalf(v) : FloatToBf16(v);
        }
      });
      break;
    }
    case DType::I8: {
      int8_t* p = s.as<int8_t>();
      const int64_t lo = static_cast<int64_t>(std::ceil(low));
      const int64_t hi = static_cast<int64_t>(std::floor(high));
      // The facade refuses a range holding no integer; a direct caller gets an error, not a division by zero.
      if (hi < lo) throw NativeError("INVALID_ARGUMENT", "Expected an int8 fill range holding at least one integer");
      const uint64_t count = static_cast<uint64_t>(hi - lo + 1);
      ForEachChunk(s.length, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) p[i] = static_cast<int8_t>(lo + static_cast<int64_t>(RandomBits(seed, i) % count));
      });
      break;
    }
  }
}

DeviceMemoryHooks& deviceMemoryHooks() {
  static DeviceMemoryHooks hooks;
  return hooks;
}

}  // namespace gpulab
