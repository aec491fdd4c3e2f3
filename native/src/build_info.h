// buildInfo(): how this addon was built (with or without CUDA, compiler, Node-API version) and blasInfo().
#pragma once
#include <napi.h>

namespace gpulab {
void InitBuildInfo(Napi::Env env, Napi::Object exports);
}
