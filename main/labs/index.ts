// The eight labs (README.md, "The labs"), by id, in the order a course meets them.
import type { Locale } from '../common/pure/locale.ts';
import { localizeDescriptor } from './lab-text.ts';
import type { LabDescriptor } from '../common/lab-descriptor.ts';
import { dtypesLab } from './dtypes.ts';
import { elementwiseBreakevenLab } from './elementwise-breakeven.ts';
import type { Lab } from './lab.ts';
import { matmulBreakevenLab } from './matmul-breakeven.ts';
import { matmulLab } from './matmul.ts';
import { timingPitfallsLab } from './timing-pitfalls.ts';
import { transferLab } from './transfer.ts';
import { vectorFunctionLab } from './vector-function.ts';
import { textToImageLab } from './text-to-image.ts';

export const LABS: readonly Lab[] = [
  transferLab,
  dtypesLab,
  matmulLab,
  vectorFunctionLab,
  elementwiseBreakevenLab,
  matmulBreakevenLab,
  timingPitfallsLab,
  textToImageLab,
];

// The version of the analyses below: raised whenever a lab's findings or summary change what they say, so that a
// record tells which analysis its findings come from. Records are analysed again when read (runs/current-findings.ts).
export const ANALYSIS_VERSION = 5;

export function findLab(id: string): Lab | undefined {
  return LABS.find((l) => l.descriptor.id === id);
}

// The labs' descriptors in `locale`, each with its findings' templates (text/lab-text.ts).
export function labDescriptors(locale: Locale = 'en'): LabDescriptor[] {
  return LABS.map((l) => localizeDescriptor(l.descriptor, locale));
}
