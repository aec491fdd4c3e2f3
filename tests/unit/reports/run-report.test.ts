// The report of one run, for every lab, from the runs recorded on an H100 and on this CPU-only machine, read back with
// poppler: every figure of the app's results table formatted as the app shows it, every finding, every value and
// answer of the course's deliverable, the device, the author and course with their accents; pdfinfo's page count and
// metadata; and every page drawn by pdftoppm without a complaint.
import { spawnSync } from 'node:child_process';

import { describe, expect, it } from 'vitest';

import { labDeliverable } from '../../../main/reports/deliverables/index.ts';
import { reportT } from '../../../main/reports/report-context.ts';
import { writeRunReport } from '../../../main/reports/report-writer.ts';
import { findLab } from '../../../main/labs/index.ts';
import type { TableCell } from '../../../main/reports/table.ts';
import { FIXTURES, WEBGPU_FIXTURES, bodyText, deviceNameOf, fixture, packed, pdfInfo, pdfText, renderPages, resultFigures, savePdf, spaced } from './pdf-tools.ts';
import { findingText } from '../../../main/labs/lab-text.ts';
import { withCurrentFindings } from '../../../main/runs/current-findings.ts';
import { datasheetPeak, gpuPeaks } from '../../../main/common/pure/gpu-peaks.ts';
import { formatRate } from '../../../main/common/pure/format.ts';

const AUTHOR = 'Laura Llamas López';
const COURSE = 'Programación de GPUs, curso 2026–27';

describe.each([...FIXTURES, ...WEBGPU_FIXTURES])('the report of %s', (name) => {
  const record = fixture(name);
  const written = writeRunReport(record, { author: AUTHOR, course: COURSE, date: new Date('2026-11-24T10:00:00Z'), writerVersion: '0.1.0' });

  it('holds every figure of the results table as the app formats it, the findings, the device, the author and the course', async () => {
    const pdf = await written;
    const text = bodyText(pdfText(savePdf(pdf.bytes)), [`GPU Lab 0.1.0 · ${pdf.title}`, `${AUTHOR} · ${COURSE}`]);
    const figures = resultFigures(record);
    if (record.points.some((p) => p.status === 'ok')) expect(figures.length).toBeGreaterThan(0);
    const missing = figures.filter((f) => !spaced(text).includes(f));
    expect(missing).toEqual([]);
    // The findings as this version derives them from the points, not as an older version recorded them.
    for (const finding of withCurrentFindings(record).findings) expect(packed(text)).toContain(packed(findingText(finding, 'en')));
    expect(text).toContain(deviceNameOf(record));
    expect(text).toContain(AUTHOR);
    expect(text).toContain(COURSE);
    expect(text).toContain(record.id);
    // A verified point shows its check; a figure in microseconds keeps its µ.
    if (record.points.some((p) => p.verification?.passed)) expect(text).toContain('✓');
    if (figures.some((f) => f.includes('µs'))) expect(text).toContain('µs');
  });

  it('ends each lab with its deliverable: every value of its tables and every answer', async () => {
    const pdf = await written;
    const text = packed(bodyText(pdfText(savePdf(pdf.bytes)), [`GPU Lab 0.1.0 · ${pdf.title}`, `${AUTHOR} · ${COURSE}`]));
    const lab = findLab(record.lab)?.descriptor;
    if (!lab) throw new Error(`no lab ${record.lab}`);
    const deliverable = labDeliverable({ record: withCurrentFindings(record), lab, t: reportT });
    if (!deliverable) throw new Error(`no deliverable for ${record.lab}`);
    const cells = deliverable.tables.flatMap((table) => table.rows.flatMap((row) => row.cells.map((c): TableCell => (typeof c === 'string' ? { text: c } : c))));
    expect(cells.length).toBeGreaterThan(3);
    for (const cell of cells) expect(text).toContain(packed(cell.text));
    expect(deliverable.answers.length).toBeGreaterThanOrEqual(3);
    for (const answer of deliverable.answers) {
      expect(text).toContain(packed(answer.question));
      expect(text).toContain(packed(answer.answer));
    }
  });

  it('has the metadata and the page count pdfinfo reads, and every page draws', async () => {
    const pdf = await written;
    const file = savePdf(pdf.bytes);
    const info = pdfInfo(file);
    expect(Number(info.Pages)).toBe(pdf.pages);
    expect(pdf.pages).toBeGreaterThanOrEqual(3);
    expect(info.Title).toBe(`GPU Lab report: ${record.labTitle}`);
    expect(info.Author).toBe(AUTHOR);
    expect(info.Subject).toContain(record.id);
    expect(info.Subject).toContain(deviceNameOf(record));
    const drawn = renderPages(file);
    expect(drawn.status).toBe(0);
    expect(drawn.stderr).toBe('');
    expect(drawn.images).toHaveLength(pdf.pages);
    const text = pdfText(file, pdf.pages);
    expect(text).toContain(`Page ${pdf.pages} of ${pdf.pages}`);
  });
});

