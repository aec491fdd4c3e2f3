// vector-function en español: hallazgos y series (las mismas claves que ../en/vector-function.ts) y la descripción del laboratorio.
import type { DescriptorText, TextOf } from '../lab-text-types.ts';
import type { vectorFunction } from '../en/vector-function.ts';

export const vectorFunctionEs: TextOf<typeof vectorFunction> = {
  series: {},
  findings: {},
};

// TODO(i18n): the Spanish words of the descriptor; until then the lab shows in English.
export const vectorFunctionDescriptorEs: DescriptorText | null = null;
