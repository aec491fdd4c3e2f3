// The compute host's BLAS: the libraries found (blas-libraries.ts), opened once per host on first use, and the
// chooser that measures which one runs each GEMM (blas-choice.ts); what the devices list says of them.
import type { DeviceList } from '../common/devices.ts';
import { BlasChooser, libraryText } from './blas-choice.ts';
import type { BlasPick } from './blas-choice.ts';
import { blasCandidates, interpreterPlaces, openCandidates } from './blas-libraries.ts';

// The size the devices list names a choice at: the middle of the range where the libraries differ most, and one the
// labs measure (matmul-breakeven's N = 1000), whose choice it shares.
const DEVICES_SIZE = 1000;

let chooser: Promise<BlasChooser> | null = null;

export function hostBlas(): Promise<BlasChooser> {
  chooser ??= interpreterPlaces(process.env).then((places) => new BlasChooser(openCandidates(blasCandidates(process.env, places))));
  return chooser;
}

// "OpenBLAS 0.3.34 (SkylakeX kernel, 64-bit integers) from NumPy's bundled copy, /…/libscipy_openblas64_-….so,
// on 16 threads for fp32 at N = 1000; also found: …; each GEMM's library and threads are measured at its size".
export function blasText(pick: BlasPick | null, chooserOf: Pick<BlasChooser, 'libraries'>, fallback: string): string {
  if (!pick) return fallback;
  const others = chooserOf.libraries.filter((l) => l !== pick.library).map(libraryText);
  return [
    `${libraryText(pick.library)}, on ${pick.threads} threads for ${pick.dtype} at N = ${pick.size}, the fastest of ${pick.trials.length} trials`,
    ...(others.length ? [`also found: ${others.join('; ')}`] : []),
    'each GEMM’s library and threads are chosen by measurement at its size',
  ].join('; ');
}

// The device list with its BLAS line naming the library chosen at N = 1000 (fp32), measured in the host's turn the
// first time, as the CPU's bandwidth is.
export async function withBlas(list: DeviceList, turn: <T>(work: () => Promise<T>) => Promise<T>): Promise<DeviceList> {
  try {
    const c = await hostBlas();
    const pick = await turn(() => c.pick('fp32', DEVICES_SIZE));
    return { ...list, blas: blasText(pick, c, list.blas) };
  } catch {
    return list;
  }
}
