#include "cpu_info.h"

#include <sys/sysinfo.h>
#include <unistd.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace gpulab {

namespace {

struct CpuInfo {
  std::string model = "unknown CPU";
  unsigned logical = 1;
  unsigned physical = 1;
  std::vector<std::string> simd;
  double memoryTotal = 0, memoryAvailable = 0;
  long l2 = 0, l3 = 0;
};

std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

CpuInfo ReadCpuInfo() {
  CpuInfo c;
  unsigned hw = std::thread::hardware_concurrency();
  c.logical = hw ? hw : 1;
  // Physical cores: distinct (physical id, core id) pairs in /proc/cpuinfo; where those are missing (some VMs and
  // ARM kernels), every logical CPU counts as a core.
  std::ifstream in("/proc/cpuinfo");
  std::set<std::pair<std::string, std::string>> cores;
  std::string line, physId = "0";
  while (std::getline(in, line)) {
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = Trim(line.substr(0, colon)), value = Trim(line.substr(colon + 1));
    if (key == "model name" || (key == "Model" && c.model == "unknown CPU")) c.model = value;
    else if (key == "physical id") physId = value;
    else if (key == "core id") cores.insert({physId, value});
  }
  c.physical = cores.empty() ? c.logical : static_cast<unsigned>(cores.size());
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  const std::pair<const char*, bool> features[] = {
      {"sse4.2", __builtin_cpu_supports("sse4.2")},   {"avx", __builtin_cpu_supports("avx")},
      {"avx2", __builtin_cpu_supports("avx2")},       {"fma", __builtin_cpu_supports("fma")},
      {"avx512f", __builtin_cpu_supports("avx512f")}, {"avx512bw", __builtin_cpu_supports("avx512bw")},
      {"avx512vl", __builtin_cpu_supports("avx512vl")},
      {"avx512bf16", __builtin_cpu_supports("avx512bf16")},
  };
  for (const auto& f : features)
    if (f.second) c.simd.push_back(f.first);
#elif defined(__aarch64__)
  c.simd.push_back("neon");
#endif
  struct sysinfo si;
  if (sysinfo(&si) == 0) c.memoryTotal = static_cast<double>(si.totalram) * si.mem_unit;
  std::ifstream mem("/proc/meminfo");
  while (std::getline(mem, line)) {
    if (line.rfind("MemAvailable:", 0) == 0) {
      std::istringstream ss(line.substr(13));
      double kib = 0;
      ss >> kib;
      c.memoryAvailable = kib * 1024.0;
    }
  }
#ifdef _SC_LEVEL2_CACHE_SIZE
  c.l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  c.l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
  return c;
}

Napi::Value CpuInfoBinding(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  CpuInfo c = ReadCpuInfo();
  Napi::Object o = Napi::Object::New(env);
  o.Set("model", c.model);
  o.Set("logicalCores", c.logical);
  o.Set("physicalCores", c.physical);
  Napi::Array simd = Napi::Array::New(env, c.simd.size());
  for (size_t i = 0; i < c.simd.size(); ++i) simd.Set(static_cast<uint32_t>(i), c.simd[i]);
  o.Set("simd", simd);
  o.Set("memoryTotalBytes", c.memoryTotal);
  o.Set("memoryAvailableBytes", c.memoryAvailable);
  o.Set("l2CacheBytes", c.l2 > 0 ? Napi::Value(Napi::Number::New(env, static_cast<double>(c.l2))) : env.Null());
  o.Set("l3CacheBytes", c.l3 > 0 ? Napi::Value(Napi::Number::New(env, static_cast<double>(c.l3))) : env.Null());
  return o;
}

}  // namespace

void InitCpuInfo(Napi::Env env, Napi::Object exports) {
  exports.Set("cpuInfo", Napi::Function::New(env, CpuInfoBinding, "cpuInfo"));
}

}  // namespace gpulab
