// elementwise-breakeven en español: hallazgos y series (las mismas claves que ../en/elementwise-breakeven.ts) y la descripción del laboratorio.
import type { DescriptorText, TextOf } from '../lab-text-types.ts';
import type { elementwiseBreakeven } from '../en/elementwise-breakeven.ts';

export const elementwiseBreakevenEs: TextOf<typeof elementwiseBreakeven> = {
  series: {},
  findings: {},
};

// TODO(i18n): the Spanish words of the descriptor; until then the lab shows in English.
export const elementwiseBreakevenDescriptorEs: DescriptorText | null = null;
