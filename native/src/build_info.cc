#include "build_info.h"

#include "../cpu/blas.h"
#include "errors.h"

namespace gpulab {

namespace {

Napi::Value BuildInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object o = Napi::Object::New(env);
#ifdef GPU_LAB_WITH_CUDA
  o.Set("cuda", true);
  o.Set("cudaReason", env.Null());
#else
  o.Set("cuda", false);
  o.Set("cudaReason", "built without CUDA: nvcc was not found when the addon was compiled");
#endif
  o.Set("napiVersion", NAPI_VERSION);
  o.Set("compiler", __VERSION__);
  return o;
}

Napi::Value Text(Napi::Env env, const std::string& s) {
  return s.empty() ? env.Null() : Napi::Value(Napi::String::New(env, s));
}

Napi::Object Describe(Napi::Env env, const BlasLibrary& lib) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("id", lib.id);
  o.Set("available", lib.available);
  // `name` and `library` as before: the library's own description and what was opened.
  o.Set("name", lib.available ? Napi::Value(Napi::String::New(env, lib.Describe())) : env.Null());
  o.Set("library", lib.available ? Napi::Value(Napi::String::New(env, lib.path)) : env.Null());
  o.Set("path", Napi::String::New(env, lib.path));
  o.Set("origin", Napi::String::New(env, lib.origin));
  o.Set("reason", lib.available ? env.Null() : Napi::Value(Napi::String::New(env, lib.reason)));
  o.Set("family", Text(env, lib.family));
  o.Set("version", Text(env, lib.version));
  o.Set("config", Text(env, lib.config));
  o.Set("kernel", Text(env, lib.kernel));
  o.Set("symbol", Text(env, lib.sgemmSymbol));
  o.Set("ilp64", lib.ilp64);
  o.Set("threadsSettable", lib.CanSetThreads());
  o.Set("defaultThreads", lib.defaultThreads);
  return o;
}

Napi::Value BlasInfo(const Napi::CallbackInfo& info) {
  return Guarded(info.Env(), [&]() -> Napi::Value { return Describe(info.Env(), Blas()); });
}

// blasOpen(path, origin): the library at `path`, opened once; a library that does not open says why.
Napi::Value BlasOpen(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return Guarded(env, [&]() -> Napi::Value {
    if (!info[0].IsString()) ThrowInvalid("path", "a library file or soname", "a non-string");
    if (!info[1].IsString()) ThrowInvalid("origin", "a word for where the library came from", "a non-string");
    return Describe(env, OpenBlas(info[0].As<Napi::String>().Utf8Value(), info[1].As<Napi::String>().Utf8Value()));
  });
}

}  // namespace

void InitBuildInfo(Napi::Env env, Napi::Object exports) {
  exports.Set("buildInfo", Napi::Function::New(env, BuildInfo, "buildInfo"));
  exports.Set("blasInfo", Napi::Function::New(env, BlasInfo, "blasInfo"));
  exports.Set("blasOpen", Napi::Function::New(env, BlasOpen, "blasOpen"));
}

}  // namespace gpulab
