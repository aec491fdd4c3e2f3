// What a student reads names the course material by its title ("Lab 6", "HPC con GPU (3/22)"), never by the
// project's internal numbering of it ("seed 003"): the labs' presets and descriptions in both languages, and the
// deliverables' sources in the PDF.
import { describe, expect, it } from 'vitest';

import { labDescriptors } from '../../../main/labs/index.ts';
import { pdfDeliverables as deliverableWords } from '../../../main/common/pure/i18n/en/pdf-deliverables.ts';
import { pdfDeliverables as deliverableWordsEs } from '../../../main/common/pure/i18n/es/pdf-deliverables.ts';

const INTERNAL = /\b(seed|semilla)[ -]?0\d\d\b/i;

describe('the course material', () => {
  it.each(['en', 'es'] as const)('is named by its title in every lab text, %s', (locale) => {
    // Preset ids stay as they are (they name stored runs' choices); their labels and descriptions are read.
    const descriptors = labDescriptors(locale).map((d) => ({ ...d, presets: d.presets?.map(({ label, description }) => ({ label, description })) }));
    expect(JSON.stringify(descriptors)).not.toMatch(INTERNAL);
  });

  it('is named by its title in the PDF’s deliverables, in English and Spanish', () => {
    expect(JSON.stringify(deliverableWords)).not.toMatch(INTERNAL);
    expect(JSON.stringify(deliverableWordsEs)).not.toMatch(INTERNAL);
  });
});
