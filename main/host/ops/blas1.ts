// cuBLAS beside the kernel playground's SAXPY, sum and transpose, on the exercises' inputs (device-resident fp32):
// out = a·x + y with x, y uniform in [-1, 1); the sum of whole numbers 0…3, whose exact total float64 holds; the
// transpose of an n×n matrix, checked element by element.
import type { Measurement, MeasurementResult } from '../../common/measurement.ts';
import type { ElementBuffer } from '../../../native/index.ts';
import type { MeasurementBackend } from './backend.ts';
import { unsupported } from './backend.ts';
import { ELEMENTWISE_TOLERANCE, verifyElementwise } from '../verify.ts';
import { verifyTranspose } from '../verify-transpose.ts';

type Blas1 = Extract<Measurement, { op: 'blas1' }>;

const WHOLE_NUMBER_CHUNK = 1 << 20;

// The float64 reference of one element of out = a·x + y, with the fp32 `a` a kernel (or cuBLAS) multiplies by.
// One element of a·x + y, a rounded to fp32 as the kernel receives it; the playground's check calls it 16 million
// times, so it takes its operands as they are (saxpyReference puts them in the engine's form).
export function saxpyElement(a: number): (x: number, y: number) => number {
  const fa = Math.fround(a);
  return (x, y) => fa * x + y;
}

export function saxpyReference(a: number): (values: number[]) => number {
  const element = saxpyElement(a);
  return ([x = Number.NaN, y = Number.NaN]) => element(x, y);
}

// Rounds `x` (uniform [0, 4) from its seed) down to whole numbers 0…3, as the reduction exercise's inputs, and
// returns their exact total: float64 holds every sum of them below 2⁵³.
function wholeNumbers(x: ElementBuffer<'fp32'>): number {
  let total = 0;
  for (let start = 0; start < x.length; start += WHOLE_NUMBER_CHUNK) {
    const values = x.read(start, Math.min(WHOLE_NUMBER_CHUNK, x.length - start));
    for (let i = 0; i < values.length; i++) {
      const v = Math.floor(values[i] ?? 0);
      values[i] = v;
      total += v;
    }
    x.write(values, start);
  }
  return total;
}

// A sum of non-negative whole numbers is exact in fp32, in any order of addition, while the total is at most 2²⁴
// (every partial sum is then a whole number no larger than the total, and floats hold all of those): always so in
// the playground, whose 2²³ elements sum to about 1.26·10⁷. Past it an addition may round by up to 2⁻²⁴ ≈ 6e-8;
// a GPU adds along a tree of partial sums, 31 levels deep at 2³¹ elements, whose roundings mostly cancel:
// relative 1e-6.
function sumTolerance(total: number): number {
  return total <= 2 ** 24 ? 0 : 1e-6;
}

export function measureBlas1(m: Blas1, backend: MeasurementBackend): Promise<MeasurementResult> {
  if (backend.kind === 'cpu') throw unsupported(`cuBLAS ${m.routine} (cuBLAS runs on a GPU)`, 'cpu');
  switch (m.routine) {
    case 'saxpy': {
      const x = backend.input('fp32', m.elements, 0, { low: -1, high: 1 });
      const y = backend.input('fp32', m.elements, 1, { low: -1, high: 1 });
      const out = backend.output('fp32', m.elements);
      return backend.run({ op: 'blas1', routine: 'saxpy', x, y, out, a: m.a }, () => verifyElementwise(out, [x, y], saxpyReference(m.a), ELEMENTWISE_TOLERANCE.fp32));
    }
    case 'sum': {
      // Rounded down in place: an input of its own, never one kept for other points.
      const x = backend.ownInput('fp32', m.elements, 0, { low: 0, high: 4 });
      const total = wholeNumbers(x);
      const out = backend.output('fp32', 1);
      // The one element of `out` against the exact total: no input element maps to it.
      return backend.run({ op: 'blas1', routine: 'sum', x, out }, () => verifyElementwise(out, [], () => total, sumTolerance(total)));
    }
    case 'transpose': {
      const input = backend.input('fp32', m.n * m.n, 0, { low: -1, high: 1 });
      const out = backend.output('fp32', m.n * m.n);
      return backend.run({ op: 'blas1', routine: 'transpose', in: input, out, n: m.n }, () => verifyTranspose(out, input, m.n));
    }
  }
}
