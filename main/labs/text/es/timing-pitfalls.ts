// timing-pitfalls en español: hallazgos y series (las mismas claves que ../en/timing-pitfalls.ts) y la descripción del laboratorio.
import type { DescriptorText, TextOf } from '../lab-text-types.ts';
import type { timingPitfalls } from '../en/timing-pitfalls.ts';

export const timingPitfallsEs: TextOf<typeof timingPitfalls> = {
  series: {},
  findings: {},
};

// TODO(i18n): the Spanish words of the descriptor; until then the lab shows in English.
export const timingPitfallsDescriptorEs: DescriptorText | null = null;
