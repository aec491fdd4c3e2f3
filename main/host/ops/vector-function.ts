// The vector function of the course, z = a·x² + b·y + c over fp64 vectors with x and y uniform in [0, 1) (as
// NumPy's random.rand in the notebook): the CPU's loop on one thread or on all; the GPU's three-pass (unfused) or
// one-kernel (fused) version, resident, or fused with the copies timed.
import type { Measurement, MeasurementResult } from '../../common/measurement.ts';
import type { MeasurementBackend } from './backend.ts';
import { unsupported } from './backend.ts';
import type { WebGpuBackend } from '../webgpu/backend.ts';
import { boundIn } from '../webgpu/backend.ts';
import { ELEMENTWISE_TOLERANCE, verifyElementwise } from '../verify.ts';

type VectorFunction = Extract<Measurement, { op: 'vector-function' }>;

// The float64 reference of one element.
// One element of a·x² + b·y + c (the playground's check calls it 16 million times: no array per call).
export function vectorFunctionElement(a: number, b: number, c: number): (x: number, y: number) => number {
  return (x, y) => a * x * x + b * y + c;
}

export function vectorFunctionReference(a: number, b: number, c: number): (values: number[]) => number {
  const element = vectorFunctionElement(a, b, c);
  return ([x = Number.NaN, y = Number.NaN]) => element(x, y);
}

// On WebGPU, in f32 (WGSL has no f64): shaders/wgsl/vector_function.wgsl, the fused kernel, or its three passes through
// an intermediate vector; with the copies, the fused kernel. a, b and c go in a uniform buffer as f32.
function measureOnWebgpu(m: VectorFunction, backend: WebGpuBackend): Promise<MeasurementResult> {
  if (m.dtype !== 'fp32') throw unsupported('fp64 (WGSL has no 64-bit float type)', backend.device);
  if (m.variant !== 'fused' && m.variant !== 'unfused') throw unsupported(`the CPU's ${m.variant} loop`, backend.device);
  if (backend.withCopies && m.variant === 'unfused') throw unsupported('the unfused kernels with the copies timed (the with-copies vector function runs the fused kernel)', backend.device);
  const x = backend.input(m.elements, 0, { low: 0, high: 1 });
  const y = backend.input(m.elements, 1, { low: 0, high: 1 });
  const z = backend.output(m.elements);
  const k = backend.uniform([m.a, m.b, m.c]);
  const passes =
    m.variant === 'fused'
      ? [{ entry: 'fused', arrays: { 0: x.buffer, 1: y.buffer, 2: z.buffer }, whole: { 3: k } }]
      : (() => {
          const t = backend.scratch(m.elements);
          return [
            { entry: 'scaled_square', arrays: { 0: x.buffer, 4: t }, whole: { 3: k } },
            { entry: 'add_scaled', arrays: { 1: y.buffer, 4: t }, whole: { 3: k } },
            { entry: 'add_constant', arrays: { 2: z.buffer, 4: t }, whole: { 3: k } },
          ];
        })();
  const verify = (): ReturnType<typeof verifyElementwise> => verifyElementwise(z, [x, y], vectorFunctionReference(m.a, m.b, m.c), ELEMENTWISE_TOLERANCE.fp32);
  const { dispatches, pieces } = backend.elementwise(m.elements, passes);
  return backend.run({ shader: 'vector-function', dispatches, workgroupSize: backend.gpu.workgroupSize, inputs: [x, y], output: z, detail: boundIn(pieces) }, verify);
}

export function measureVectorFunction(m: VectorFunction, backend: MeasurementBackend | WebGpuBackend): Promise<MeasurementResult> {
  if (backend.kind === 'webgpu') return measureOnWebgpu(m, backend);
  if (m.dtype !== 'fp64') throw unsupported('the vector function in fp32 (its CPU loops and CUDA kernels are fp64)', backend.device);
  const cpu = backend.kind === 'cpu';
  if (cpu && m.variant !== 'single' && m.variant !== 'threads') throw unsupported(`the ${m.variant} GPU variant`, backend.device);
  if (!cpu && m.variant !== 'fused' && m.variant !== 'unfused') throw unsupported(`the CPU's ${m.variant} loop`, backend.device);
  if (backend.withCopies && m.variant === 'unfused') throw unsupported('the unfused kernels with the copies timed (the with-copies vector function runs the fused kernel)', backend.device);
  const x = backend.input('fp64', m.elements, 0);
  const y = backend.input('fp64', m.elements, 1);
  const out = backend.output('fp64', m.elements);
  const { a, b, c } = m;
  const verify = (): ReturnType<typeof verifyElementwise> => verifyElementwise(out, [x, y], vectorFunctionReference(a, b, c), ELEMENTWISE_TOLERANCE.fp64);
  if (cpu) return backend.run({ op: 'vector-function', variant: m.variant as 'single' | 'threads', x, y, out, a, b, c, threads: m.threads }, verify);
  return backend.run({ op: 'vector-function', variant: m.variant as 'fused' | 'unfused', path: m.path, x, y, out, a, b, c }, verify);
}
