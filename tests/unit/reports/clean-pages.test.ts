// The report of every lab from the recorded GPU runs (tests/fixtures/runs, and the runs with the course's Python
// peers, tests/fixtures/peer-runs), in English and in Spanish, read back with pdftotext as a reader's tools read it:
// no message key or field name where words should be, no median's interval printed as ±100 % or more, no matrix
// size with a fraction, no measured figure headed as a theoretical one, no rate's unit broken over two lines, and
// every number in the one format of its language.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { formatRate } from '../../../main/common/pure/format.ts';
import { LAB_IDS } from '../../../main/common/lab-descriptor.ts';
import type { Locale } from '../../../main/common/pure/locale.ts';
import type { RunRecord } from '../../../main/common/run-record.ts';
import { STORED_RECORD } from '../../../main/runs/stored-record.ts';
import { writeLabsReport } from '../../../main/reports/report-writer.ts';
import { inReportLocale } from '../../../main/reports/report-locale.ts';
import { pdfText, savePdf } from './pdf-tools.ts';

function recorded(folder: string): RunRecord[] {
  const dir = fileURLToPath(new URL(`../../fixtures/${folder}/`, import.meta.url));
  return readdirSync(dir)
    .filter((n) => n.endsWith('.json') && !n.startsWith('cpu-'))
    .map((n) => STORED_RECORD.parse(JSON.parse(readFileSync(join(dir, n), 'utf8'))));
}

// A message id the catalogs lack comes back as itself: "pdf.kernels.kind.python", "common.peers.agree",
// "matmul-breakeven.findings.range". Code in the kernel listings has no such dotted run of three parts under these names.
const NAMESPACES = ['pdf', 'results', 'common', 'reasons', 'devices', 'labs', ...LAB_IDS].map((n) => n.replace(/-/g, '\\-'));
const RAW_KEY = new RegExp(`\\b(${NAMESPACES.join('|')})\\.[A-Za-z][\\w-]*\\.[A-Za-z][\\w.-]*`, 'g');

// A number as the language writes it, read back: English groups with commas and has a decimal point, Spanish groups
// with points (from five digits) and has a decimal comma.
function parseNumber(text: string, locale: Locale): { value: number; whole: boolean } {
  const [group, decimal] = locale === 'en' ? [',', '.'] : ['.', ','];
  const plain = text.split(group).join('');
  const whole = !plain.includes(decimal);
  return { value: Number(plain.replace(decimal, '.')), whole };
}

const CASES = [
  { name: 'runs', records: recorded('runs'), device: 'cuda:0' },
  { name: 'peer-runs', records: recorded('peer-runs'), device: 'cuda:0' },
  { name: 'webgpu-runs', records: recorded('webgpu-runs'), device: 'webgpu:0' },
].flatMap((c) => (['en', 'es'] as const).map((locale) => ({ ...c, locale })));

describe.each(CASES)('the report of every lab from the recorded GPU $name, in $locale', ({ records, locale, device }) => {
  const written = writeLabsReport(records, device, { locale, author: 'Laura Llamas López', course: 'Programación de GPUs', date: new Date('2026-11-24T10:00:00Z') });
  const text = written.then((pdf) => pdfText(savePdf(pdf.bytes)));

  it('has no message key and no field name where its words should be', async () => {
    const body = await text;
    expect(body.match(RAW_KEY) ?? []).toEqual([]);
    // The devices' details are shown under their labels, never under the record's own names ("peakReason").
    const fields = new Set(records.flatMap((r) => r.environment.devices?.devices.flatMap((d) => Object.keys(d.details)) ?? []));
    expect([...fields].filter((f) => /[a-z][A-Z]/.test(f) && new RegExp(`\\b${f}\\b`).test(body))).toEqual([]);
  });

  it('prints no interval as ±100 % or more: a lopsided one by its two ends', async () => {
    const body = await text;
    const wide = [...body.matchAll(/±\s?(<\s?)?(\d[\d.,]*)\s?%/g)].map((m) => m[2] ?? '').filter((n) => parseNumber(n, locale).value >= 100);
    expect(wide).toEqual([]);
    expect(body).toMatch(locale === 'en' ? /\[\d[\d.,]* [µnm]?s, \d[\d.,]* [µnm]?s\]/ : /\[\d[\d.,]* [µnm]?s; \d[\d.,]* [µnm]?s\]/);
  });

  it('writes every matrix size N whole, interpolated ones included', async () => {
    const body = (await text).replace(/\s+/g, ' ');
    const sizes = [...body.matchAll(/\bN ?[=≈] ?(\d[\d.,]*\d|\d)/g)].map((m) => m[1] ?? '');
    expect(sizes.length).toBeGreaterThan(20);
    expect(sizes.filter((n) => !parseNumber(n, locale).whole)).toEqual([]);
  });

  it('heads a figure measured on this machine as measured, never as theoretical', async () => {
    const body = (await pdfText(savePdf((await written).bytes), 2, { layout: true })).split('\n');
    const cpus = records.flatMap((r) => r.environment.devices?.devices.filter((d) => d.kind === 'cpu' && d.details.peakMemorySource === 'measured') ?? []);
    const first = cpus[0];
    // The runs recorded before the compute host measured it have only theoretical figures.
    if (!first?.peakMemoryGBps) {
      expect(body.join('\n')).not.toMatch(/Measured memory bandwidth|Ancho de banda medido/);
      return;
    }
    const figure = inReportLocale(locale, () => formatRate(first.peakMemoryGBps ?? 0, 'GB/s'));
    const line = body.find((l) => l.includes(figure)) ?? '';
    expect(line).toMatch(locale === 'en' ? /Measured memory bandwidth/ : /Ancho de banda medido/);
    expect(line).not.toMatch(/Theoretical|teóric/);
  }, 20_000);

  it('keeps a rate’s unit on one line with its figure', async () => {
    const body = await text;
    expect(body.match(/(GB|TB|FLOP|OP)\/\s*\n\s*s\b/g) ?? []).toEqual([]);
    expect(body.match(/\d\n(GB|TB|GFLOP|TFLOP|GOP|TOP)\/s/g) ?? []).toEqual([]);
  });

  it('writes clocks and widths of four digits and more in its language’s one format', async () => {
    // "1,980 MHz" and "5,120 bit" in English, as every other count there; "1980 MHz" in Spanish, which groups from five.
    const counts = [...(await text).matchAll(/(?<![\w.,])(\d{4,}) (MHz|bits?)\b/g)].map((m) => m[1] ?? '');
    if (locale === 'en') expect(counts).toEqual([]);
    else expect(counts.filter((n) => n.length > 4)).toEqual([]);
  });
});
