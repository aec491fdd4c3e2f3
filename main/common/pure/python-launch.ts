// Unit 10's launch path in a kernel run: the student's kernel launched again from Python (PyCUDA, else cuda.core;
// host/kernel-python.ts), and what a reader is told of it. The sentence comparing it with the run-time compiled
// launch is decided by the two medians' 95 % intervals (claims.ts), as every sentence about numbers is: a direction
// only where they separate. It names no cause: the run measures none (the compiler, nvcc's against NVRTC's code, and
// the launch overhead all differ). Pure: the app, the CLI and the PDF say it alike.
import { compareTimes, estimateOfSamples, timeRatio } from './claims.ts';
import { msg, n } from './message.ts';
import type { Message } from './message.ts';
import type { Comparison, KernelRunResult } from '../playground.ts';

// The comparison's id: the launcher that ran it, or 'python' where none could (the comparison then says why).
export const PYTHON_LAUNCH_IDS = ['python', 'python-pycuda', 'python-cuda-core'] as const;
export type PythonLaunchId = (typeof PYTHON_LAUNCH_IDS)[number];
const LIBRARY_NAMES: Record<PythonLaunchId, string> = { python: 'Python', 'python-pycuda': 'PyCUDA', 'python-cuda-core': 'cuda.core' };

export function isPythonLaunch(id: string): id is PythonLaunchId {
  return (PYTHON_LAUNCH_IDS as readonly string[]).includes(id);
}

export function pythonComparison(result: KernelRunResult): Comparison | undefined {
  return result.comparisons.find((c) => c.kind === 'python');
}

// How the Python launch's time compares with the run-time compiled launch of the same kernel on the same inputs,
// or null where either was not timed or the Python launch's output was wrong.
export function pythonLaunchFinding(result: KernelRunResult): Message | null {
  const python = pythonComparison(result);
  if (!python?.throughput || !python.verified || !result.throughput || !isPythonLaunch(python.id)) return null;
  const nvrtc = estimateOfSamples(result.throughput.samplesMs);
  const launched = estimateOfSamples(python.throughput.samplesMs);
  if (!nvrtc || !launched) return null;
  const order = compareTimes(launched, nvrtc);
  // The Python launch's time over NVRTC's, with the range the two intervals allow.
  const r = timeRatio(nvrtc, launched);
  const values = {
    library: LIBRARY_NAMES[python.id],
    python: n.ms(launched.median),
    nvrtc: n.ms(nvrtc.median),
    ratio: n.times(order === 'faster' ? 1 / r.value : r.value),
    low: n.times(order === 'faster' ? 1 / r.high : r.low),
    high: n.times(order === 'faster' ? 1 / r.low : r.high),
  };
  const key = order === 'faster' ? 'faster' : order === 'slower' ? 'slower' : 'same';
  return msg(`playground.python.finding.${key}`, values);
}
