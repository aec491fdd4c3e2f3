// cpuInfo(): what the CPU side of a result ran on.
#pragma once
#include <napi.h>

namespace gpulab {
void InitCpuInfo(Napi::Env env, Napi::Object exports);
}
