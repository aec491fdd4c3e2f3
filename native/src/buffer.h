// The JS object behind every buffer: host (pageable), pinned host, or device memory of one dtype.
// Created by createHostBuffer here and by the CUDA module for pinned and device memory.
#pragma once
#include <napi.h>

#include "storage.h"

namespace gpulab {

class BufferObject : public Napi::ObjectWrap<BufferObject> {
 public:
  static void Init(Napi::Env env, Napi::Object exports);
  // Wraps storage in a new JS buffer object.
  static Napi::Object Wrap(Napi::Env env, StoragePtr storage);
  // The storage behind a JS value, or a NativeError naming `name`: INVALID_ARGUMENT when it is not a buffer,
  // BUFFER_FREED when free() was called on it.
  static StoragePtr StorageOf(Napi::Value value, const std::string& name);

  explicit BufferObject(const Napi::CallbackInfo& info);

 private:
  Napi::Value Dtype(const Napi::CallbackInfo& info);
  Napi::Value Length(const Napi::CallbackInfo& info);
  Napi::Value ByteLength(const Napi::CallbackInfo& info);
  Napi::Value LocationGetter(const Napi::CallbackInfo& info);
  Napi::Value Device(const Napi::CallbackInfo& info);
  Napi::Value Freed(const Napi::CallbackInfo& info);
  Napi::Value Fill(const Napi::CallbackInfo& info);
  Napi::Value FillAsync(const Napi::CallbackInfo& info);
  Napi::Value FillBytesAsync(const Napi::CallbackInfo& info);
  Napi::Value Read(const Napi::CallbackInfo& info);
  Napi::Value ReadFloat64(const Napi::CallbackInfo& info);
  Napi::Value ReadFloat64At(const Napi::CallbackInfo& info);
  Napi::Value Write(const Napi::CallbackInfo& info);
  Napi::Value Free(const Napi::CallbackInfo& info);

  const Storage& Live(const char* method) const;
  void CopyOut(size_t byteOffset, void* dst, size_t bytes) const;

  StoragePtr storage_;
  // Kept after free() so that the getters still describe what the buffer was.
  DType dtype_ = DType::F32;
  size_t length_ = 0;
  Location location_ = Location::Host;
  int device_ = -1;
};

// The most indices one readFloat64At() call takes: 8 MiB of them, and the elements they gather, on the device and here.
constexpr size_t kMaxGatheredElements = size_t{1} << 20;

// createHostBuffer(dtype: string, length: number) -> buffer object
Napi::Value CreateHostBuffer(const Napi::CallbackInfo& info);

// The `dtype` and `length` arguments of every buffer-creating function, or a NativeError naming them.
DType DTypeArg(const Napi::Value& value);
size_t LengthArg(const Napi::Value& value);

}  // namespace gpulab
