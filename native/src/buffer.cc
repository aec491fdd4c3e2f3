#include "buffer.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <new>

#include "addon_data.h"
#include "errors.h"

namespace gpulab {

void BufferObject::Init(Napi::Env env, Napi::Object exports) {
  Napi::Function ctor = DefineClass(env, "NativeBuffer",
                                    {
                                        InstanceAccessor<&BufferObject::Dtype>("dtype"),
                                        InstanceAccessor<&BufferObject::Length>("length"),
                                        InstanceAccessor<&BufferObject::ByteLength>("byteLength"),
                                        InstanceAccessor<&BufferObject::LocationGetter>("location"),
                                        InstanceAccessor<&BufferObject::Device>("device"),
                                        InstanceAccessor<&BufferObject::Freed>("freed"),
                                        InstanceMethod<&BufferObject::Fill>("fill"),
                                        InstanceMethod<&BufferObject::FillAsync>("fillAsync"),
                                        InstanceMethod<&BufferObject::FillBytesAsync>("fillBytesAsync"),
                                        InstanceMethod<&BufferObject::Read>("read"),
                                        InstanceMethod<&BufferObject::ReadFloat64>("readFloat64"),
                                        InstanceMethod<&BufferObject::ReadFloat64At>("readFloat64At"),
                                        InstanceMethod<&BufferObject::Write>("write"),
                                        InstanceMethod<&BufferObject::Free>("free"),
                                    });
  GetAddonData(env).bufferConstructor = Napi::Persistent(ctor);
  exports.Set("NativeBuffer", ctor);
  exports.Set("createHostBuffer", Napi::Function::New(env, CreateHostBuffer, "createHostBuffer"));
}

BufferObject::BufferObject(const Napi::CallbackInfo& info) : Napi::ObjectWrap<BufferObject>(info) {
  // Only Wrap() constructs these, passing the storage through an External.
  if (info.Length() != 1 || !info[0].IsExternal()) {
    throw MakeError(info.Env(), "INVALID_ARGUMENT", "NativeBuffer cannot be constructed directly; use createHostBuffer");
  }
  storage_ = *info[0].As<Napi::External<StoragePtr>>().Data();
  dtype_ = storage_->dtype;
  length_ = storage_->length;
  location_ = storage_->location;
  device_ = storage_->device;
}

Napi::Object BufferObject::Wrap(Napi::Env env, StoragePtr storage) {
  // The External lives only for the constructor call, which copies the shared pointer.
  StoragePtr holder = std::move(storage);
  Napi::External<StoragePtr> ext = Napi::External<StoragePtr>::New(env, &holder);
  return GetAddonData(env).bufferConstructor.New({ext});
}

StoragePtr BufferObject::StorageOf(Napi::Value value, const std::string& name) {
  Napi::Env env = value.Env();
  if (!value.IsObject() || !value.As<Napi::Object>().InstanceOf(GetAddonData(env).bufferConstructor.Value())) {
    ThrowInvalid(name, "a buffer", value.IsNull() ? "null" : std::string("a value of type ") + (value.IsObject() ? "object" : value.IsNumber() ? "number" : value.IsString() ? "string" : "other"));
  }
  BufferObject* self = BufferObject::Unwrap(value.As<Napi::Object>());
  if (!self->storage_) throw NativeError("BUFFER_FREED", "The buffer passed as `" + name + "` was freed");
  return self->storage_;
}

const Storage& BufferObject::Live(const char* method) const {
  if (!storage_) throw NativeError("BUFFER_FREED", std::string("Cannot call ") + method + "() on a freed buffer");
  return *storage_;
}

Napi::Value BufferObject::Dtype(const Napi::CallbackInfo& info) { return Napi::String::New(info.Env(), DTypeName(dtype_)); }
Napi::Value BufferObject::Length(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(length_));
}
Napi::Value BufferObject::ByteLength(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(length_ * DTypeSize(dtype_)));
}
Napi::Value BufferObject::LocationGetter(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), LocationName(location_));
}
Napi::Value BufferObject::Device(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), device_); }
Napi::Value BufferObject::Freed(const Napi::CallbackInfo& info) { return Napi::Boolean::New(info.Env(), !storage_); }

namespace {
// Range arguments were validated by the facade; these checks only keep a direct caller from reading out of bounds.
void CheckRange(const Storage& s, double start, double count) {
  if (!(start >= 0) || !(count >= 0) || start + count > static_cast<double>(s.length) || std::floor(start) != start ||
      std::floor(count) != count) {
    throw NativeError("INVALID_ARGUMENT", "Expected a range within the buffer's " + std::to_string(s.length) +
                                              " elements but received start " + std::to_string(start) + ", count " +
                                              std::to_string(count));
  }
}
}  // namespace

