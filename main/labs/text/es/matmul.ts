// matmul en español: hallazgos y series (las mismas claves que ../en/matmul.ts) y la descripción del laboratorio.
import type { DescriptorText, TextOf } from '../lab-text-types.ts';
import type { matmul } from '../en/matmul.ts';

export const matmulEs: TextOf<typeof matmul> = {
  series: {},
  findings: {},
};

// TODO(i18n): the Spanish words of the descriptor; until then the lab shows in English.
export const matmulDescriptorEs: DescriptorText | null = null;