describe('the embedded fonts', () => {
  it('carry accents and ≈ × µ ² ³ ✓ through to the text a reader copies out', async () => {
    const course = 'Cómputo de altas prestaciones: ≈ × µ ² ³ ✓ ñ ü';
    const pdf = await writeRunReport(fixture('h100-matmul'), { author: 'Íñigo Muñoz Núñez', course });
    const file = savePdf(pdf.bytes);
    const text = pdfText(file);
    expect(text).toContain(course);
    expect(text).toContain('Íñigo Muñoz Núñez');
    // The method's arithmetic and the interpolated sizes use the same glyphs.
    expect(text).toContain('2·N³');
    expect(text).toContain('3·N²');
    const fonts = pdfFonts(file);
    expect(fonts).toMatch(/DejaVuSans\b.*yes\s+yes\s+yes/);
    expect(fonts).toMatch(/DejaVuSansMono.*yes\s+yes\s+yes/);
    expect(fonts).not.toMatch(/Helvetica|Times|Courier/);
  });
});

// pdffonts: every font of the document, whether it is embedded, subset and has a Unicode map.
function pdfFonts(file: string): string {
  return spawnSync('pdffonts', [file], { encoding: 'utf8' }).stdout;
}

describe('the parameters table', () => {
  it('writes a parameter the run predates as "—" without calling it changed, and 0 CPU threads in words', async () => {
    const old = fixture('h100-matmul-breakeven');
    expect(old.params.threads).toBeUndefined();
    // Each row read as printed, its cells on one line.
    const before = pdfText(savePdf((await writeRunReport(old)).bytes), undefined, { layout: true });
    expect(before).toMatch(/CPU threads +— +the default/);
    const now = { ...old, params: { ...old.params, threads: 0 } };
    const after = pdfText(savePdf((await writeRunReport(now)).bytes), undefined, { layout: true });
    // 0 is a rule, not a count: its value is what it means, never "0 threads" (once more than the parameter's own
    // description says it).
    expect(after).toMatch(/CPU threads +every logical core +the default/);
    expect(after).not.toMatch(/0 threads/);
    expect(after.split('every logical core').length - before.split('every logical core').length).toBe(1);
  });
});

describe('the device section of an H100 report', () => {
  it('lists the tensor-core peaks the products are read against, each with its formula (fp64 at 67 TFLOP/s on sm_90)', async () => {
    const record = fixture('h100-dtypes');
    const pdf = await writeRunReport(record, { date: new Date('2026-11-26T10:00:00Z'), writerVersion: '0.1.0' });
    const text = spaced(pdfText(savePdf(pdf.bytes)));
    const device = record.environment.devices?.devices.find((d) => d.id === record.device);
    const peaks = gpuPeaks(device?.details ?? {}).filter((p) => p.name.endsWith('-tensor'));
    expect(peaks.map((p) => p.name)).toEqual(['fp64-tensor', 'tf32-tensor', 'fp16-tensor', 'bf16-tensor', 'int8-tensor']);
    // Each peak as NVIDIA's datasheet states it for the H100 SXM, what % of peak divides by, and beneath it the figure
    // at the clock the device reports, with its arithmetic.
    for (const peak of peaks) {
      const sheet = datasheetPeak(device?.name, peak.name);
      expect(sheet).not.toBeNull();
      expect(text).toContain(`Theoretical ${peak.name.replace('-tensor', '')} tensor-core rate ${formatRate(sheet?.value ?? 0, peak.unit, 'en')}`);
      expect(text).toContain(formatRate(peak.value, peak.unit, 'en'));
    }
    // fp16: 989.5 TFLOP/s on the datasheet (at 1830 MHz), 1071 at the reported 1980 MHz.
    expect(text).toContain('Theoretical fp16 tensor-core rate 989.5 TFLOP/s NVIDIA’s figure for the H100 SXM; at the clock the device reports: 132 SMs × 4,096 FLOP/clock × 1,980 MHz = 1,071 TFLOP/s (Hopper, sm_90)');
    // The fp64 tensor cores of an H100 SXM: 132 SMs × 256 FLOP/clock × 1980 MHz.
    expect(text).toContain('132 SMs × 256 FLOP/clock × 1,980 MHz = 66.91 TFLOP/s');
  });
});

describe('the device section of a CPU report', () => {
  it('says where the last-level cache’s size comes from and that a virtual machine may see less of it, in both languages', async () => {
    const record = fixture('cpu-elementwise-breakeven');
    for (const [locale, words] of [
      ['en', 'The chip’s, as the CPU reports it (CPUID, through glibc); a virtual machine may be given only part of it.'],
      ['es', 'La del chip, tal como la declara la CPU (CPUID, a través de glibc); una máquina virtual puede recibir solo una parte.'],
    ] as const) {
      const pdf = await writeRunReport(record, { locale, date: new Date('2026-11-26T10:00:00Z'), writerVersion: '0.1.0' });
      expect(packed(pdfText(savePdf(pdf.bytes)))).toContain(packed(words));
    }
  });
});