namespace {
// Raw elements of `dtype` as float64 (fp16 and bf16 widened exactly).
Napi::Float64Array DecodeFloat64(Napi::Env env, DType dtype, const std::vector<unsigned char>& raw) {
  const size_t esize = DTypeSize(dtype), n = raw.size() / esize;
  Napi::Float64Array out = Napi::Float64Array::New(env, n);
  double* o = out.Data();
  for (size_t i = 0; i < n; ++i) {
    const unsigned char* p = raw.data() + i * esize;
    switch (dtype) {
      case DType::F64: { double v; std::memcpy(&v, p, 8); o[i] = v; break; }
      case DType::F32: { float v; std::memcpy(&v, p, 4); o[i] = v; break; }
      case DType::F16: { uint16_t v; std::memcpy(&v, p, 2); o[i] = HalfToFloat(v); break; }
      case DType::BF16: { uint16_t v; std::memcpy(&v, p, 2); o[i] = Bf16ToFloat(v); break; }
      case DType::I8: o[i] = static_cast<int8_t>(*p); break;
    }
  }
  return out;
}

// An index as a message shows it: a whole number without a fraction, anything else with all its digits.
std::string FormatNumber(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  char text[32];
  std::snprintf(text, sizeof text, std::floor(v) == v && std::fabs(v) < 1e17 ? "%.0f" : "%.17g", v);
  return text;
}
}  // namespace

void BufferObject::CopyOut(size_t byteOffset, void* dst, size_t bytes) const {
  const Storage& s = *storage_;
  if (s.location == Location::Device) {
    auto copy = deviceMemoryHooks().copyToHost;
    if (!copy) throw NativeError("CUDA_UNAVAILABLE", "This build has no CUDA support");
    copy(s, byteOffset, dst, bytes);
  } else {
    std::memcpy(dst, static_cast<const char*>(s.data) + byteOffset, bytes);
  }
}

Napi::Value BufferObject::Fill(const Napi::CallbackInfo& info) {
  return Guarded(info.Env(), [&]() -> Napi::Value {
    const Storage& s = Live("fill");
    const double seed = info[0].As<Napi::Number>().DoubleValue();
    const double low = info[1].As<Napi::Number>().DoubleValue();
    const double high = info[2].As<Napi::Number>().DoubleValue();
    if (s.location == Location::Device) {
      auto fill = deviceMemoryHooks().fillRandom;
      if (!fill) throw NativeError("CUDA_UNAVAILABLE", "This build has no CUDA support");
      fill(s, static_cast<uint64_t>(seed), low, high);
    } else {
      FillHostRandom(s, static_cast<uint64_t>(seed), low, high);
    }
    return info.Env().Undefined();
  });
}

namespace {
// Writes a host buffer off the JS thread: gigabytes of first-touched pages take seconds, during which the compute
// host must still answer its supervisor's heartbeats. The worker holds the storage, so a buffer freed meanwhile keeps
// its memory until the write ends; the promise settles on the JS thread.
class HostWriteWorker : public Napi::AsyncWorker {
 public:
  HostWriteWorker(Napi::Env env, StoragePtr storage, std::function<void(const Storage&)> write)
      : Napi::AsyncWorker(env, "gpulab.hostWrite"),
        deferred_(Napi::Promise::Deferred::New(env)),
        storage_(std::move(storage)),
        write_(std::move(write)) {}

  Napi::Promise Promise() const { return deferred_.Promise(); }

  void Execute() override {
    try {
      write_(*storage_);
    } catch (const NativeError& e) {
      code_ = e.code();
      SetError(e.what());
    } catch (const std::bad_alloc&) {
      code_ = "OUT_OF_HOST_MEMORY";
      SetError("Writing the buffer ran out of host memory");
    } catch (const std::exception& e) {
      SetError(e.what());
    }
    storage_.reset();
  }

  void OnOK() override { deferred_.Resolve(Env().Undefined()); }
  void OnError(const Napi::Error& e) override { deferred_.Reject(MakeError(Env(), code_, e.Message()).Value()); }

