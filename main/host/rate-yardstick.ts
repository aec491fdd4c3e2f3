// The yardstick of a kernel run's rate: DRAM bandwidth for a memory-bound exercise, but none where its working set
// fits in L2 (the reduction's default 2²³ floats, 32 MiB, on an H100's 50 MiB): the timed launches after the first
// read it from L2, and a share of DRAM bandwidth would pass 100 %. Then the run records the two sizes, so that every
// place that shows the rate can say why it has no share of peak. FLOP/s against the FMA lanes of its type.
import type { DeviceSummary } from '../common/devices.ts';
import type { ExerciseDefinition } from '../common/exercises.ts';
import { fitsInL2 } from '../common/pure/gpu-peaks.ts';
import type { KernelRunResult } from '../common/playground.ts';

export interface RateYardstick {
  peak: KernelRunResult['peak'];
  l2: KernelRunResult['l2'];
}

export function rateYardstick(exercise: Pick<ExerciseDefinition, 'metric' | 'elementType' | 'work'>, size: number, device: DeviceSummary): RateYardstick {
  const workingSetBytes = exercise.work(size);
  const l2Bytes = device.details.l2CacheBytes;
  if (exercise.metric === 'GB/s' && typeof l2Bytes === 'number' && fitsInL2(workingSetBytes, device.details)) {
    return { peak: null, l2: { workingSetBytes, l2Bytes } };
  }
  const value = exercise.metric === 'GB/s' ? device.peakMemoryGBps : exercise.elementType === 'fp64' ? device.peakGflopsFp64 : device.peakGflopsFp32;
  return { peak: value ? { value, unit: exercise.metric } : null, l2: undefined };
}
