#include "storage.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "errors.h"
#include "random.h"
#include "thread_pool.h"

namespace gpulab {

namespace {
constexpr size_t kPage = 4096;
constexpr size_t kHugePage = 2u << 20;
void ReleaseHost(void* data, int) { std::free(data); }
}  // namespace

StoragePtr AllocateHost(DType dtype, size_t length) {
  auto s = std::make_shared<Storage>();
  s->dtype = dtype;
  s->length = length;
  s->location = Location::Host;
  size_t bytes = s->bytes();
  // A buffer of a huge page or more starts on a huge-page border and asks for transparent huge pages, as a tuned
  // allocator does: a pageable copy pins and stages the source page by page, and with 4 KiB pages a 1 GiB copy to an
  // H100 ran at 7.1 GB/s where the same bytes on 2 MiB pages ran at 9.4 (PyTorch's own tensor: 9.3). The advice is
  // ignored where the system turned huge pages off; the memory stays ordinary pageable memory either way.
  const size_t align = bytes >= kHugePage ? kHugePage : kPage;
  size_t rounded = (bytes + align - 1) / align * align;
  void* p = std::aligned_alloc(align, rounded);
  if (!p) {
    throw NativeError("OUT_OF_HOST_MEMORY", "Could not allocate " + std::to_string(bytes) + " bytes of host memory for " +
                                                std::to_string(length) + " " + DTypeName(dtype) + " elements");
  }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (align == kHugePage) madvise(p, rounded, MADV_HUGEPAGE);
#endif
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
