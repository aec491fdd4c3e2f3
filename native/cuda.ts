// The CUDA side of the facade: what devices there are (or why there are none), their telemetry, device and pinned
// buffers, and copies between buffers. Every function works in a build without CUDA and on a machine without a
// driver: devices() then says why, and the rest throw CUDA_UNAVAILABLE.
import type { CudaDeviceInfo, CudaInventory, LibraryStatus, Telemetry } from '../main/common/device-report.ts';
import type { DeviceList, DeviceSummary } from '../main/common/devices.ts';
import { libraryWhy, noCudaWhy } from '../main/common/pure/host-reasons.ts';
import { GpuLabError } from '../main/common/errors.ts';
import { loadAddon } from './addon.ts';
import type { DType, RawBuffer } from './addon.ts';
import { DTYPE_BYTES, ElementBuffer, checkDtype } from './buffers.ts';
import { cudaOrdinal } from './ops-cuda.ts';
import type { CudaDevice } from './ops-cuda.ts';
import { invalid, oneOf, positiveInteger } from './validate.ts';

interface RawCudaAddon {
  cudaDevices(): CudaInventory;
  // False once cuBLAS or NVRTC has been looked for.
  setCudaLibraryDirs(dirs: string[]): boolean;
  cudaTelemetry(ordinal: number): Telemetry;
  // 0 where there is no driver or no device.
  cudaDeviceCount(): number;
  createDeviceBuffer(dtype: DType, length: number, ordinal: number): RawBuffer;
  createPinnedBuffer(dtype: DType, length: number): RawBuffer;
  copyBuffer(dst: RawBuffer, src: RawBuffer, async: boolean): Promise<void>;
  fillBytes(buffer: RawBuffer, byte: number): void;
}

function cudaAddon(): RawCudaAddon | null {
  const addon = loadAddon();
  return addon.buildInfo().cuda ? (addon as unknown as RawCudaAddon) : null;
}

function requireCuda(what: string): RawCudaAddon {
  const cuda = cudaAddon();
  if (!cuda) {
    const reason = loadAddon().buildInfo().cudaReason ?? 'built without CUDA';
    throw new GpuLabError('CUDA_UNAVAILABLE', `Cannot ${what}: this addon was ${reason.startsWith('built') ? reason : `built without CUDA (${reason})`}`);
  }
  return cuda;
}

const MISSING: LibraryStatus = { found: false, soname: null, path: null, version: null, reason: 'built without CUDA', searched: [] };

// Everything about the CUDA side: versions, libraries, one entry per device. Never throws for a missing driver or
// device: `available` is false and `reason` says why.
export function cudaInventory(): CudaInventory {
  const cuda = cudaAddon();
  if (!cuda) {
    const reason = `built without CUDA: ${loadAddon().buildInfo().cudaReason ?? 'nvcc was not found'}`;
    return withWhy({ available: false, reason, runtimeVersion: null, driverCudaVersion: null, driverVersion: null, libraries: { cublas: MISSING, nvrtc: MISSING, nvml: MISSING }, devices: [] });
  }
  return withWhy(cuda.cudaDevices());
}

// The addon's reasons, said again as messages for readers of other languages (main/common/pure/host-reasons.ts).
function libraryWithWhy(lib: LibraryStatus): LibraryStatus {
  const said = lib.found || lib.reason === null ? null : libraryWhy(lib.reason);
  return { ...lib, why: said?.why ?? null, detail: said?.detail ?? null };
}

function withWhy(inv: CudaInventory): CudaInventory {
  const { cublas, nvrtc, nvml } = inv.libraries;
  return {
    ...inv,
    why: inv.available || inv.reason === null ? null : noCudaWhy(inv.reason),
    libraries: { cublas: libraryWithWhy(cublas), nvrtc: libraryWithWhy(nvrtc), nvml: libraryWithWhy(nvml) },
  };
}

// The folders, in order, to look for cuBLAS and NVRTC in when the loader's path has neither (instead of
// /usr/local/cuda/lib64 alone): main/host/cuda-library-dirs.ts finds them. Each library is opened once per process,
// so this must come first: afterwards it is NATIVE_ERROR. Nothing to do in a build without CUDA.
export function searchCudaLibrariesIn(dirs: readonly string[]): void {
  if (!Array.isArray(dirs)) throw invalid('dirs', 'an array of absolute folder paths', dirs);
  dirs.forEach((dir: unknown, i) => {
    if (typeof dir !== 'string' || !dir.startsWith('/') || dir.includes('\0')) throw invalid(`dirs[${i}]`, 'an absolute folder path', dir);
  });
  const cuda = cudaAddon();
  if (cuda && !cuda.setCudaLibraryDirs([...dirs])) {
    throw new GpuLabError('NATIVE_ERROR', 'The folders to look for cuBLAS and NVRTC in came after one of them was looked for: give them before the first library is opened');
  }
}

