// The CUDA side of `gpu-lab bench`, written with the CUDA half of the addon.
import { GpuLabError } from '../common/errors.ts';
import type { BenchRecord } from './bench-types.ts';

export interface CudaBenchOptions {
  scale?: number;
  signal?: AbortSignal;
  onRecord?: (record: BenchRecord) => void;
}

export async function runCudaBench(device: string, _options: CudaBenchOptions = {}): Promise<BenchRecord[]> {
  throw new GpuLabError('CUDA_UNAVAILABLE', `No CUDA workloads in this build (asked for ${device})`);
}
