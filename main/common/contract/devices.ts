// The devices service: what the device inspector and the lab form show about this machine's CPU and GPUs.
import { z } from 'zod';

import { DEVICE_REPORT, TELEMETRY } from '../device-report.ts';
import { DEVICE_LIST } from '../devices.ts';
import { PEERS_REPORT } from '../peer-protocol.ts';
import { arg, method, service } from './spec.ts';
import type { ServiceOf } from './spec.ts';

const CUDA_DEVICE = z.string().regex(/^cuda:\d{1,2}$/, 'a CUDA device id ("cuda:N")');

export const DEVICES_CONTRACT = service({
  listDevices: method([], DEVICE_LIST),
  // Everything `gpu-lab devices` shows: the list, the CUDA inventory (versions, libraries, attributes, peaks with
  // their formulas) and a telemetry reading per CUDA device.
  inspectDevices: method([], DEVICE_REPORT),
  // One NVML reading of a CUDA device ("cuda:0"), for the inspector's live panel; `available` is false without NVML.
  readTelemetry: method([arg('device', CUDA_DEVICE, 'a CUDA device id such as "cuda:0"')], TELEMETRY),
  // What `gpu-lab peers` says: the Python interpreter the labs' peer series use and what it offers. It takes no
  // argument: the interpreter is the machine's setting (GPU_LAB_PYTHON), never a caller's.
  inspectPython: method([], PEERS_REPORT),
});

export type DevicesService = ServiceOf<typeof DEVICES_CONTRACT>;
