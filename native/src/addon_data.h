// Per-environment state of the addon (one per Node worker or Electron utility process that loads it).
#pragma once
#include <napi.h>

namespace gpulab {

struct AddonData {
  Napi::FunctionReference bufferConstructor;
};

inline AddonData& GetAddonData(Napi::Env env) {
  AddonData* data = env.GetInstanceData<AddonData>();
  if (!data) {
    data = new AddonData();
    env.SetInstanceData(data);
  }
  return *data;
}

}  // namespace gpulab
