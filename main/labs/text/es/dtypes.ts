// dtypes en español: hallazgos y series (las mismas claves que ../en/dtypes.ts) y la descripción del laboratorio.
import type { DescriptorText, TextOf } from '../lab-text-types.ts';
import type { dtypes } from '../en/dtypes.ts';

export const dtypesEs: TextOf<typeof dtypes> = {
  series: {},
  findings: {},
};

// TODO(i18n): the Spanish words of the descriptor; until then the lab shows in English.
export const dtypesDescriptorEs: DescriptorText | null = null;
