// One icon per lab, from lucide: the catalog's cards show it beside the title, and the app's rail can show the same
// one beside a lab's name. Every lab has one (the record is keyed by every lab id), so a new lab cannot be left out.
import { ArrowLeftRight, Binary, ChartLine, FlaskConical, Grid3x3, Scale, SquareFunction, Timer, WandSparkles } from '@lucide/vue';
import type { LucideIcon } from '@lucide/vue';

import type { LabId } from '../../../main/common/lab-descriptor.ts';

export const LAB_ICONS: Record<LabId, LucideIcon> = {
  transfer: ArrowLeftRight,
  dtypes: Binary,
  matmul: Grid3x3,
  'vector-function': SquareFunction,
  'elementwise-breakeven': Scale,
  'matmul-breakeven': ChartLine,
  'timing-pitfalls': Timer,
  'text-to-image': WandSparkles,
};

// A lab this version of the renderer does not know (a newer main) still gets an icon.
export function labIcon(labId: string): LucideIcon {
  return (LAB_ICONS as Record<string, LucideIcon | undefined>)[labId] ?? FlaskConical;
}
