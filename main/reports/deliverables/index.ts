// Each lab's deliverable by lab id: the table its seed asks the student to hand in, and the seed's questions
// answered from the run's numbers.
import type { LabId } from '../../common/lab-descriptor.ts';
import type { Deliverable, DeliverableContext, DeliverableBuilder } from './common.ts';
import { dtypesDeliverable } from './dtypes.ts';
import { elementwiseBreakevenDeliverable } from './elementwise-breakeven.ts';
import { matmulBreakevenDeliverable } from './matmul-breakeven.ts';
import { matmulDeliverable } from './matmul.ts';
import { timingPitfallsDeliverable } from './timing-pitfalls.ts';
import { transferDeliverable } from './transfer.ts';
import { vectorFunctionDeliverable } from './vector-function.ts';
import { textToImageDeliverable } from './text-to-image.ts';

const BUILDERS: Record<LabId, DeliverableBuilder> = {
  transfer: transferDeliverable,
  dtypes: dtypesDeliverable,
  matmul: matmulDeliverable,
  'vector-function': vectorFunctionDeliverable,
  'elementwise-breakeven': elementwiseBreakevenDeliverable,
  'matmul-breakeven': matmulBreakevenDeliverable,
  'timing-pitfalls': timingPitfallsDeliverable,
  'text-to-image': textToImageDeliverable,
};

export function labDeliverable(context: DeliverableContext): Deliverable | null {
  const builder = (BUILDERS as Record<string, DeliverableBuilder | undefined>)[context.record.lab];
  return builder ? builder(context) : null;
}

export type { Answer, Deliverable, DeliverableTable } from './common.ts';
