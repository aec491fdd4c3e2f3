// The device inspector's data in one call: the device list of main/common/devices.ts (WebGPU adapters included), the CUDA inventory behind it
// (versions, libraries, peaks with their formulas) and one telemetry reading per CUDA device. Called by the compute
// host for the app, and by the CLI's batch commands.
import type { DeviceReport, Telemetry } from '../common/device-report.ts';
import { GpuLabError } from '../common/errors.ts';
import { cudaInventory, devices, telemetry } from '../../native/index.ts';
import { withCpuPeaks } from './cpu-peaks.ts';
import { withCpuBandwidth } from './cpu-bandwidth.ts';
import { withBlas } from './blas-host.ts';
import { withWebgpu } from './webgpu/listing.ts';

export type { CudaInventory, CudaDeviceInfo, DeviceReport, LibraryStatus, Telemetry } from '../common/device-report.ts';

// `turn`: the host's queue, in which the CPU's bandwidth is measured the first time.
export async function deviceReport(turn: <T>(work: () => Promise<T>) => Promise<T>): Promise<DeviceReport> {
  const cuda = cudaInventory();
  return { list: await withWebgpu(await withBlas(await withCpuBandwidth(withCpuPeaks(devices()), turn), turn)), cuda, telemetry: cuda.devices.map((d) => telemetry(d.id)) };
}

// One reading of a CUDA device, or INVALID_ARGUMENT naming the device and the ones there are.
export function deviceTelemetry(device: string): Telemetry {
  const ids = cudaInventory().devices.map((d) => d.id);
  const id = ids.find((d) => d === device);
  if (!id) {
    throw new GpuLabError('INVALID_ARGUMENT', `Telemetry of "${device}" is not available: this machine's CUDA devices are ${ids.length ? ids.join(', ') : 'none'}`, {
      parameter: 'device',
      value: device,
      available: ids,
    });
  }
  return telemetry(id);
}