function cpuSummary(): DeviceSummary {
  const cpu = loadAddon().cpuInfo();
  return {
    id: 'cpu',
    kind: 'cpu',
    name: cpu.model,
    // The addon does not read the CPU clock, so there is no honest theoretical peak to divide by.
    peakGflopsFp32: null,
    peakGflopsFp64: null,
    peakMemoryGBps: null,
    memoryBytes: cpu.memoryTotalBytes,
    details: { logicalCores: cpu.logicalCores, physicalCores: cpu.physicalCores, simd: cpu.simd.join(' '), l2CacheBytes: cpu.l2CacheBytes, l3CacheBytes: cpu.l3CacheBytes },
  };
}

function cudaSummary(d: CudaDeviceInfo, inv: CudaInventory): DeviceSummary {
  const { peaks, pcie } = d;
  return {
    id: d.id,
    kind: 'cuda',
    name: d.name,
    peakGflopsFp32: peaks.fp32Gflops.value,
    peakGflopsFp64: peaks.fp64Gflops.value,
    peakMemoryGBps: peaks.memoryBandwidthGBs.value,
    memoryBytes: d.memoryTotalBytes,
    details: {
      uuid: d.uuid,
      computeCapability: d.computeCapability,
      multiprocessors: d.multiprocessors,
      smClockMHz: d.smClockMHz,
      maxSmClockMHz: d.maxSmClockMHz,
      memoryClockMHz: d.memoryClockMHz,
      memoryBusWidthBits: d.memoryBusWidthBits,
      memoryFreeBytes: d.memoryFreeBytes,
      l2CacheBytes: d.l2CacheBytes,
      sharedMemoryPerBlockBytes: d.sharedMemoryPerBlockBytes,
      sharedMemoryPerBlockOptinBytes: d.sharedMemoryPerBlockOptinBytes,
      sharedMemoryPerMultiprocessorBytes: d.sharedMemoryPerMultiprocessorBytes,
      copyEngines: d.copyEngines,
      concurrentCopyAndExecution: d.concurrentCopyAndExecution,
      concurrentKernels: d.concurrentKernels,
      eccEnabled: d.eccEnabled,
      pciBusId: d.pciBusId,
      pcieCurrent: pcie.currentGeneration === null ? null : `gen ${pcie.currentGeneration} x${pcie.currentWidth ?? '?'}`,
      pcieMax: pcie.maxGeneration === null ? null : `gen ${pcie.maxGeneration} x${pcie.maxWidth ?? '?'}`,
      peakPcieGBps: peaks.pcieGBs.value,
      peakMemoryFormula: peaks.memoryBandwidthGBs.formula,
      peakFp32Formula: peaks.fp32Gflops.formula,
      peakFp64Formula: peaks.fp64Gflops.formula,
      peakPcieFormula: peaks.pcieGBs.formula,
      powerLimitW: d.powerLimitW,
      driverVersion: inv.driverVersion,
      driverCudaVersion: inv.driverCudaVersion,
      runtimeVersion: inv.runtimeVersion,
      cublas: describeLibrary(inv.libraries.cublas),
      nvrtc: describeLibrary(inv.libraries.nvrtc),
      nvml: describeLibrary(inv.libraries.nvml),
    },
  };
}

export function describeLibrary(lib: LibraryStatus): string {
  return lib.found ? `${lib.version ?? '?'} (${lib.path ?? lib.soname ?? '?'})` : `not found: ${lib.reason ?? 'unknown'}`;
}

// The devices a lab can run on: the CPU first, then one entry per CUDA device; `cudaReason` says why there is
// none. The shape of main/common/devices.ts, as the device inspector shows it.
export function devices(): DeviceList {
  const addon = loadAddon();
  const blas = addon.blasInfo();
  const blasText = blas.available ? `${blas.name ?? 'BLAS'} (${blas.library ?? '?'})` : `built-in blocked GEMM (no system BLAS: ${blas.reason ?? 'not found'})`;
  const inv = cudaInventory();
  return { devices: [cpuSummary(), ...inv.devices.map((d) => cudaSummary(d, inv))], cudaReason: inv.available ? null : inv.reason, cudaWhy: inv.available ? null : (inv.why ?? null), blas: blasText };
}

