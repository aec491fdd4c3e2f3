// The launch form's values as typed (text, so that a wrong value can be quoted back), checked before a run is asked
// for: the size within the exercise's limits, every block and grid dimension a whole number from 1, and the limits
// CUDA itself sets on a launch (1024 threads per block, 64 in z; 65 535 blocks in y and z). Each problem names its
// field, the value and what was expected, as catalog keys with their values. The form starts from the launch header
// of the source in the editor (main/common/pure/launch-header.ts), as main applies it when the grid is left automatic.
import { gridFor } from '../../../main/common/pure/launch-header.ts';
import type { GridRule, LaunchHeader } from '../../../main/common/pure/launch-header.ts';
import type { Dim3, ExerciseDescriptor } from '../../../main/common/playground.ts';

export type Axis = 'x' | 'y' | 'z';
export const AXES: readonly Axis[] = ['x', 'y', 'z'];
export type LaunchField = 'size' | `block-${Axis}` | `grid-${Axis}` | 'block';

export interface LaunchDraft {
  size: string;
  block: [string, string, string];
  gridAuto: boolean;
  grid: [string, string, string];
}

export interface LaunchProblem {
  field: LaunchField;
  // A key of the "playground.launch.problems" catalog, and its named values.
  key: 'integer' | 'range' | 'max' | 'threads';
  named: Record<string, string | number>;
}

export interface CheckedLaunch {
  size: number;
  block: Dim3;
  // Absent: main picks the grid that covers the size.
  grid?: Dim3;
}

// CUDA's limits on one launch (the CUDA C++ Programming Guide, "Compute capabilities", the same since sm_30).
export const MAX_THREADS_PER_BLOCK = 1024;
const MAX_BLOCK: Record<Axis, number> = { x: 1024, y: 1024, z: 64 };
const MAX_GRID: Record<Axis, number> = { x: 2 ** 31 - 1, y: 65_535, z: 65_535 };

// Digits only ("1_000_000" as a student writes it in C++14 is 1'000'000; the underscore reads alike), or null.
function wholeNumber(text: string): number | null {
  const trimmed = text.trim().replace(/_/g, '');
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) ? value : null;
}

const texts = (d: Dim3): [string, string, string] => [String(d[0]), String(d[1]), String(d[2])];

export function defaultDraft(exercise: ExerciseDescriptor): LaunchDraft {
  return { size: String(exercise.size.default), block: texts(exercise.defaultBlock), gridAuto: true, grid: ['1', '1', '1'] };
}

// The form as a source's launch header sets it, the size kept: its block (else the exercise's), and its grid typed
// in where it names one, automatic otherwise (main then applies the header's rule, or covers the size).
export function headerDraft(exercise: ExerciseDescriptor, header: Pick<LaunchHeader, 'block' | 'grid'> | null, size: string): LaunchDraft {
  const grid = header?.grid;
  return { size, block: texts(header?.block ?? exercise.defaultBlock), gridAuto: grid?.kind !== 'fixed', grid: grid?.kind === 'fixed' ? texts(grid.grid) : ['1', '1', '1'] };
}

// The grid main picks when it is left out: the header's rule with this block, else one thread per element of the
// output, as the exercise covers it.
export function coverGrid(exercise: ExerciseDescriptor, size: number, block: Dim3, rule: GridRule = { kind: 'cover' }): Dim3 {
  return gridFor(rule, exercise.cover, size, block);
}

function dims(texts: readonly string[], kind: 'block' | 'grid', limits: Record<Axis, number>, problems: LaunchProblem[]): Dim3 | null {
  const values = AXES.map((axis, i) => {
    const text = texts[i] ?? '';
    const parsed = wholeNumber(text);
    const value = parsed !== null && parsed >= 1 ? parsed : null;
    const field: LaunchField = `${kind}-${axis}`;
    if (value === null) problems.push({ field, key: 'integer', named: { value: text } });
    else if (value > limits[axis]) problems.push({ field, key: 'max', named: { value: text, max: limits[axis] } });
    return value !== null && value <= limits[axis] ? value : null;
  });
  const [x, y, z] = values;
  return x && y && z ? [x, y, z] : null;
}

export function checkLaunch(draft: LaunchDraft, exercise: ExerciseDescriptor): { launch: CheckedLaunch | null; problems: LaunchProblem[] } {
  const problems: LaunchProblem[] = [];
  const size = wholeNumber(draft.size);
  const { min, max } = exercise.size;
  if (size === null) problems.push({ field: 'size', key: 'integer', named: { value: draft.size } });
  else if (size < min || size > max) problems.push({ field: 'size', key: 'range', named: { value: draft.size, min, max } });
  const block = dims(draft.block, 'block', MAX_BLOCK, problems);
  if (block && block[0] * block[1] * block[2] > MAX_THREADS_PER_BLOCK) {
    problems.push({ field: 'block', key: 'threads', named: { threads: block[0] * block[1] * block[2], max: MAX_THREADS_PER_BLOCK } });
  }
  const grid = draft.gridAuto ? undefined : dims(draft.grid, 'grid', MAX_GRID, problems);
  if (problems.length > 0 || size === null || !block || grid === null) return { launch: null, problems };
  return { launch: grid ? { size, block, grid } : { size, block }, problems };
}
