// CUDA operations for the timing harness. The CUDA half of the addon is not wired into the facade yet: every
// CUDA spec is refused with a clear error until it is.
import { GpuLabError } from '../main/common/errors.ts';
import type { RawSpec } from './addon.ts';

export interface CudaOpSpec {
  device: `cuda:${number}`;
  op: string;
}

export function cudaRawSpec(spec: CudaOpSpec, _warmup: number, _repeats: number): RawSpec {
  throw new GpuLabError('CUDA_UNAVAILABLE', `CUDA operations are not available in this build (asked for \`${spec.op}\` on ${spec.device})`);
}
