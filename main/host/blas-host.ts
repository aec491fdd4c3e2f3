// The compute host's BLAS: the libraries found (blas-libraries.ts), opened once per host on first use, and the
// chooser that measures which one runs each GEMM (blas-choice.ts); what the devices list says of them.
import type { DeviceList } from '../common/devices.ts';
import { msg, n, renderMessage, type Message } from '../common/pure/message.ts';
import { translator } from '../common/pure/i18n/index.ts';
import { BlasChooser } from './blas-choice.ts';
import type { BlasPick } from './blas-choice.ts';
import { BLAS_ENV, blasCandidates, interpreterPlaces, openCandidates } from './blas-libraries.ts';
import type { OpenedBlas } from './blas-libraries.ts';

// The size the devices list names a choice at: the middle of the range where the libraries differ most, and one the
// labs measure (matmul-breakeven's N = 1000), whose choice it shares.
const DEVICES_SIZE = 1000;

let chooser: Promise<BlasChooser> | null = null;

export function hostBlas(): Promise<BlasChooser> {
  chooser ??= interpreterPlaces(process.env).then((places) => new BlasChooser(openCandidates(blasCandidates(process.env, places))));
  return chooser;
}

// "OpenBLAS 0.3.34 (SkylakeX kernel, 64-bit integers) from NumPy’s bundled copy, /…/libscipy_openblas64_-….so,
// on 16 threads for fp32 at N = 1,000, the fastest of 6 trials; also found: …; each GEMM’s library and threads are
// chosen by measurement at its size": blasWhat's line in English, as records and logs keep it.
export function blasText(pick: BlasPick | null, chooserOf: Pick<BlasChooser, 'libraries'>, fallback: string): string {
  const what = pick ? blasWhat(pick, chooserOf, fallback) : null;
  return what ? renderMessage(what, translator('en'), 'en') : fallback;
}

function libraryWhat(lib: OpenedBlas): Message {
  const origin = msg(`devices.blasLine.origin.${lib.origin}`, { path: lib.path, ...(lib.origin === 'named' ? { variable: BLAS_ENV } : {}) });
  return msg('devices.blasLine.library', { name: lib.name ?? lib.family ?? 'BLAS', origin });
}

// blasText's line as a message, so that it reads in the reader's language; `fallback` (the addon's own line, where
// nothing was chosen) is read where it says the built-in GEMM stands in, and quoted otherwise (a library's name).
export function blasWhat(pick: BlasPick | null, chooserOf: Pick<BlasChooser, 'libraries'>, fallback: string): Message | null {
  if (!pick) {
    const builtIn = /^built-in blocked GEMM \(no system BLAS: (.*)\)$/s.exec(fallback);
    return builtIn ? msg('devices.blasLine.builtIn', { reason: builtIn[1] ?? '' }) : null;
  }
  const others = chooserOf.libraries.filter((l) => l !== pick.library).map(libraryWhat);
  const values = { library: libraryWhat(pick.library), threads: n.int(pick.threads), dtype: pick.dtype, size: n.int(pick.size), trials: n.int(pick.trials.length) };
  if (!others.length) return msg('devices.blasLine.chosen', values);
  const list = others.reduceRight((rest: Message | null, first) => (rest ? msg('devices.blasLine.list', { first, rest }) : first), null);
  return msg('devices.blasLine.chosenWithOthers', { ...values, others: list ?? '' });
}

// The device list with its BLAS line naming the library chosen at N = 1000 (fp32), measured in the host's turn the
// first time, as the CPU's bandwidth is.
export async function withBlas(list: DeviceList, turn: <T>(work: () => Promise<T>) => Promise<T>): Promise<DeviceList> {
  try {
    const c = await hostBlas();
    const pick = await turn(() => c.pick('fp32', DEVICES_SIZE));
    return { ...list, blas: blasText(pick, c, list.blas), blasWhat: blasWhat(pick, c, list.blas) };
  } catch {
    return { ...list, blasWhat: blasWhat(null, { libraries: [] }, list.blas) };
  }
}
