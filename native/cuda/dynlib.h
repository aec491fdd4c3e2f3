// Opening the NVIDIA libraries the addon never links against (cuBLAS, NVRTC, NVML): dlopen by versioned soname,
// newest first, and look up each function by name. A library that is missing, or lacks a function, is reported
// with the reason, and disables only the features that need it.
//
// The toolkit's libraries (cuBLAS, NVRTC) do not come with the driver: a user may have them from a CUDA toolkit, a
// conda environment or NVIDIA's Python wheels, none of which is on the loader's path. After the loader's path they
// are looked for in the folders the compute host found (main/host/cuda-library-dirs.ts); before it says, in
// /usr/local/cuda/lib64 alone.
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

namespace gpulab {

struct DynamicLibrary {
  void* handle = nullptr;
  std::string soname;   // the name that opened, e.g. "libcublas.so.13"
  std::string path;     // the file it resolved to
  std::string reason;   // why nothing opened, when handle is null

  // Tries each soname in order through the loader's path; fills handle, soname and path, or reason.
  static DynamicLibrary Open(std::initializer_list<const char*> sonames);
  // Open, then each folder of ToolkitLibraryDirs() in order with each soname in it. `companions`: files the library
  // dlopens by bare name as it runs (NVRTC its builtins, "libnvrtc-builtins.so.13.0"), as fnmatch patterns; where the
  // library came from a folder, the loader cannot find them there, so they are opened from that folder too and the
  // library's own dlopen finds them loaded, by soname.
  static DynamicLibrary OpenToolkit(std::initializer_list<const char*> sonames,
                                    std::initializer_list<const char*> companions = {});

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

// The folders OpenToolkit looks in after the loader's path.
std::vector<std::string> ToolkitLibraryDirs();
// Replaces them; false, changing nothing, once a toolkit library has been looked for: the libraries are opened once
// per process, so folders named later would never be searched.
bool SetToolkitLibraryDirs(std::vector<std::string> dirs);

}  // namespace gpulab
