// The typed facade of the native addon: every argument is checked here, with an error naming it, before C++ sees it.
import { loadAddon, recordedBuildReason } from './addon.ts';
import type { RawBlasInfo, RawCpuInfo } from './addon.ts';
import { invalid } from './validate.ts';

export type { DType, Location } from './addon.ts';
export { ElementBuffer, createHostBuffer, DTYPES, DTYPE_BYTES, MAX_GATHERED_ELEMENTS, checkDtype } from './buffers.ts';
export type { FillRange, TypedArrayOf } from './buffers.ts';
export { benchmark, MAX_REPEATS } from './benchmark.ts';
export type { BenchmarkOptions, BenchmarkProgress, BenchmarkResult, OpSpec } from './benchmark.ts';
export type { CpuOpSpec, CpuLoopVariant, CpuGemmVariant } from './ops-cpu.ts';
export type { CudaOpSpec, CudaDevice, CudaVectorFunctionVariant } from './ops-cuda.ts';
// The measurement vocabulary, whose words the specs above take unchanged.
export type { Clock, CopyMode, DataPath, GemmDtype } from '../main/common/measurement.ts';
export { cudaInventory, devices, telemetry, searchCudaLibrariesIn, createDeviceBuffer, createPinnedBuffer, copyBuffer, poison, poisonAsync, zeroFill, describeLibrary } from './cuda.ts';
export type { CudaInventory, CudaDeviceInfo, Telemetry, LibraryStatus, Peak } from '../main/common/device-report.ts';
export type { CopyOptions } from './cuda.ts';
export { nvrtcInfo, compileKernel, loadKernel, LoadedKernel } from './kernel-playground.ts';
export type { NvrtcInfo, CompiledKernel, CompileOptions, KernelAttributes, Occupancy, KernelArg, LaunchOptions, LaunchResult } from './kernel-playground.ts';
export { relativeError, verify, gemmTolerance, ELEMENTWISE_TOLERANCE } from './verification.ts';
export type { VerificationResult } from './verification.ts';

export type CpuInfo = RawCpuInfo;
export type BlasInfo = RawBlasInfo;

export interface BuildInfo {
  cuda: boolean;
  // Why CUDA is missing from this build, when it is.
  cudaReason: string | null;
  napiVersion: number;
  compiler: string;
}

export function cpuInfo(): CpuInfo {
  return loadAddon().cpuInfo();
}

// The system's BLAS, from the loader's path: what a GEMM without a `library` runs on.
export function blasInfo(): BlasInfo {
  return loadAddon().blasInfo();
}

// Opens the BLAS at `path` (a file, or a soname the loader finds), once per process; `origin` says where it came from
// and is reported with it. A file that does not open, or has no CBLAS GEMMs, is answered with available false and
// the reason, never an error.
export function openBlas(path: string, origin: string): BlasInfo {
  if (typeof path !== 'string' || path.length === 0 || path.includes('\0')) throw invalid('path', 'a library file or soname', path);
  if (typeof origin !== 'string' || !/^[\w.-]{1,40}$/.test(origin)) throw invalid('origin', 'a word of letters, digits, ".", "_" or "-"', origin);
  return loadAddon().blasOpen(path, origin);
}

export function buildInfo(): BuildInfo {
  const info = loadAddon().buildInfo();
  return info.cuda ? info : { ...info, cudaReason: `built without CUDA: ${recordedBuildReason() ?? 'nvcc was not found'}` };
}
