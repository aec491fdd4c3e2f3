// The text-to-image lab's chapter in the PDF, from a run made of generated points (no GPU has recorded one here), read
// back with poppler in English and Spanish: the notebook's question (how much faster is the GPU for generating an
// image, and why) answered from the run's findings, the table of one image's time, and the plain statement that the
// weights are random and no image is produced.
import { describe, expect, it } from 'vitest';

import { validateParams } from '../../../main/common/params.ts';
import type { RunRecord } from '../../../main/common/run-record.ts';
import { textToImageLab } from '../../../main/labs/text-to-image.ts';
import { writeRunReport } from '../../../main/reports/report-writer.ts';
import { measuredPoint, waivedPoint } from '../../../main/runs/point-result.ts';
import { GPU, WITH_GPU, asRunnerPlans } from '../labs/synthetic.ts';
import { fixture, packed, pdfText, savePdf } from './pdf-tools.ts';

function run(): RunRecord {
  const params = validateParams('text-to-image', textToImageLab.descriptor.parameters, { steps: 20 });
  const planned = textToImageLab.plan(params, asRunnerPlans(textToImageLab, WITH_GPU));
  const points = planned.map((p) => {
    if (!p.measurement) return waivedPoint(p);
    const gpu = p.device !== 'cpu';
    const batch = Number(p.key.split('@')[1] ?? 1);
    const median = p.key.includes('text') ? (gpu ? 4 : 90) : (gpu ? 60 : 3000) * batch * (p.key.includes('fp16') ? 0.4 : 1);
    const hostMs = [-1, -0.5, -0.25, 0, 0, 0.25, 0.5, 1].map((k) => median * (1 + 0.01 * k));
    return measuredPoint(p, {
      clock: p.clock,
      hostMs,
      deviceMs: null,
      executionsPerSample: 1,
      implementation: 'torch 2.11; SD 1.5’s U-Net shapes, random weights (Python 3.12.3)',
      threads: 1,
      verification: { method: 'sampled', checked: 16384, total: 16384 * batch, relativeError: 4e-6, tolerance: 5e-4, passed: true, mismatches: [] },
      telemetry: null,
      memory: { bytes: gpu ? 2.1e9 * batch : 5.3e9, where: gpu ? 'device' : 'host' },
    });
  });
  const { summary, findings } = textToImageLab.analyze(points, params, GPU);
  const template = fixture('h100-dtypes');
  return { ...template, id: '20261201T100000Z-text-to-image-1a2b3c', lab: 'text-to-image', labTitle: textToImageLab.descriptor.title, params, peers: ['torch', 'transformers'], points, summary, findings };
}

describe('the text-to-image chapter', () => {
  it('answers the notebook’s question from the run and says that the weights are random and no image is produced (English)', async () => {
    const pdf = await writeRunReport(run(), { date: new Date('2026-12-01T10:00:00Z'), writerVersion: '0.1.0', locale: 'en' });
    const text = packed(pdfText(savePdf(pdf.bytes, 't2i-en.pdf')));
    expect(text).toContain(packed('How much faster is the GPU for generating an image?'));
    expect(text).toContain(packed('One image of 20 steps at batch 1 takes'));
    expect(text).toContain(packed('the GPU is'));
    expect(text).toContain(packed('Random weights: no image is produced.'));
    expect(text).toContain(packed('Why?'));
    expect(text).toContain(packed('the same work on both sides'));
    expect(text).toContain(packed('Is the GPU’s arithmetic right?'));
  });

  it('in Spanish too', async () => {
    const pdf = await writeRunReport(run(), { date: new Date('2026-12-01T10:00:00Z'), writerVersion: '0.1.0', locale: 'es' });
    const text = packed(pdfText(savePdf(pdf.bytes, 't2i-es.pdf')));
    expect(text).toContain(packed('¿Cuánto más rápida es la GPU para generar una imagen?'));
    expect(text).toContain(packed('Pesos aleatorios: no se produce ninguna imagen.'));
    expect(text).toContain(packed('Una imagen de 20 pasos con un lote de 1 tarda'));
    expect(text).toContain(packed('la GPU es'));
  });
});
