// Errors that cross into JS carry a stable code. C++ code throws NativeError; the binding layer turns it into a
// JS Error whose `code` property is that code. Nothing in the addon calls exit() or abort().
#pragma once
#include <napi.h>

#include <stdexcept>
#include <string>

namespace gpulab {

class NativeError : public std::runtime_error {
 public:
  NativeError(std::string code, const std::string& message) : std::runtime_error(message), code_(std::move(code)) {}
  const std::string& code() const { return code_; }

 private:
  std::string code_;
};

// A JS Error with `code` set, ready to throw or to reject a promise with.
Napi::Error MakeError(Napi::Env env, const std::string& code, const std::string& message);

// Throws a NativeError with code INVALID_ARGUMENT naming the argument, the value and what was expected.
[[noreturn]] void ThrowInvalid(const std::string& name, const std::string& expected, const std::string& received);

}  // namespace gpulab

namespace gpulab {
// Runs a JS-thread binding body, turning NativeError into a JS Error with its code.
template <typename F>
Napi::Value Guarded(Napi::Env env, F&& body) {
  try {
    return body();
  } catch (const NativeError& e) {
    throw MakeError(env, e.code(), e.what());
  } catch (const std::bad_alloc&) {
    throw MakeError(env, "OUT_OF_HOST_MEMORY", "The addon ran out of host memory");
  }
}
}  // namespace gpulab
