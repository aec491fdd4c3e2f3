// The labs of DESIGN §2, by id, in the order a course meets them.
import type { LabDescriptor } from '../common/lab-descriptor.ts';
import { dtypesLab } from './dtypes.ts';
import { elementwiseBreakevenLab } from './elementwise-breakeven.ts';
import type { Lab } from './lab.ts';
import { matmulBreakevenLab } from './matmul-breakeven.ts';
import { matmulLab } from './matmul.ts';
import { timingPitfallsLab } from './timing-pitfalls.ts';
import { transferLab } from './transfer.ts';
import { vectorFunctionLab } from './vector-function.ts';

export const LABS: readonly Lab[] = [
  transferLab,
  dtypesLab,
  matmulLab,
  vectorFunctionLab,
  elementwiseBreakevenLab,
  matmulBreakevenLab,
  timingPitfallsLab,
];

export function findLab(id: string): Lab | undefined {
  return LABS.find((l) => l.descriptor.id === id);
}

export function labDescriptors(): LabDescriptor[] {
  return LABS.map((l) => l.descriptor);
}
