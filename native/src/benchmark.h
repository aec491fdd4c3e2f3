// startBenchmark(spec, onProgress?) -> { promise, cancel }: the timing primitive. Warm-up runs, then `repeats`
// samples, each timed alone; every sample comes back. Runs on a worker thread, one measurement at a time in the
// process so that two never share the cores or the GPU; cancel() stops it between samples.
#pragma once
#include <napi.h>

namespace gpulab {
void InitBenchmark(Napi::Env env, Napi::Object exports);
}
