#include "memory.h"

#include <cmath>
#include <cstring>
#include <utility>

#include "check.h"
#include "devices.h"
#include "kernel_launch.h"
#include "kernels.cuh"
#include "src/buffer.h"
#include "src/errors.h"

namespace gpulab {

void CheckDeviceOrdinal(int device) {
  int count = 0;
  const std::string reason = CudaUnavailableReason(&count);
  if (!reason.empty()) throw NativeError("CUDA_UNAVAILABLE", reason);
  if (device < 0 || device >= count) {
    throw NativeError("INVALID_ARGUMENT", "Expected a CUDA device from cuda:0 to cuda:" + std::to_string(count - 1) +
                                              " but received cuda:" + std::to_string(device));
  }
}

namespace {

// Called when the last user of a buffer lets go, on whichever thread that is; errors cannot be reported from here
// (at process exit the runtime may already be unloading), so they are ignored.
void ReleaseDevice(void* data, int device) {
  // A kernel ran past the playground's watchdog on this device: cudaFree would wait for it forever. The process is
  // about to be killed, which frees everything.
  if (DeviceWedged(device)) return;
  DropCudaError(cudaSetDevice(device));
  DropCudaError(cudaFree(data));
}

void ReleasePinned(void* data, int) { DropCudaError(cudaFreeHost(data)); }

StoragePtr NewStorage(DType dtype, size_t length, Location location, int device) {
  auto s = std::make_shared<Storage>();
  s->dtype = dtype;
  s->length = length;
  s->location = location;
  s->device = device;
  return s;
}

}  // namespace

StoragePtr AllocateDevice(DType dtype, size_t length, int device) {
  CheckDeviceOrdinal(device);
  CUDA_CHECK(cudaSetDevice(device));
  StoragePtr s = NewStorage(dtype, length, Location::Device, device);
  const cudaError_t err = cudaMalloc(&s->data, s->bytes());
  if (err != cudaSuccess) {
    s->data = nullptr;
    ThrowAllocationError(err, s->bytes(), device, "cudaMalloc", __FILE__, __LINE__);
  }
  s->release = ReleaseDevice;
  return s;
}

StoragePtr AllocatePinned(DType dtype, size_t length) {
  CheckDeviceOrdinal(0);
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  StoragePtr s = NewStorage(dtype, length, Location::Pinned, device);
  const cudaError_t err = cudaHostAlloc(&s->data, s->bytes(), cudaHostAllocPortable);
  if (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    s->data = nullptr;
    throw NativeError("OUT_OF_HOST_MEMORY", "Could not pin " + std::to_string(s->bytes()) +
                                                " bytes of host memory (cudaHostAlloc: cudaErrorMemoryAllocation)");
  }
  CUDA_CHECK(err);
  s->release = ReleasePinned;
  return s;
}

DeviceAllocation::DeviceAllocation(size_t bytes, int device, const char* what) : device_(device) {
  const cudaError_t err = cudaMalloc(&ptr_, bytes);
  if (err != cudaSuccess) {
    ptr_ = nullptr;
    ThrowAllocationError(err, bytes, device, what, __FILE__, __LINE__);
  }
}

DeviceAllocation::DeviceAllocation(DeviceAllocation&& other) noexcept
    : ptr_(std::exchange(other.ptr_, nullptr)), device_(other.device_) {}

DeviceAllocation& DeviceAllocation::operator=(DeviceAllocation&& other) noexcept {
  if (this != &other) {
    if (ptr_) ReleaseDevice(ptr_, device_);
    ptr_ = std::exchange(other.ptr_, nullptr);
    device_ = other.device_;
  }
  return *this;
}

DeviceAllocation::~DeviceAllocation() {
  if (ptr_) ReleaseDevice(ptr_, device_);
}

namespace {

void CopyToHost(const Storage& src, size_t byteOffset, void* dst, size_t bytes) {
  CUDA_CHECK(cudaSetDevice(src.device));
  CUDA_CHECK(cudaMemcpy(dst, static_cast<const char*>(src.data) + byteOffset, bytes, cudaMemcpyDeviceToHost));
}

void CopyFromHost(const Storage& dst, size_t byteOffset, const void* src, size_t bytes) {
  CUDA_CHECK(cudaSetDevice(dst.device));
  CUDA_CHECK(cudaMemcpy(static_cast<char*>(dst.data) + byteOffset, src, bytes, cudaMemcpyHostToDevice));
}

void FillDeviceRandom(const Storage& s, uint64_t seed, double low, double high) {
  CUDA_CHECK(cudaSetDevice(s.device));
  CUDA_CHECK(kernels::LaunchFillRandom(s.data, s.dtype, s.length, seed, low, high, nullptr));
  CUDA_CHECK(cudaStreamSynchronize(nullptr));
}

// One scratch allocation holds the indices and, after them (8-byte aligned), the gathered elements; the copy back on
// the default stream waits for the kernel.
void GatherToHost(const Storage& src, const uint64_t* indices, size_t count, void* dst) {
  if (count == 0) return;
  const size_t elementBytes = DTypeSize(src.dtype);
  CUDA_CHECK(cudaSetDevice(src.device));
  DeviceAllocation scratch(count * (sizeof(uint64_t) + elementBytes), src.device, "cudaMalloc (gathered elements)");
  uint64_t* deviceIndices = scratch.as<uint64_t>();
  void* gathered = deviceIndices + count;
  CUDA_CHECK(cudaMemcpy(deviceIndices, indices, count * sizeof(uint64_t), cudaMemcpyHostToDevice));
  CUDA_CHECK(kernels::LaunchGather(src.data, elementBytes, deviceIndices, count, gathered, nullptr));
  CUDA_CHECK(cudaMemcpy(dst, gathered, count * elementBytes, cudaMemcpyDeviceToHost));
}

}  // namespace

void InstallDeviceMemoryHooks() {
  DeviceMemoryHooks& hooks = deviceMemoryHooks();
  hooks.copyToHost = CopyToHost;
  hooks.copyFromHost = CopyFromHost;
  hooks.fillRandom = FillDeviceRandom;
  hooks.gatherToHost = GatherToHost;
}

namespace {

// createDeviceBuffer(dtype, length, device)
Napi::Value CreateDeviceBuffer(const Napi::CallbackInfo& info) {
  return Guarded(info.Env(), [&]() -> Napi::Value {
    const DType dtype = DTypeArg(info[0]);
    const size_t length = LengthArg(info[1]);
    if (!info[2].IsNumber()) ThrowInvalid("device", "a CUDA ordinal", "a non-number");
    return BufferObject::Wrap(info.Env(), AllocateDevice(dtype, length, info[2].As<Napi::Number>().Int32Value()));
  });
}

// createPinnedBuffer(dtype, length)
Napi::Value CreatePinnedBuffer(const Napi::CallbackInfo& info) {
  return Guarded(info.Env(), [&]() -> Napi::Value {
    return BufferObject::Wrap(info.Env(), AllocatePinned(DTypeArg(info[0]), LengthArg(info[1])));
  });
}

// fillBytes(buffer, byte): every byte set to `byte`; 0xFF makes every float a NaN, the poison tests use.
Napi::Value FillBytes(const Napi::CallbackInfo& info) {
  return Guarded(info.Env(), [&]() -> Napi::Value {
    StoragePtr s = BufferObject::StorageOf(info[0], "buffer");
    const int byte = info[1].IsNumber() ? info[1].As<Napi::Number>().Int32Value() & 0xFF : 0xFF;
    if (s->location == Location::Device) {
      CUDA_CHECK(cudaSetDevice(s->device));
      CUDA_CHECK(cudaMemset(s->data, byte, s->bytes()));
    } else {
      std::memset(s->data, byte, s->bytes());
    }
    return info.Env().Undefined();
  });
}

// One copy between any two buffers off the JS thread: cudaMemcpy, or cudaMemcpyAsync on a stream of its own
// followed by a synchronisation of that stream.
class CopyWorker : public Napi::AsyncWorker {
 public:
  CopyWorker(Napi::Env env, StoragePtr dst, StoragePtr src, bool async)
      : Napi::AsyncWorker(env, "gpu-lab:copy"), deferred_(Napi::Promise::Deferred::New(env)), dst_(std::move(dst)),
        src_(std::move(src)), async_(async) {}
  Napi::Promise Promise() const { return deferred_.Promise(); }

