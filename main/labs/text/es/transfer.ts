// transfer en español: hallazgos y series (las mismas claves que ../en/transfer.ts) y la descripción del laboratorio.
import type { DescriptorText, TextOf } from '../lab-text-types.ts';
import type { transfer } from '../en/transfer.ts';

export const transferEs: TextOf<typeof transfer> = {
  series: {},
  findings: {},
};

// TODO(i18n): the Spanish words of the descriptor; until then the lab shows in English.
export const transferDescriptorEs: DescriptorText | null = null;
