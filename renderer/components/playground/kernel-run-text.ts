// How a kernel run's figures read on the page: an element of the output with nine significant digits (as many as
// tell a float from its neighbour, C's FLT_DECIMAL_DIG, so that a wrong last bit shows as a difference), a launch's
// dimensions, what the verification found, and which failures cost the compute host a restart.
import type { ErrorCode } from '../../../main/common/errors.ts';
import { formatRelativeError } from '../../../main/common/pure/format.ts';
import type { Translate } from '../../../main/common/pure/i18n/translate.ts';
import { localizeDecimal } from '../../../main/common/pure/locale.ts';
import type { Dim3, ExerciseDescriptor, KernelRun, KernelRunResult, VerificationResult } from '../../../main/common/playground.ts';
import { maxErrorOf, verdictSentences } from '../../../main/common/pure/verification-verdict.ts';
import { isPythonLaunch } from '../../../main/common/pure/python-launch.ts';

export function elementText(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+∞' : '−∞';
  return localizeDecimal(String(Number(value.toPrecision(9))));
}

export function dimText(dim: Dim3): string {
  return dim.join(' × ');
}

// A kernel that faulted or ran past the watchdog took its compute host with it: main started a new one, and only
// this run was lost.
const RESTARTING: readonly ErrorCode[] = ['TIMEOUT', 'DEVICE_LOST', 'COMPUTE_HOST_CRASHED', 'CUDA_ERROR'];

export function costRestart(run: Pick<KernelRun, 'status' | 'error'>): boolean {
  return run.status === 'failed' && run.error !== null && RESTARTING.includes(run.error.code);
}

// Where the grid launched fewer threads than there are elements: part of the output was never written.
export function undercovered(threadsLaunched: number): boolean {
  return Number.isFinite(threadsLaunched) && threadsLaunched < 1;
}

// What the verification found, in the app's words: the verdict first (its first sentence the headline), then the
// largest relative error, or why there is none.
export function verificationText(v: VerificationResult, t: Translate): { verdict: string[]; maxError: string } {
  const verdict = verdictSentences(v).map((s) => t(`playground.verification.verdict.${s.key}`, s.named, s.count));
  const m = maxErrorOf(v);
  const maxError = m.key === 'maxError' ? t('playground.verification.maxError', { error: formatRelativeError(m.error) }) : t(`playground.verification.${m.key}`);
  return { verdict, maxError };
}

// A run's comparisons named as the exercise names them in the language shown, the student's kernel launched from
// Python (Unit 10) as the catalog names it: a stored run keeps the titles of the language it was run in; one whose
// kernel this version no longer has keeps its own.
export function withTitlesOf(result: KernelRunResult, exercise: ExerciseDescriptor, t: Translate): KernelRunResult {
  const titles = new Map<string, string>([...exercise.kernels, ...exercise.builtins].map((k) => [k.id, k.title]));
  const titleOf = (id: string, stored: string): string => titles.get(id) ?? (isPythonLaunch(id) ? t(`playground.python.titles.${id}`) : stored);
  return { ...result, comparisons: result.comparisons.map((c) => ({ ...c, title: titleOf(c.id, c.title) })) };
}
