// The labs of DESIGN §2, by id.
import type { LabDescriptor } from '../common/lab-descriptor.ts';
import { elementwiseBreakevenLab } from './elementwise-breakeven.ts';
import type { Lab } from './lab.ts';

export const LABS: readonly Lab[] = [elementwiseBreakevenLab];

export function findLab(id: string): Lab | undefined {
  return LABS.find((l) => l.descriptor.id === id);
}

export function labDescriptors(): LabDescriptor[] {
  return LABS.map((l) => l.descriptor);
}
