// Why a point has no time, as a run records it (a point's `why`): its GPU series waived, or the run stopped before it.
// {detail} is what the CUDA driver or the build said.
export const reasons = {
  noDriver: 'no CUDA device: no NVIDIA driver is installed ({library} was not found)',
  noneFound: 'no CUDA device: the driver found none',
  cudaError: 'no CUDA device: the CUDA runtime answered {code}',
  noNvcc: 'built without CUDA: nvcc was not found',
  noCuda: 'no CUDA device: {detail}',
  builtWithoutCuda: 'built without CUDA: {detail}',
  cpuOnly: 'the run was started on the CPU only (device "cpu")',
  notADevice: '{device} is not a device of this machine (it has {devices})',
  cancelled: 'the run was cancelled before this point',
  failedBefore: 'the run failed before this point: {code}',
  // A Python peer's series waived ({detail}: what the interpreter or the library said, in its own words).
  peersNotAsked: 'the Python peers were not asked about',
  noPeers: 'no Python peers: {detail}',
  peerNotProbed: '{library} was not probed',
  peerMissing: '{library} for {interpreter}: {detail}',
  peerNotInstalled: '{library} is not installed for {interpreter} ({detail})',
  peerImportFailed: '{interpreter} cannot import {library}: {detail}',
  peerNoCuda: '{library} {version} has no working CUDA here',
  peerNoCudaWhy: '{library} {version} has no working CUDA here: {detail}',
  int8Shape: 'torch._int_mm multiplies only matrices of more than 16 rows whose columns are a multiple of 8, and N = {n} is not',
  // A WebGPU adapter's series ({detail}: what Dawn said, in its own words).
  noWebgpu: 'no WebGPU adapter: {detail}',
  webgpuOff: 'WebGPU is turned off ({env}=off)',
  webgpuNoBindings: "Dawn's Node bindings (npm webgpu) did not load: {detail}",
  webgpuPeer: 'the course’s {library} code runs on CUDA, not on WebGPU',
  webgpuNotYet: 'GPU Lab does not yet run the {op} operation on WebGPU',
  webgpuNoF64: 'WGSL has no 64-bit float type: on WebGPU this runs in float32',
  webgpuNoCublas: 'cuBLAS is NVIDIA’s library for CUDA: WebGPU has none, and runs GPU Lab’s own WGSL kernels instead',
  webgpuNoDtype: 'WGSL has no {dtype} arithmetic: on WebGPU the matrix product runs in f32, and in f16 where the adapter allows',
  webgpuNoF16: 'this adapter lacks WebGPU’s shader-f16 feature, which WGSL’s f16 needs',
  webgpuNoPinned: 'WebGPU has no pinned (page-locked) host memory: a program hands it ordinary memory, or maps a buffer WebGPU allocates',
  // {limit}: the adapter's limit by its WebGPU name; {most}: its value.
  webgpuOverLimit: 'a copy of {size} needs a buffer larger than this adapter’s {limit} ({most})',
  webgpuNoTimestamps: 'this adapter has no timestamp queries (WebGPU’s timestamp-query feature)',
  webgpuWords: 'WebGPU copies whole 4-byte words, and {bytes} bytes are not a multiple of 4',
  // The text-to-image lab (main/labs/text-to-image.ts): its workload is PyTorch's (and transformers' for the text).
  textToImageNotAsked: 'the run did not ask for {library}, which this lab’s network runs in',
  textToImageCpuBatch: 'the CPU’s series stop at batch {max} (cpuMaxBatch): a batch of {batch} is left out',
  textToImageCpuDtype: '{dtype} is not among the CPU’s types (cpuDtypes)',
  // A CUDA library the loader could not open ({tried}: the names tried), in the words of native/cuda/dynlib.cu.
  libraryNotOpened: 'none of {tried} could be opened',
  libraryNotOpenedOthers: 'none of {tried} could be opened from the loader’s path or {count} other folder | none of {tried} could be opened from the loader’s path or {count} other folders',
  libraryNoCudaBuild: 'GPU Lab was built without CUDA',
  // The kernel playground's compiler, missing ({why}: why the loader could not open it).
  nvrtcMissing: 'NVRTC, the CUDA run-time compiler, was not found: {why}',
  // Why the CPU has no estimated FLOP peak (common/cpu-peaks.ts).
  cpuPeakNoFma: 'the FMA units of this CPU ({vendor} family {family} model {model}) are not in the table',
  cpuPeakNoClock: 'neither cpufreq nor the model name gives the maximum clock',
  cpuPeakNoCores: 'the number of cores is not known',
  cpuPeakNoCpuinfo: '/proc/cpuinfo is not readable',
};