// One reading of the device's clocks, temperature, power and throttle reasons. A device past the ones this machine
// has is INVALID_ARGUMENT; no CUDA device at all gives a reading with available: false and the reason.
export function telemetry(device: CudaDevice): Telemetry {
  const ordinal = cudaOrdinal(device);
  const cuda = requireCuda('read telemetry');
  const count = cuda.cudaDeviceCount();
  if (count > 0 && ordinal >= count) throw invalid('device', `a CUDA device from cuda:0 to cuda:${count - 1}`, device);
  return cuda.cudaTelemetry(ordinal);
}

// An uninitialised device buffer on `device`. Fails with CUDA_ERROR_OUT_OF_MEMORY (bytes asked for, bytes free)
// when the device cannot hold it; the process keeps working.
export function createDeviceBuffer<D extends DType>(dtype: D, length: number, device: CudaDevice = 'cuda:0'): ElementBuffer<D> {
  checkDtype('dtype', dtype);
  positiveInteger('length', length, Math.floor(Number.MAX_SAFE_INTEGER / DTYPE_BYTES[dtype]));
  const ordinal = cudaOrdinal(device);
  return new ElementBuffer<D>(requireCuda('allocate device memory').createDeviceBuffer(dtype, length, ordinal));
}

// Page-locked host memory: copies to and from it run at the link's speed and can be asynchronous.
export function createPinnedBuffer<D extends DType>(dtype: D, length: number): ElementBuffer<D> {
  checkDtype('dtype', dtype);
  positiveInteger('length', length, Math.floor(Number.MAX_SAFE_INTEGER / DTYPE_BYTES[dtype]));
  return new ElementBuffer<D>(requireCuda('allocate pinned memory').createPinnedBuffer(dtype, length));
}

export interface CopyOptions {
  // sync: cudaMemcpy; async: cudaMemcpyAsync on a stream, then waiting for that stream. Default sync.
  mode?: 'sync' | 'async';
}

// Copies all of `src` into `dst` (same byte length), in any direction, off the JS thread.
export async function copyBuffer(dst: ElementBuffer, src: ElementBuffer, options: CopyOptions = {}): Promise<void> {
  const mode = oneOf('mode', options.mode ?? 'sync', ['sync', 'async'] as const);
  if (!(dst instanceof ElementBuffer)) throw invalid('dst', 'a buffer', dst);
  if (!(src instanceof ElementBuffer)) throw invalid('src', 'a buffer', src);
  if (dst.byteLength !== src.byteLength) {
    throw new GpuLabError('LENGTH_MISMATCH', `Expected \`dst\` to hold the ${src.byteLength} bytes of \`src\` but it holds ${dst.byteLength}`, { argument: 'dst' });
  }
  const cuda = requireCuda('copy buffers');
  try {
    await cuda.copyBuffer(dst.live('dst'), src.live('src'), mode === 'async');
  } catch (err) {
    throw GpuLabError.from(err);
  }
}

// poison()'s bytes, written off the JS thread where the buffer is in host memory (see fillRandomAsync); device
// memory is set by the GPU.
export async function poisonAsync(buffer: ElementBuffer): Promise<void> {
  if (!(buffer instanceof ElementBuffer)) throw invalid('buffer', 'a buffer', buffer);
  if (buffer.location === 'device') return poison(buffer);
  try {
    await buffer.live('buffer').fillBytesAsync(0xff);
  } catch (err) {
    throw GpuLabError.from(err);
  }
}

// Sets every byte of the buffer to 0xFF, which is a NaN in fp64, fp32, fp16 and bf16 (and −1 in int8): outputs are
// poisoned before a run so that an element the kernel never wrote cannot pass verification.
export function poison(buffer: ElementBuffer): void {
  fillEveryByte(buffer, 0xff);
}

// Sets every byte of the buffer to 0. The playground's buffers start so: a student's kernel must not read what an
// earlier run (another student's, on a class's server) left in the device memory it is given.
export function zeroFill(buffer: ElementBuffer): void {
  fillEveryByte(buffer, 0);
}

function fillEveryByte(buffer: ElementBuffer, byte: number): void {
  if (!(buffer instanceof ElementBuffer)) throw invalid('buffer', 'a buffer', buffer);
  const raw = buffer.live('buffer');
  const cuda = cudaAddon();
  if (cuda) {
    cuda.fillBytes(raw, byte);
    return;
  }
  if (buffer.location === 'device') throw new GpuLabError('CUDA_UNAVAILABLE', 'A device buffer cannot exist in a build without CUDA');
  const bytes = new Uint8Array(buffer.byteLength).fill(byte);
  switch (buffer.dtype) {
    case 'fp64': buffer.write(new Float64Array(bytes.buffer)); break;
    case 'fp32': buffer.write(new Float32Array(bytes.buffer)); break;
    case 'int8': buffer.write(new Int8Array(bytes.buffer)); break;
    default: buffer.write(new Uint16Array(bytes.buffer));
  }
}
