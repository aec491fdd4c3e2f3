#include "blas.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <regex>

namespace gpulab {

namespace {

// How each family names its functions: a prefix and a suffix around the plain CBLAS name. The scipy-openblas wheels
// that NumPy and SciPy bundle rename every symbol (`scipy_`), NumPy's with the ILP64 suffix `64_`; MKL's runtime
// library has ILP64 twins with `_64`. Tried in this order; the first with both GEMMs wins.
struct Naming {
  const char* prefix;
  const char* suffix;
  bool ilp64;
};
constexpr Naming kNamings[] = {
    {"scipy_", "64_", true}, {"scipy_", "", false}, {"", "64_", true}, {"", "_64", true}, {"", "", false},
};

bool Disabled() {
  const char* env = std::getenv("GPU_LAB_BLAS");
  return env && std::strcmp(env, "none") == 0;
}

template <typename F>
F Symbol(void* h, const std::string& name) {
  return reinterpret_cast<F>(dlsym(h, name.c_str()));
}

std::string VersionIn(const std::string& text, const char* after) {
  std::smatch m;
  const std::regex re(std::string(after) + "\\s*v?(\\d+\\.\\d+(?:\\.\\d+)*)");
  return std::regex_search(text, m, re) ? m[1].str() : "";
}

// OpenBLAS: its build line (version, DYNAMIC_ARCH, the kernel, MAX_THREADS), the kernel it picked for this CPU, and
// its thread count, all under the same renaming as its GEMMs.
void ReadOpenBlas(void* h, const Naming& n, BlasLibrary& lib) {
  const std::string p = n.prefix, s = n.suffix;
  auto config = Symbol<const char* (*)()>(h, p + "openblas_get_config" + s);
  auto corename = Symbol<const char* (*)()>(h, p + "openblas_get_corename" + s);
  lib.family = "OpenBLAS";
  lib.config = config ? config() : "";
  lib.kernel = corename ? corename() : "";
  lib.version = VersionIn(lib.config, "OpenBLAS");
  // An ILP64 build without the suffix (some distributions' libopenblas64) says so in its build line.
  if (lib.config.find("USE64BITINT") != std::string::npos) lib.ilp64 = true;
  lib.setThreadsInt = Symbol<void (*)(int)>(h, p + "openblas_set_num_threads" + s);
  lib.getThreadsInt = Symbol<int (*)()>(h, p + "openblas_get_num_threads" + s);
}

void ReadMkl(void* h, BlasLibrary& lib) {
  lib.family = "MKL";
  auto versionString = Symbol<void (*)(char*, int)>(h, "MKL_Get_Version_String");
  if (versionString) {
    char buf[256] = {0};
    versionString(buf, sizeof buf - 1);
    lib.config = buf;
    lib.version = VersionIn(lib.config, "Version");
  }
  lib.setThreadsInt = Symbol<void (*)(int)>(h, "MKL_Set_Num_Threads");
  lib.getThreadsInt = Symbol<int (*)()>(h, "MKL_Get_Max_Threads");
}

void ReadBlis(void* h, BlasLibrary& lib) {
  lib.family = "BLIS";
  auto version = Symbol<const char* (*)()>(h, "bli_info_get_version_str");
  lib.version = version ? version() : "";
  lib.config = lib.version.empty() ? "BLIS" : "BLIS " + lib.version;
  auto intSize = Symbol<int64_t (*)()>(h, "bli_info_get_blas_int_type_size");
  if (intSize && intSize() == 64) lib.ilp64 = true;
  lib.setThreadsLong = Symbol<void (*)(int64_t)>(h, "bli_thread_set_num_threads");
  lib.getThreadsLong = Symbol<int64_t (*)()>(h, "bli_thread_get_num_threads");
}

// MKL by its service functions: libmkl_rt, or a program that links MKL in and exports them.
bool IsMkl(void* h) {
  for (const char* name : {"MKL_Get_Max_Threads", "MKL_Get_Version_String", "mkl_serv_intel_cpu_true", "mkl_blas_sgemm"}) {
    if (dlsym(h, name)) return true;
  }
  return false;
}

// A library with no thread setter of its own may still run on OpenMP (MKL's GNU threading layer inside PyTorch):
// its runtime's setter, found through the library's dependencies, governs the calling thread's parallel regions.
void ReadOpenMp(void* h, BlasLibrary& lib) {
  if (lib.CanSetThreads()) return;
  lib.setThreadsInt = Symbol<void (*)(int)>(h, "omp_set_num_threads");
  lib.getThreadsInt = Symbol<int (*)()>(h, "omp_get_max_threads");
}

// The Fortran interface, where there is no CBLAS.
bool BindFortran(void* h, BlasLibrary& lib) {
  auto s = Symbol<FortranSgemm>(h, "sgemm_");
  auto d = Symbol<FortranDgemm>(h, "dgemm_");
  if (!s || !d) return false;
  lib.fsgemm = s;
  lib.fdgemm = d;
  lib.sgemmSymbol = "sgemm_";
  if (IsMkl(h)) ReadMkl(h, lib);
  else lib.family = "BLAS";
  ReadOpenMp(h, lib);
  lib.defaultThreads = lib.Threads();
  lib.available = true;
  return true;
}

// Fills `lib` from an open handle; false (with the reason) where it has no usable GEMMs.
bool Bind(void* h, BlasLibrary& lib) {
  const bool mkl = IsMkl(h);
  for (const Naming& n : kNamings) {
    // MKL's plain cblas_sgemm takes 32- or 64-bit integers as MKL_INTERFACE_LAYER says; its `_64` twins always 64.
    const std::string sname = std::string(n.prefix) + "cblas_sgemm" + n.suffix;
    void* s = dlsym(h, sname.c_str());
    void* d = dlsym(h, (std::string(n.prefix) + "cblas_dgemm" + n.suffix).c_str());
    if (!s || !d) continue;
    lib.sgemmSymbol = sname;
    lib.ilp64 = n.ilp64;
    if (mkl) {
      ReadMkl(h, lib);
      if (!n.ilp64) {
        // Without the `_64` names, ask for 32-bit integers; where MKL answers that 64-bit ones are in force
        // (MKL_INTERFACE_ILP64 = 1), call it so.
        auto layer = Symbol<int (*)(int)>(h, "MKL_Set_Interface_Layer");
        if (layer && layer(0) == 1) lib.ilp64 = true;
      }
    } else if (dlsym(h, (std::string(n.prefix) + "openblas_get_config" + n.suffix).c_str())) {
      ReadOpenBlas(h, n, lib);
    } else if (dlsym(h, "bli_info_get_version_str")) {
      ReadBlis(h, lib);
    } else {
      lib.family = "CBLAS";
    }
    if (lib.ilp64) {
      lib.sgemm64 = reinterpret_cast<CblasSgemm64>(s);
      lib.dgemm64 = reinterpret_cast<CblasDgemm64>(d);
    } else {
      lib.sgemm = reinterpret_cast<CblasSgemm>(s);
      lib.dgemm = reinterpret_cast<CblasDgemm>(d);
    }
    ReadOpenMp(h, lib);
    lib.defaultThreads = lib.Threads();
    lib.available = true;
    return true;
  }
  if (BindFortran(h, lib)) return true;
  lib.reason = lib.path + " has no cblas_sgemm and cblas_dgemm (plain, scipy_-prefixed or 64-bit-suffixed), nor sgemm_ and dgemm_";
  return false;
}

// OpenBLAS's threads spin for 2^28 clock ticks after a call (about 0.1 s) before they sleep, and whatever computes
// next waits for them to (main/host/cpu-quiet.ts): each library the GEMM's choice times after another, a peer after
// the engine. Told 2^25 (about 15 ms), they still spin through the microseconds between a benchmark's calls and its
// rounds, where waking would cost, and every handover is a tenth as long. OpenBLAS reads OPENBLAS_THREAD_TIMEOUT as
// it loads; it is set only where the environment names none, and only while a library is opened, so that the Python
// peers, started later, run their NumPy as the environment has it.
class ShortSpin {
 public:
  ShortSpin() : set_(std::getenv(kName) == nullptr) {
    if (set_) setenv(kName, "25", 0);
  }
  ~ShortSpin() {
    if (set_) unsetenv(kName);
  }
  ShortSpin(const ShortSpin&) = delete;
  ShortSpin& operator=(const ShortSpin&) = delete;

