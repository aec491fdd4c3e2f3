// The empty operation: what the harness and a launch cost with no work, on the CPU (a call) or a GPU (an empty
// kernel, under each of the three clocks). Nothing to verify.
import type { Measurement, MeasurementResult } from '../../common/measurement.ts';
import type { MeasurementBackend } from './backend.ts';

export function measureEmpty(_m: Extract<Measurement, { op: 'empty' }>, backend: MeasurementBackend): Promise<MeasurementResult> {
  return backend.run({ op: 'empty' }, () => null);
}
