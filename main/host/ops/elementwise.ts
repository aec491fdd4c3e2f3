// add, mul and exp over fp32 vectors: the CPU's loop on one thread or on all, or the GPU's kernel, resident or with
// the copies timed. Inputs uniform in [-1, 1) (exp over [-4, 4), far from overflow); the float64 reference of each
// element is the operation on its inputs' values.
import type { Measurement, MeasurementResult } from '../../common/measurement.ts';
import type { MeasurementBackend } from './backend.ts';
import { unsupported } from './backend.ts';
import type { WebGpuBackend } from '../webgpu/backend.ts';
import { boundIn } from '../webgpu/backend.ts';
import { ELEMENTWISE_TOLERANCE, verifyElementwise } from '../verify.ts';

type Elementwise = Extract<Measurement, { op: 'add' | 'mul' | 'exp' }>;

export const ELEMENTWISE_REFERENCE: Record<Elementwise['op'], (values: number[]) => number> = {
  add: ([p = Number.NaN, q = Number.NaN]) => p + q,
  mul: ([p = Number.NaN, q = Number.NaN]) => p * q,
  exp: ([v = Number.NaN]) => Math.exp(v),
};

const rangeOf = (op: Elementwise['op']): { low: number; high: number } => (op === 'exp' ? { low: -4, high: 4 } : { low: -1, high: 1 });

// On WebGPU: shaders/wgsl/elementwise.wgsl, its entry point named by the op (exp_kernel: `exp` is WGSL's own).
function measureOnWebgpu(m: Elementwise, backend: WebGpuBackend): Promise<MeasurementResult> {
  if (m.variant !== 'kernel') throw unsupported(`the CPU's ${m.variant} loop`, backend.device);
  const x = backend.input(m.elements, 0, rangeOf(m.op));
  const inputs = m.op === 'exp' ? [x] : [x, backend.input(m.elements, 1, rangeOf(m.op))];
  const out = backend.output(m.elements);
  const arrays = m.op === 'exp' ? { 0: x.buffer, 2: out.buffer } : { 0: x.buffer, 1: inputs[1]?.buffer ?? x.buffer, 2: out.buffer };
  const verify = (): ReturnType<typeof verifyElementwise> => verifyElementwise(out, inputs, ELEMENTWISE_REFERENCE[m.op], ELEMENTWISE_TOLERANCE.fp32);
  const { dispatches, pieces } = backend.elementwise(m.elements, [{ entry: m.op === 'exp' ? 'exp_kernel' : m.op, arrays }]);
  return backend.run({ shader: 'elementwise', dispatches, workgroupSize: backend.gpu.workgroupSize, inputs, output: out, detail: boundIn(pieces) }, verify);
}

export function measureElementwise(m: Elementwise, backend: MeasurementBackend | WebGpuBackend): Promise<MeasurementResult> {
  if (backend.kind === 'webgpu') return measureOnWebgpu(m, backend);
  const cpu = backend.kind === 'cpu';
  if (cpu && m.variant === 'kernel') throw unsupported('GPU kernels', backend.device);
  if (!cpu && m.variant !== 'kernel') throw unsupported(`the CPU's ${m.variant} loop`, backend.device);
  const range = rangeOf(m.op);
  const x = backend.input('fp32', m.elements, 0, range);
  const inputs = m.op === 'exp' ? [x] : [x, backend.input('fp32', m.elements, 1, range)];
  const out = backend.output('fp32', m.elements);
  const verify = (): ReturnType<typeof verifyElementwise> => verifyElementwise(out, inputs, ELEMENTWISE_REFERENCE[m.op], ELEMENTWISE_TOLERANCE.fp32);
  const [a, b = a] = inputs as [typeof x, typeof x?];
  if (cpu) {
    const variant = m.variant as 'single' | 'threads';
    return m.op === 'exp'
      ? backend.run({ op: 'exp', variant, x, out, threads: m.threads }, verify)
      : backend.run({ op: m.op, variant, a, b, out, threads: m.threads }, verify);
  }
  return m.op === 'exp' ? backend.run({ op: 'exp', path: m.path, x, out }, verify) : backend.run({ op: m.op, path: m.path, a, b, out }, verify);
}