 private:
  static constexpr const char* kName = "OPENBLAS_THREAD_TIMEOUT";
  bool set_;
};

std::mutex& Lock() {
  static std::mutex m;
  return m;
}

// Every library opened, by id; a deque so that references handed out stay valid. Libraries stay open for the life of
// the process: a BLAS's threads outlive its calls, and closing it under them would crash.
std::deque<BlasLibrary>& Registry() {
  static std::deque<BlasLibrary> libs;
  return libs;
}

BlasLibrary& Added(BlasLibrary lib) {
  auto& libs = Registry();
  lib.id = static_cast<int>(libs.size());
  libs.push_back(std::move(lib));
  return libs.back();
}

BlasLibrary OpenOne(const std::string& path, const std::string& origin) {
  BlasLibrary lib;
  lib.path = path;
  lib.origin = origin;
  if (Disabled()) {
    lib.reason = "disabled by GPU_LAB_BLAS=none";
    return lib;
  }
  if (path.empty() || path.find('\0') != std::string::npos) {
    lib.reason = "no library named";
    return lib;
  }
  // Local: two OpenBLAS builds in one process must not resolve each other's symbols.
  void* h;
  {
    ShortSpin spin;
    h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  }
  if (!h) {
    const char* err = dlerror();
    lib.reason = err ? err : ("could not open " + path);
    return lib;
  }
  if (!Bind(h, lib)) dlclose(h);
  return lib;
}

BlasLibrary OpenSystem() {
  const char* candidates[] = {"libopenblas.so.0", "libopenblas.so", "libopenblasp.so.0", "libblis.so.4",
                              "libmkl_rt.so.2",   "libblas.so.3",   "libcblas.so.3"};
  std::string tried;
  for (const char* soname : candidates) {
    BlasLibrary lib = OpenOne(soname, "system");
    if (lib.available) return lib;
    if (lib.reason == "disabled by GPU_LAB_BLAS=none") return lib;
    tried += (tried.empty() ? "" : "; ") + lib.reason;
  }
  BlasLibrary none;
  none.origin = "system";
  none.reason = "no system BLAS found (" + tried + ")";
  return none;
}

}  // namespace

void BlasLibrary::SetThreads(int threads) const {
  if (setThreadsInt) setThreadsInt(threads);
  else if (setThreadsLong) setThreadsLong(threads);
}

int BlasLibrary::Threads() const {
  if (getThreadsInt) return getThreadsInt();
  if (getThreadsLong) return static_cast<int>(getThreadsLong());
  return 0;
}

void BlasLibrary::Sgemm(size_t m, size_t n, size_t k, const float* a, const float* b, float* c) const {
  if (fsgemm) {
    // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: B (n×k, leading n) times A (k×m, leading k).
    const char no = 'N';
    const int M = static_cast<int>(n), N = static_cast<int>(m), K = static_cast<int>(k);
    const float one = 1, zero = 0;
    fsgemm(&no, &no, &M, &N, &K, &one, b, &M, a, &K, &zero, c, &M, 1, 1);
  } else if (ilp64) {
    sgemm64(kCblasRowMajor, kCblasNoTrans, kCblasNoTrans, static_cast<int64_t>(m), static_cast<int64_t>(n),
            static_cast<int64_t>(k), 1.0f, a, static_cast<int64_t>(k), b, static_cast<int64_t>(n), 0.0f, c,
            static_cast<int64_t>(n));
  } else {
    sgemm(kCblasRowMajor, kCblasNoTrans, kCblasNoTrans, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k),
          1.0f, a, static_cast<int>(k), b, static_cast<int>(n), 0.0f, c, static_cast<int>(n));
  }
}