 private:
  Napi::Promise::Deferred deferred_;
  StoragePtr storage_;
  std::function<void(const Storage&)> write_;
  std::string code_ = "NATIVE_ERROR";
};

Napi::Value QueueHostWrite(Napi::Env env, StoragePtr storage, std::function<void(const Storage&)> write) {
  if (storage->location == Location::Device) {
    throw NativeError("INVALID_ARGUMENT", "Only host and pinned buffers are written off the JS thread; device memory is written by the GPU");
  }
  auto* worker = new HostWriteWorker(env, std::move(storage), std::move(write));
  Napi::Promise promise = worker->Promise();
  worker->Queue();
  return promise;
}
}  // namespace

// fillAsync(seed, low, high) -> Promise<void>: fill()'s values, written on a worker thread (host and pinned memory).
Napi::Value BufferObject::FillAsync(const Napi::CallbackInfo& info) {
  return Guarded(info.Env(), [&]() -> Napi::Value {
    Live("fillAsync");
    const auto seed = static_cast<uint64_t>(info[0].As<Napi::Number>().DoubleValue());
    const double low = info[1].As<Napi::Number>().DoubleValue();
    const double high = info[2].As<Napi::Number>().DoubleValue();
    return QueueHostWrite(info.Env(), storage_, [seed, low, high](const Storage& s) { FillHostRandom(s, seed, low, high); });
  });
}

// fillBytesAsync(byte) -> Promise<void>: every byte set to `byte` on a worker thread (host and pinned memory).
Napi::Value BufferObject::FillBytesAsync(const Napi::CallbackInfo& info) {
  return Guarded(info.Env(), [&]() -> Napi::Value {
    const Storage& live = Live("fillBytesAsync");
    const double byte = info[0].As<Napi::Number>().DoubleValue();
    if (!(byte >= 0 && byte <= 255) || std::floor(byte) != byte) ThrowInvalid("byte", "an integer from 0 to 255", std::to_string(byte));
    const size_t bytes = live.length * DTypeSize(live.dtype);
    const int value = static_cast<int>(byte);
    return QueueHostWrite(info.Env(), storage_, [bytes, value](const Storage& s) { std::memset(s.data, value, bytes); });
  });
}

Napi::Value BufferObject::Read(const Napi::CallbackInfo& info) {
  return Guarded(info.Env(), [&]() -> Napi::Value {
    const Storage& s = Live("read");
    const double start = info[0].As<Napi::Number>().DoubleValue();
    const double count = info[1].As<Napi::Number>().DoubleValue();
    CheckRange(s, start, count);
    const size_t n = static_cast<size_t>(count), esize = DTypeSize(s.dtype);
    Napi::ArrayBuffer ab = Napi::ArrayBuffer::New(info.Env(), n * esize);
    CopyOut(static_cast<size_t>(start) * esize, ab.Data(), n * esize);
    switch (s.dtype) {
      case DType::F64: return Napi::Float64Array::New(info.Env(), n, ab, 0);
      case DType::F32: return Napi::Float32Array::New(info.Env(), n, ab, 0);
      case DType::F16:
      case DType::BF16: return Napi::Uint16Array::New(info.Env(), n, ab, 0);
      case DType::I8: return Napi::Int8Array::New(info.Env(), n, ab, 0);
    }
    return info.Env().Undefined();
  });
}

Napi::Value BufferObject::ReadFloat64(const Napi::CallbackInfo& info) {
  return Guarded(info.Env(), [&]() -> Napi::Value {
    const Storage& s = Live("readFloat64");
    const double start = info[0].As<Napi::Number>().DoubleValue();
    const double count = info[1].As<Napi::Number>().DoubleValue();
    CheckRange(s, start, count);
    const size_t n = static_cast<size_t>(count), esize = DTypeSize(s.dtype);
    std::vector<unsigned char> raw(n * esize);
    CopyOut(static_cast<size_t>(start) * esize, raw.data(), raw.size());
    return DecodeFloat64(info.Env(), s.dtype, raw);
  });
}

