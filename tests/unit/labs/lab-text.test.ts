// The labs in two languages: the Spanish catalog says everything the English one says (the same message ids, the
// same named values in each), every lab describes itself in Spanish, and every finding a real run gives reads in
// Spanish, with its numbers written the Spanish way, even a run recorded before findings were messages.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { placeholders, type Message, type MessageValue } from '../../../main/common/pure/message.ts';
import { type RunRecord } from '../../../main/common/run-record.ts';
import { STORED_RECORD } from '../../../main/runs/stored-record.ts';
import { ANALYSIS_VERSION, LABS, findLab, labDescriptors } from '../../../main/labs/index.ts';
import { labText as labTextEn } from '../../../main/common/pure/i18n/en/lab-text.ts';
import { labDescriptors as labDescriptorsEs, labText as labTextEs, sharedParameters as sharedParametersEs } from '../../../main/common/pure/i18n/es/lab-text.ts';
import { findingText, labMessage, labMessages } from '../../../main/labs/lab-text.ts';
import { withCurrentFindings } from '../../../main/runs/current-findings.ts';

type Tree = { readonly [key: string]: string | Tree };

function flat(node: string | Tree, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (typeof node === 'string') out.set(prefix, node);
  else for (const [k, v] of Object.entries(node)) flat(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

// The strings a message quotes from the record as they are, with a version in them ("OpenBLAS 0.3.26"), in its values
// and in those of the messages it holds; formatted numbers are the finding's own and are left out.
function quotedNames(message: Message | undefined): string[] {
  return Object.values(message?.values ?? {}).flatMap((v: MessageValue): string[] => {
    if (typeof v === 'string') return /\d\.\d/.test(v) ? [v] : [];
    return typeof v === 'object' && 'key' in v ? quotedNames(v) : [];
  });
}

const FIXTURES = join(import.meta.dirname, '../../fixtures/runs');
const fixtureRuns: RunRecord[] = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .map((f) => STORED_RECORD.parse(JSON.parse(readFileSync(join(FIXTURES, f), 'utf8'))))
  .filter((r) => Array.isArray(r.findings));

describe('the labs catalog in English and Spanish', () => {
  const en = flat(labTextEn as Tree);
  const es = flat(labTextEs as Tree);

  it('has the same message ids in both languages', () => {
    expect([...es.keys()].sort()).toEqual([...en.keys()].sort());
  });

  it.each([...en.keys()])('%s uses the same named values in Spanish', (key) => {
    expect(placeholders(es.get(key) ?? ''), es.get(key)).toEqual(placeholders(en.get(key) ?? ''));
    expect(es.get(key)?.split('|').length, 'plural forms').toBe(en.get(key)?.split('|').length);
  });

  it.each(LABS.map((l) => [l.descriptor.id, l.descriptor] as const))('%s describes itself in Spanish, every paragraph, parameter and preset', (id, d) => {
    const text = labDescriptorsEs[id];
    expect(text, `${id} has no Spanish descriptor`).toBeTruthy();
    if (!text) return;
    expect(text.explanation).toHaveLength(d.explanation.length);
    expect(text.lookFor).toHaveLength(d.lookFor.length);
    for (const p of d.parameters) {
      const words = text.parameters[p.name] ?? (sharedParametersEs as Record<string, unknown>)[p.name];
      expect(words, `${id}: parameter ${p.name}`).toBeTruthy();
    }
    for (const key of Object.keys(text.parameters)) expect(d.parameters.map((p) => p.name), `${id}: Spanish words for a parameter it lacks`).toContain(key);
    expect(Object.keys(text.presets).sort()).toEqual(d.presets.map((p) => p.id).sort());
    const es = labDescriptors('es').find((x) => x.id === id);
    expect(es?.series.map((s) => s.label)).toEqual(d.series.map((s) => flat(labTextEs as Tree).get(`${id}.series.${s.key}`)));
    // The English words of the lab are its own: nothing of them may come back unchanged in Spanish.
    expect(es?.title).not.toBe(d.title);
    expect(es?.explanation.filter((p, i) => p === d.explanation[i])).toEqual([]);
  });

  it('attaches to each descriptor the templates of its findings in the language asked for', () => {
    const mb = labDescriptors('es').find((d) => d.id === 'matmul-breakeven');
    expect(mb?.messages?.['matmul-breakeven.findings.overtakes']).toBe(labMessages('matmul-breakeven', 'es')['matmul-breakeven.findings.overtakes']);
    expect(labDescriptors('en').find((d) => d.id === 'matmul-breakeven')?.messages?.['matmul-breakeven.findings.overtakes']).toMatch(/overtakes \{cpu\}/);
  });
});

describe('findings of real runs, read in Spanish', () => {
  it.each(fixtureRuns.map((r) => [`${r.lab} (${r.device})`, r] as const))('%s: every finding of a fresh analysis has a message that reads in Spanish', (_name, record) => {
    const lab = findLab(record.lab);
    if (!lab) throw new Error(record.lab);
    const gpu = record.environment.devices?.devices.find((d) => d.id === record.device && d.kind === 'cuda') ?? null;
    const cpu = record.environment.devices?.devices.find((d) => d.kind === 'cpu') ?? null;
    const findings = lab.analyze(record.points, record.params, gpu, cpu).findings;
    // A run whose every point was waived (transfer without a GPU) has the runner's findings only.
    if (record.points.every((p) => p.status === 'waived')) return;
    expect(findings.length).toBeGreaterThan(0);
    for (const f of findings) {
      const en = findingText(f, 'en');
      const es = findingText(f, 'es');
      expect(en, f.id).not.toMatch(/[{}]/);
      expect(es, f.id).not.toMatch(/[{}]/);
      expect(es, f.id).not.toBe(en);
      // A decimal point of the English is a decimal comma in Spanish, and never the other way; names quoted from the
      // record as they are (a library's version, "OpenBLAS 0.3.26"), at any depth of the message (a library inside a
      // CPU series' name), are not numbers of the finding.
      const quoted = quotedNames(f.message);
      const prose = (text: string): string => quoted.reduce((s, q) => s.split(q).join(''), text);
      if (/\d\.\d/.test(prose(en))) expect(prose(es), f.id).toMatch(/\d,\d/);
      expect(prose(es), f.id).not.toMatch(/\d\.\d/);
    }
  });

  it('reads a run stored with English findings, or with words an older analysis wrote, with the current analysis', () => {
    const stored = fixtureRuns.find((r) => r.lab === 'matmul-breakeven' && r.device.startsWith('cuda'));
    if (!stored) throw new Error('no H100 matmul-breakeven fixture');
    // As a version before findings were messages stored it: English text, free-text units, a percent as share × 100,
    // and a sentence an older analysis wrote which the current one corrects.
    const legacy = stored.findings.map((f, i) => ({
      id: f.id,
      text: `${findingText(f, 'en')}${i === 0 ? ' (worded by an older version)' : ''}`,
      value: f.value,
      unit: i === 0 ? '×' : '',
      tone: f.tone,
    }));
    // Legacy findings are version 1's: the stored file as it is, its findings replaced.
    const file = JSON.parse(readFileSync(join(FIXTURES, 'h100-matmul-breakeven.json'), 'utf8')) as Record<string, unknown>;
    expect(file.schemaVersion).toBe(1);
    const old = STORED_RECORD.parse({ ...file, findings: legacy });
    expect(old.findings[0]).toMatchObject({ message: { key: 'common.recorded' }, unit: 'times' });
    const read = withCurrentFindings(old);
    expect(read.analysisVersion).toBe(ANALYSIS_VERSION);
    expect(read.findings.map((f) => findingText(f, 'en')).join('\n')).not.toContain('(worded by an older version)');
    for (const f of read.findings) expect(f.message.key, f.id).not.toBe('common.recorded');
    const overtakes = read.findings.find((f) => f.id === 'gpu-transfers-break-even');
    if (!overtakes) throw new Error('no break-even finding');
    // Stored before the CPU was named, it names it now: GPU Lab's BLAS with the library the record says it ran on.
    expect(findingText(overtakes, 'es')).toMatch(/^La GPU con transferencias supera a la BLAS de la CPU de GPU Lab \(OpenBLAS 0\.3\.26\) a partir de N ≈ \d+( \(en algún punto entre N = \d+ y N = \d+, dentro de la incertidumbre de las medianas\))?\.$/);
    expect(STORED_RECORD.parse({ ...file, findings: [{ ...legacy[0], unit: '%', value: 42 }] }).findings[0]).toMatchObject({ unit: 'share', value: 0.42 });
  });

  it('keeps the findings of a run in progress, and of a lab this version does not know', () => {
    const stored = fixtureRuns.find((r) => r.lab === 'matmul-breakeven');
    if (!stored) throw new Error('no matmul-breakeven fixture');
    const running: RunRecord = { ...stored, status: 'running', findings: [{ id: 'x', message: { key: 'common.recorded', values: { text: 'provisional' } }, value: null, unit: 'none', tone: 'info' }] };
    expect(withCurrentFindings(running).findings).toEqual(running.findings);
    const unknown: RunRecord = { ...stored, lab: 'roofline', findings: running.findings };
    expect(withCurrentFindings(unknown)).toBe(unknown);
  });

  it('writes the numbers of a message the way each language writes them', () => {
    // The library's version inside the CPU's name is the record's, written as it is in both languages.
    const cpu = { key: 'common.cpu.ownBlas', values: { library: 'OpenBLAS 0.3.26' } };
    const m = { key: 'matmul-breakeven.findings.cpuRate', values: { cpu, rate: { num: 1083.4, as: 'rate' as const, unit: 'GFLOP/s' as const }, n: 5000, time: { num: 0.0425, as: 'ms' as const } } };
    expect(labMessage(m, 'en')).toBe('GPU Lab’s CPU BLAS (OpenBLAS 0.3.26) peaks at 1.083 TFLOP/s (N = 5000, 42.5 µs).');
    expect(labMessage(m, 'es')).toBe('Como máximo, la BLAS de la CPU de GPU Lab (OpenBLAS 0.3.26) alcanza 1,083 TFLOP/s (N = 5000, 42,5 µs).');
  });
});
