#include "dynlib.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fnmatch.h>
#include <link.h>
#include <unistd.h>

#include <mutex>

namespace gpulab {

namespace {

std::mutex dirsMutex;
std::vector<std::string> toolkitDirs{"/usr/local/cuda/lib64"};
bool toolkitLooked = false;

std::string Join(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// RTLD_LOCAL: the library's symbols stay out of the global namespace, so two versions never clash.
bool TryOpen(DynamicLibrary& lib, const std::string& name, std::string& error) {
  void* h = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* err = dlerror();
    if (error.empty() && err) error = err;
    return false;
  }
  lib.handle = h;
  lib.soname = name.substr(name.rfind('/') + 1);
  struct link_map* map = nullptr;
  lib.path = (dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name) ? map->l_name : name;
  return true;
}

// The companions' handles are never closed: like the library itself, they stay loaded for the process's life.
void OpenCompanions(const std::string& dir, std::initializer_list<const char*> patterns) {
  if (patterns.size() == 0) return;
  DIR* d = opendir(dir.c_str());
  if (!d) return;
  while (const dirent* e = readdir(d)) {
    for (const char* pattern : patterns) {
      if (fnmatch(pattern, e->d_name, 0) == 0) dlopen((dir + "/" + e->d_name).c_str(), RTLD_NOW | RTLD_LOCAL);
    }
  }
  closedir(d);
}

}  // namespace

DynamicLibrary DynamicLibrary::Open(std::initializer_list<const char*> sonames) {
  DynamicLibrary lib;
  std::string firstError;
  std::vector<std::string> tried;
  for (const char* name : sonames) {
    if (TryOpen(lib, name, firstError)) return lib;
    tried.emplace_back(name);
  }
  lib.reason = "none of " + Join(tried) + " could be opened (" + firstError + ")";
  return lib;
}

DynamicLibrary DynamicLibrary::OpenToolkit(std::initializer_list<const char*> sonames,
                                           std::initializer_list<const char*> companions) {
  std::vector<std::string> dirs;
  {
    std::lock_guard<std::mutex> lock(dirsMutex);
    toolkitLooked = true;
    dirs = toolkitDirs;
  }
  DynamicLibrary lib;
  std::string loaderError, fileError;
  std::vector<std::string> tried;
  for (const char* name : sonames) {
    if (TryOpen(lib, name, loaderError)) return lib;
    tried.emplace_back(name);
  }
  for (const auto& dir : dirs) {
    for (const char* name : sonames) {
      const std::string path = dir + "/" + name;
      // A file that is there but does not load (a missing dependency, another architecture) says more than the
      // loader's "cannot open shared object file".
      if (access(path.c_str(), F_OK) == 0 && TryOpen(lib, path, fileError)) {
        OpenCompanions(dir, companions);
        return lib;
      }
    }
  }
  const size_t n = dirs.size();
  const std::string others = n ? " or " + std::to_string(n) + (n == 1 ? " other folder" : " other folders") : "";
  const std::string& error = fileError.empty() ? loaderError : fileError;
  lib.reason = "none of " + Join(tried) + " could be opened from the loader's path" + others + " (" + error + ")";
  return lib;
}

void* DynamicLibrary::Symbol(const char* name) const {
  return handle ? dlsym(handle, name) : nullptr;
}

std::vector<std::string> ToolkitLibraryDirs() {
  std::lock_guard<std::mutex> lock(dirsMutex);
  return toolkitDirs;
}

bool SetToolkitLibraryDirs(std::vector<std::string> dirs) {
  std::lock_guard<std::mutex> lock(dirsMutex);
  if (toolkitLooked) return false;
  toolkitDirs = std::move(dirs);
  return true;
}

}  // namespace gpulab
