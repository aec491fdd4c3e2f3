#include "blas.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

namespace gpulab {

namespace {

BlasLibrary Open() {
  BlasLibrary lib;
  const char* env = std::getenv("GPU_LAB_BLAS");
  if (env && std::strcmp(env, "none") == 0) {
    lib.reason = "disabled by GPU_LAB_BLAS=none";
    return lib;
  }
  const char* candidates[] = {"libopenblas.so.0", "libopenblas.so", "libopenblasp.so.0", "libblas.so.3",
                              "libcblas.so.3"};
  std::string tried;
  for (const char* soname : candidates) {
    void* h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      tried += std::string(tried.empty() ? "" : "; ") + dlerror();
      continue;
    }
    auto sgemm = reinterpret_cast<CblasSgemm>(dlsym(h, "cblas_sgemm"));
    auto dgemm = reinterpret_cast<CblasDgemm>(dlsym(h, "cblas_dgemm"));
    if (!sgemm || !dgemm) {
      tried += std::string(tried.empty() ? "" : "; ") + soname + " has no cblas_sgemm/cblas_dgemm";
      dlclose(h);
      continue;
    }
    lib.available = true;
    lib.path = soname;
    lib.sgemm = sgemm;
    lib.dgemm = dgemm;
    lib.setThreads = reinterpret_cast<void (*)(int)>(dlsym(h, "openblas_set_num_threads"));
    lib.getThreads = reinterpret_cast<int (*)()>(dlsym(h, "openblas_get_num_threads"));
    auto config = reinterpret_cast<const char* (*)()>(dlsym(h, "openblas_get_config"));
    lib.name = config ? config() : "CBLAS";
    if (config && lib.name.rfind("OpenBLAS", 0) != 0) lib.name = "OpenBLAS " + lib.name;
    return lib;  // kept open for the life of the process
  }
  lib.reason = "no system BLAS found (" + tried + ")";
  return lib;
}

}  // namespace

const BlasLibrary& Blas() {
  static const BlasLibrary lib = Open();
  return lib;
}

}  // namespace gpulab
