// The device inspector's data in one call, for callers that must not load the addon themselves (the CLI): the
// device list of main/common/devices.ts, the CUDA inventory behind it (versions, libraries, peaks with their
// formulas) and one telemetry reading per CUDA device.
import type { DeviceList } from '../common/devices.ts';
import { cudaInventory, devices, telemetry } from '../../native/index.ts';
import type { CudaInventory, Telemetry } from '../../native/index.ts';

export type { CudaInventory, CudaDeviceInfo, LibraryStatus, Telemetry } from '../../native/index.ts';

export interface DeviceReport {
  list: DeviceList;
  cuda: CudaInventory;
  telemetry: Telemetry[];
}

export function deviceReport(): DeviceReport {
  const cuda = cudaInventory();
  return { list: devices(), cuda, telemetry: cuda.devices.map((d) => telemetry(d.id)) };
}
