// A kernel run whose data fits in L2 (the reduction's 32 MiB on an H100's 50 MiB), read back from its PDF with
// poppler: the throughput section says the rates were read from L2 and are no share of DRAM's peak, in English and
// in Spanish, and prints no peak; a run from DRAM says nothing of L2.
import { describe, expect, it } from 'vitest';

import type { Locale } from '../../../main/common/pure/locale.ts';
import type { KernelRun } from '../../../main/common/playground.ts';
import { writeReport } from '../../../main/reports/report-writer.ts';
import { reductionFromL2, verifiedSgemm } from './kernel-runs.ts';
import { packed, pdfText, savePdf } from './pdf-tools.ts';

const OPTIONS = { author: 'Laura Llamas López', course: 'Programación de GPUs', date: new Date('2026-11-24T10:00:00Z'), writerVersion: '0.1.0' };

async function reportText(run: KernelRun, locale: Locale): Promise<string> {
  const pdf = await writeReport([], [run], { ...OPTIONS, locale });
  return pdfText(savePdf(pdf.bytes));
}

describe('a kernel run read from L2 in the PDF', () => {
  it('says so in English, and prints no peak', async () => {
    const text = await reportText(reductionFromL2(), 'en');
    expect(packed(text)).toContain(
      packed('The data (32 MiB) fits in this GPU’s 50 MiB L2 cache: after the first launch it is read from L2, so this rate is not DRAM bandwidth and is not shown as a share of its peak.'),
    );
    expect(text).not.toContain('The device’s peak for this metric');
  });

  it('says so in Spanish', async () => {
    const text = await reportText(reductionFromL2(), 'es');
    expect(packed(text)).toContain(
      packed('Los datos (32 MiB) caben en la caché L2 de 50 MiB de esta GPU: tras el primer lanzamiento se leen de la L2, así que esta tasa no es ancho de banda de DRAM y no se muestra como fracción de su pico.'),
    );
  });

  it('says nothing of L2 for a run from DRAM, in either language', async () => {
    for (const locale of ['en', 'es'] as const) expect(await reportText(verifiedSgemm(), locale)).not.toMatch(/\bL2\b/);
  });
});
