#include "build_info.h"

#include "../cpu/blas.h"

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

Napi::Value BlasInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const BlasLibrary& lib = Blas();
  Napi::Object o = Napi::Object::New(env);
  o.Set("available", lib.available);
  o.Set("name", lib.available ? Napi::Value(Napi::String::New(env, lib.name)) : env.Null());
  o.Set("library", lib.available ? Napi::Value(Napi::String::New(env, lib.path)) : env.Null());
  o.Set("reason", lib.available ? env.Null() : Napi::Value(Napi::String::New(env, lib.reason)));
  return o;
}

}  // namespace

void InitBuildInfo(Napi::Env env, Napi::Object exports) {
  exports.Set("buildInfo", Napi::Function::New(env, BuildInfo, "buildInfo"));
  exports.Set("blasInfo", Napi::Function::New(env, BlasInfo, "blasInfo"));
}

}  // namespace gpulab
