#include "timed_op.h"

#include "errors.h"

namespace gpulab {

namespace {
std::map<std::string, OpFactory>& Registry() {
  static std::map<std::string, OpFactory> r;
  return r;
}
}  // namespace

const StoragePtr& OpArgs::buffer(const std::string& name) const {
  auto it = buffers.find(name);
  if (it == buffers.end() || !it->second) {
    throw NativeError("INVALID_ARGUMENT", "Operation `" + op + "` needs a buffer named `" + name + "`");
  }
  return it->second;
}

double OpArgs::number(const std::string& name) const {
  auto it = numbers.find(name);
  if (it == numbers.end()) throw NativeError("INVALID_ARGUMENT", "Operation `" + op + "` needs a number `" + name + "`");
  return it->second;
}

double OpArgs::number(const std::string& name, double fallback) const {
  auto it = numbers.find(name);
  return it == numbers.end() ? fallback : it->second;
}

std::string OpArgs::string(const std::string& name, const std::string& fallback) const {
  auto it = strings.find(name);
  return it == strings.end() ? fallback : it->second;
}

void RegisterOp(const std::string& name, OpFactory factory) { Registry()[name] = factory; }

std::unique_ptr<TimedOp> CreateOp(const OpArgs& args) {
  const std::string key = (args.device < 0 ? "cpu/" : "cuda/") + args.op;
  auto it = Registry().find(key + "/" + args.variant);
  if (it == Registry().end()) it = Registry().find(key);
  if (it == Registry().end()) {
    throw NativeError("UNSUPPORTED_OPERATION", "Operation `" + args.op + "` is not available on " +
                                                   (args.device < 0 ? std::string("the CPU") : "CUDA devices") +
                                                   " in this build");
  }
  return it->second(args);
}

}  // namespace gpulab
