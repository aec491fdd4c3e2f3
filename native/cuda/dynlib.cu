#include "dynlib.h"

#include <dlfcn.h>
#include <link.h>

namespace gpulab {

DynamicLibrary DynamicLibrary::Open(std::initializer_list<const char*> sonames) {
  DynamicLibrary lib;
  std::string tried, firstError;
  for (const char* name : sonames) {
    // RTLD_LOCAL: the library's symbols stay out of the global namespace, so two versions never clash.
    void* h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (h) {
      lib.handle = h;
      lib.soname = name;
      struct link_map* map = nullptr;
      lib.path = (dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name) ? map->l_name : name;
      return lib;
    }
    const char* err = dlerror();
    if (firstError.empty() && err) firstError = err;
    tried += std::string(tried.empty() ? "" : ", ") + name;
  }
  lib.reason = "none of " + tried + " could be opened (" + firstError + ")";
  return lib;
}

void* DynamicLibrary::Symbol(const char* name) const {
  return handle ? dlsym(handle, name) : nullptr;
}

}  // namespace gpulab
