#include "errors.h"

namespace gpulab {

Napi::Error MakeError(Napi::Env env, const std::string& code, const std::string& message) {
  Napi::Error err = Napi::Error::New(env, message);
  err.Set("code", Napi::String::New(env, code));
  return err;
}

void ThrowInvalid(const std::string& name, const std::string& expected, const std::string& received) {
  throw NativeError("INVALID_ARGUMENT", "Expected " + expected + " for `" + name + "` but received " + received);
}

}  // namespace gpulab
