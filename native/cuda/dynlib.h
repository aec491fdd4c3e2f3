// Opening the NVIDIA libraries the addon never links against (cuBLAS, NVRTC, NVML): dlopen by versioned soname,
// newest first, and look up each function by name. A library that is missing, or lacks a function, is reported
// with the reason, and disables only the features that need it.
#pragma once
#include <initializer_list>
#include <string>

namespace gpulab {

struct DynamicLibrary {
  void* handle = nullptr;
  std::string soname;   // the name that opened, e.g. "libcublas.so.13"
  std::string path;     // the file it resolved to
  std::string reason;   // why nothing opened, when handle is null

  // Tries each soname in order; fills handle, soname and path, or reason.
  static DynamicLibrary Open(std::initializer_list<const char*> sonames);

  // The symbol's address cast to the function pointer type F; false (and reason set) when it is missing.
  template <typename F>
  bool Bind(F& fn, const char* name) {
    fn = reinterpret_cast<F>(Symbol(name));
    if (!fn && reason.empty()) reason = soname + " lacks " + name;
    return fn != nullptr;
  }

 private:
  void* Symbol(const char* name) const;
};

}  // namespace gpulab
