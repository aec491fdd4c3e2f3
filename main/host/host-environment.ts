// What the compute host can run on, described for the device inspector and stored with every run: the CPU, the
// CUDA devices (or why there are none), the WebGPU adapters (or why there are none), and the versions of everything that produces numbers.
import type { DeviceList } from '../common/devices.ts';
import { buildInfo, cudaInventory, describeLibrary, devices } from '../../native/index.ts';
import { withCpuPeaks } from './cpu-peaks.ts';
import { withCpuBandwidth } from './cpu-bandwidth.ts';
import { withBlas } from './blas-host.ts';
import { webgpuVersion, withWebgpu } from './webgpu/listing.ts';

export interface EnvironmentSnapshot {
  devices: DeviceList;
  versions: Record<string, string>;
  pid: number;
}

// `turn`: the host's queue, in which the CPU's bandwidth is measured the first time.
export async function environmentSnapshot(turn: <T>(work: () => Promise<T>) => Promise<T>): Promise<EnvironmentSnapshot> {
  const build = buildInfo();
  const list = await withWebgpu(await withBlas(await withCpuBandwidth(withCpuPeaks(devices()), turn), turn));
  const cuda = cudaInventory();
  const versions: Record<string, string> = {
    node: process.versions.node,
    napi: String(build.napiVersion),
    compiler: build.compiler,
    cudaBuild: build.cuda ? 'yes' : `no (${build.cudaReason ?? 'built without CUDA'})`,
    blas: list.blas,
    platform: `${process.platform}-${process.arch}`,
    webgpu: await webgpuVersion(),
  };
  if (cuda.runtimeVersion) versions.cudaRuntime = cuda.runtimeVersion;
  if (cuda.driverVersion) versions.nvidiaDriver = cuda.driverVersion;
  if (cuda.driverCudaVersion) versions.driverCuda = cuda.driverCudaVersion;
  if (build.cuda) {
    versions.cublas = describeLibrary(cuda.libraries.cublas);
    versions.nvrtc = describeLibrary(cuda.libraries.nvrtc);
    versions.nvml = describeLibrary(cuda.libraries.nvml);
  }
  return { devices: list, versions, pid: process.pid };
}