void BlasLibrary::Dgemm(size_t m, size_t n, size_t k, const double* a, const double* b, double* c) const {
  if (fdgemm) {
    const char no = 'N';
    const int M = static_cast<int>(n), N = static_cast<int>(m), K = static_cast<int>(k);
    const double one = 1, zero = 0;
    fdgemm(&no, &no, &M, &N, &K, &one, b, &M, a, &K, &zero, c, &M, 1, 1);
  } else if (ilp64) {
    dgemm64(kCblasRowMajor, kCblasNoTrans, kCblasNoTrans, static_cast<int64_t>(m), static_cast<int64_t>(n),
            static_cast<int64_t>(k), 1.0, a, static_cast<int64_t>(k), b, static_cast<int64_t>(n), 0.0, c,
            static_cast<int64_t>(n));
  } else {
    dgemm(kCblasRowMajor, kCblasNoTrans, kCblasNoTrans, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k),
          1.0, a, static_cast<int>(k), b, static_cast<int>(n), 0.0, c, static_cast<int>(n));
  }
}

std::string BlasLibrary::Describe() const {
  std::string d = family + (version.empty() ? "" : " " + version);
  std::string notes;
  if (!kernel.empty()) notes += kernel + " kernel";
  if (ilp64) notes += std::string(notes.empty() ? "" : ", ") + "64-bit integers";
  return notes.empty() ? d : d + " (" + notes + ")";
}

const BlasLibrary& Blas() {
  std::lock_guard<std::mutex> lock(Lock());
  static BlasLibrary* system = nullptr;
  if (!system) system = &Added(OpenSystem());
  return *system;
}

const BlasLibrary& OpenBlas(const std::string& path, const std::string& origin) {
  std::lock_guard<std::mutex> lock(Lock());
  for (BlasLibrary& lib : Registry()) {
    if (lib.path == path) return lib;
  }
  return Added(OpenOne(path, origin));
}

const BlasLibrary* BlasById(int id) {
  std::lock_guard<std::mutex> lock(Lock());
  auto& libs = Registry();
  if (id < 0 || static_cast<size_t>(id) >= libs.size()) return nullptr;
  return &libs[static_cast<size_t>(id)];
}

}  // namespace gpulab