 protected:
  void Execute() override {
    try {
      const int device = dst_->location == Location::Device ? dst_->device
                         : src_->location == Location::Device ? src_->device
                                                              : 0;
      CUDA_CHECK(cudaSetDevice(device));
      if (!async_) {
        CUDA_CHECK(cudaMemcpy(dst_->data, src_->data, src_->bytes(), cudaMemcpyDefault));
        // Between device buffers cudaMemcpy returns before the copy is done; the promise resolves when it is.
        CUDA_CHECK(cudaStreamSynchronize(nullptr));
        return;
      }
      cudaStream_t stream = nullptr;
      CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
      const cudaError_t copied = cudaMemcpyAsync(dst_->data, src_->data, src_->bytes(), cudaMemcpyDefault, stream);
      const cudaError_t synced = cudaStreamSynchronize(stream);
      DropCudaError(cudaStreamDestroy(stream));
      CUDA_CHECK(copied);
      CUDA_CHECK(synced);
    } catch (const NativeError& e) {
      code_ = e.code();
      SetError(e.what());
    }
  }
  void OnOK() override { deferred_.Resolve(Env().Undefined()); }
  void OnError(const Napi::Error& e) override { deferred_.Reject(MakeError(Env(), code_, e.Message()).Value()); }

 private:
  Napi::Promise::Deferred deferred_;
  StoragePtr dst_, src_;
  bool async_;
  std::string code_ = "CUDA_ERROR";
};

// copyBuffer(dst, src, async) -> Promise<void>
Napi::Value CopyBuffer(const Napi::CallbackInfo& info) {
  return Guarded(info.Env(), [&]() -> Napi::Value {
    StoragePtr dst = BufferObject::StorageOf(info[0], "dst");
    StoragePtr src = BufferObject::StorageOf(info[1], "src");
    if (dst->bytes() != src->bytes()) {
      throw NativeError("LENGTH_MISMATCH", "Expected `dst` to hold the " + std::to_string(src->bytes()) +
                                               " bytes of `src` but it holds " + std::to_string(dst->bytes()));
    }
    auto* worker = new CopyWorker(info.Env(), std::move(dst), std::move(src), info[2].ToBoolean().Value());
    Napi::Promise promise = worker->Promise();
    worker->Queue();
    return promise;
  });
}

}  // namespace

void InitCudaMemory(Napi::Env env, Napi::Object exports) {
  exports.Set("createDeviceBuffer", Napi::Function::New(env, CreateDeviceBuffer, "createDeviceBuffer"));
  exports.Set("createPinnedBuffer", Napi::Function::New(env, CreatePinnedBuffer, "createPinnedBuffer"));
  exports.Set("fillBytes", Napi::Function::New(env, FillBytes, "fillBytes"));
  exports.Set("copyBuffer", Napi::Function::New(env, CopyBuffer, "copyBuffer"));
}

}  // namespace gpulab