// readFloat64At(indices: Float64Array) -> Float64Array: the elements at `indices` (any order, repeats allowed)
// decoded as readFloat64 decodes them. A device buffer's are gathered there and come back in one copy, where
// readFloat64 of each would be a synchronous copy apiece. Each index is checked against the length here too: one
// past the end would read another allocation's memory on the GPU.
Napi::Value BufferObject::ReadFloat64At(const Napi::CallbackInfo& info) {
  return Guarded(info.Env(), [&]() -> Napi::Value {
    const Storage& s = Live("readFloat64At");
    if (!info[0].IsTypedArray() || info[0].As<Napi::TypedArray>().TypedArrayType() != napi_float64_array) {
      ThrowInvalid("indices", "a Float64Array of element indices", "another value");
    }
    Napi::Float64Array given = info[0].As<Napi::Float64Array>();
    const size_t n = given.ElementLength();
    if (n > kMaxGatheredElements) {
      throw NativeError("SIZE_UNSUPPORTED", "Expected at most " + std::to_string(kMaxGatheredElements) +
                                                " indices for `indices` but received " + std::to_string(n));
    }
    std::vector<uint64_t> indices(n);
    for (size_t i = 0; i < n; ++i) {
      const double at = given[i];
      if (!(at >= 0) || !(at < static_cast<double>(s.length)) || std::floor(at) != at) {
        ThrowInvalid("indices[" + std::to_string(i) + "]",
                     "an element index from 0 to " + std::to_string(s.length - 1), FormatNumber(at));
      }
      indices[i] = static_cast<uint64_t>(at);
    }
    const size_t esize = DTypeSize(s.dtype);
    std::vector<unsigned char> raw(n * esize);
    if (s.location == Location::Device) {
      auto gather = deviceMemoryHooks().gatherToHost;
      if (!gather) throw NativeError("CUDA_UNAVAILABLE", "This build has no CUDA support");
      gather(s, indices.data(), n, raw.data());
    } else {
      for (size_t i = 0; i < n; ++i) std::memcpy(raw.data() + i * esize, static_cast<const char*>(s.data) + indices[i] * esize, esize);
    }
    return DecodeFloat64(info.Env(), s.dtype, raw);
  });
}

Napi::Value BufferObject::Write(const Napi::CallbackInfo& info) {
  return Guarded(info.Env(), [&]() -> Napi::Value {
    const Storage& s = Live("write");
    if (!info[0].IsTypedArray()) ThrowInvalid("data", "a typed array", "another value");
    Napi::TypedArray ta = info[0].As<Napi::TypedArray>();
    const double start = info[1].As<Napi::Number>().DoubleValue();
    const size_t esize = DTypeSize(s.dtype);
    if (ta.ElementSize() != esize) {
      throw NativeError("DTYPE_MISMATCH", "Expected a typed array of " + std::to_string(esize) + "-byte elements for a " +
                                              DTypeName(s.dtype) + " buffer but received " +
                                              std::to_string(ta.ElementSize()) + "-byte elements");
    }
    CheckRange(s, start, static_cast<double>(ta.ElementLength()));
    const void* src = static_cast<const char*>(ta.ArrayBuffer().Data()) + ta.ByteOffset();
    const size_t off = static_cast<size_t>(start) * esize, bytes = ta.ByteLength();
    if (s.location == Location::Device) {
      auto copy = deviceMemoryHooks().copyFromHost;
      if (!copy) throw NativeError("CUDA_UNAVAILABLE", "This build has no CUDA support");
      copy(s, off, src, bytes);
    } else {
      std::memcpy(static_cast<char*>(s.data) + off, src, bytes);
    }
    return info.Env().Undefined();
  });
}

Napi::Value BufferObject::Free(const Napi::CallbackInfo& info) {
  storage_.reset();
  return info.Env().Undefined();
}

DType DTypeArg(const Napi::Value& value) {
  if (!value.IsString()) ThrowInvalid("dtype", "one of fp64, fp32, fp16, bf16, int8", "a non-string");
  const std::string name = value.As<Napi::String>().Utf8Value();
  auto dtype = ParseDType(name);
  if (!dtype) throw NativeError("UNKNOWN_DTYPE", "Expected one of fp64, fp32, fp16, bf16, int8 for `dtype` but received \"" + name + "\"");
  return *dtype;
}

size_t LengthArg(const Napi::Value& value) {
  if (!value.IsNumber()) ThrowInvalid("length", "a positive integer", "a non-number");
  const double length = value.As<Napi::Number>().DoubleValue();
  if (!(length >= 1) || std::floor(length) != length || length > 9007199254740991.0) {
    ThrowInvalid("length", "a positive integer", std::to_string(length));
  }
  return static_cast<size_t>(length);
}

Napi::Value CreateHostBuffer(const Napi::CallbackInfo& info) {
  return Guarded(info.Env(), [&]() -> Napi::Value {
    const DType dtype = DTypeArg(info[0]);
    return BufferObject::Wrap(info.Env(), AllocateHost(dtype, LengthArg(info[1])));
  });
}

}  // namespace gpulab
