// The Python peers in the course deliverable: the notebook's own rows beside GPU Lab's, marked apart, and under the
// table how far each agrees with GPU Lab's series that measures the same thing, read back with poppler in English and
// in Spanish; a run made without peers shows its tables as before. The runs are the H100 recordings of
// tests/fixtures/runs/ with peer points added as the runner records them: planned for what the GPU machine's
// interpreter offers (tests/fixtures/peers/h100.json, whose Numba has no usable CUDA target, so that series is waived
// with the probe's reason) and measured around chosen medians. The other labs' peer series (PyTorch's, added to their
// descriptors by another change) are checked on the deliverable itself, with descriptors that declare them.
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { agreementOf, estimateOf } from '../../../main/common/pure/claims.ts';
import { formatMs, formatPercent, formatTimes, formatWhole } from '../../../main/common/pure/format.ts';
import { pdf as wordsEn } from '../../../main/common/pure/i18n/en/pdf.ts';
import { pdf as wordsEs } from '../../../main/common/pure/i18n/es/pdf.ts';
import type { LabDescriptor, SeriesDescriptor } from '../../../main/common/lab-descriptor.ts';
import type { Locale } from '../../../main/common/pure/locale.ts';
import { msg } from '../../../main/common/pure/message.ts';
import { PEER_LIBRARIES, PEERS_REPORT } from '../../../main/common/peer-protocol.ts';
import { STORED_RECORD } from '../../../main/runs/stored-record.ts';
import type { Finding, PointResult, RunRecord } from '../../../main/common/run-record.ts';
import { countedSamples, summarize } from '../../../main/common/pure/statistics.ts';
import { agreementFinding } from '../../../main/labs/analysis.ts';
import { findLab } from '../../../main/labs/index.ts';
import { findingText, localizeDescriptor } from '../../../main/labs/lab-text.ts';
import type { Deliverable } from '../../../main/reports/deliverables/index.ts';
import { labDeliverable } from '../../../main/reports/deliverables/index.ts';
import { reportTranslate } from '../../../main/reports/report-context.ts';
import { inReportLocale } from '../../../main/reports/report-locale.ts';
import { writeRunReport } from '../../../main/reports/report-writer.ts';
import type { TableCell } from '../../../main/reports/table.ts';
import { withCurrentFindings } from '../../../main/runs/current-findings.ts';
import { pointReason } from '../../../main/common/pure/i18n/error-text.ts';
import { planContext } from '../../../main/runs/lab-runner.ts';
import { failedPoint, waivedPoint } from '../../../main/runs/point-result.ts';
import { pointFromPlan } from '../labs/synthetic.ts';
import { FIXTURES, bodyText, fixture, packed, pdfText, savePdf } from './pdf-tools.ts';

const PROBE = PEERS_REPORT.parse(JSON.parse(readFileSync(new URL('../../fixtures/peers/h100.json', import.meta.url), 'utf8')));
const OPTIONS = { author: 'Laura Llamas López', course: 'Programación de GPUs', date: new Date('2026-11-24T10:00:00Z'), writerVersion: '0.1.0' };
const MARK: Record<Locale, string> = { en: 'the course’s code', es: 'el código del curso' };
const ADDITION: Record<Locale, string> = { en: 'GPU Lab’s addition', es: 'añadido por GPU Lab' };

function descriptorOf(id: string): LabDescriptor {
  const lab = findLab(id)?.descriptor;
  if (!lab) throw new Error(`no lab ${id}`);
  return lab;
}

// A recorded run with its lab's peer series added as the runner records them: each measured around its median here
// (five samples ±1 %), 'failed' as the Python worker's error, and waived where the probe says the library cannot run.
function withPeers(name: string, medians: Record<string, number | 'failed'>): RunRecord {
  const record = fixture(name);
  const lab = findLab(record.lab);
  const devices = record.environment.devices;
  if (!lab || !devices) throw new Error(`no lab or no devices for ${name}`);
  const ctx = planContext({ devices, versions: {}, pid: 0 }, record.device, { asked: PEER_LIBRARIES, report: PROBE });
  const peers = new Set(lab.descriptor.series.filter((s) => s.peer).map((s) => s.key));
  const points = lab.plan(record.params, ctx).filter((p) => peers.has(p.series)).map((p) => {
    if (!p.measurement) return waivedPoint(p);
    const median = medians[p.series];
    if (median === undefined) throw new Error(`no median for ${p.series}`);
    return median === 'failed' ? failedPoint(p, { code: 'PEER_FAILED', message: 'CUDA out of memory' }) : pointFromPlan(p, median);
  });
  return { ...record, points: [...record.points, ...points] };
}

const text = (c: string | TableCell | undefined): string => (typeof c === 'string' ? c : (c?.text ?? ''));
// A peer row is marked under its first cell that says what it is (elementwise-breakeven's second: its GPU path): the
// course's code, or GPU Lab's addition in Python.
const isPeerRow = (cells: (string | TableCell)[], locale: Locale): boolean => cells.some((c) => typeof c === 'object' && [MARK[locale], ADDITION[locale]].some((m) => (c.note ?? '').includes(m)));
const markOf = (cells: (string | TableCell)[]): string => cells.map((c) => (typeof c === 'object' ? (c.note ?? '') : '')).find((n) => n.startsWith('Python · ')) ?? '';
const peerRows = (d: Deliverable, locale: Locale, table = 0): string[][] => (d.tables[table]?.rows ?? []).filter((r) => isPeerRow(r.cells, locale)).map((r) => r.cells.map(text));
const agreements = (record: RunRecord): Finding[] => record.findings.filter((f) => f.id.endsWith('-agreement'));

// The deliverable as the report writes it: the run's current findings, the lab's words and numbers in `locale`.
function deliverableIn(record: RunRecord, locale: Locale): Deliverable {
  const lab = localizeDescriptor(descriptorOf(record.lab), locale);
  const d = inReportLocale(locale, () => labDeliverable({ record: withCurrentFindings(record), lab, t: reportTranslate(locale) }));
  if (!d) throw new Error(`no deliverable for ${record.lab}`);
  return d;
}

// The deliverable's part of the PDF's text: from its heading to its questions, so that a finding printed there is not
// mistaken for the same finding in the findings section.
async function deliverableText(record: RunRecord, locale: Locale): Promise<string> {
  const pdf = await writeRunReport(record, { ...OPTIONS, locale });
  const all = bodyText(pdfText(savePdf(pdf.bytes)), [`GPU Lab 0.1.0 · ${pdf.title}`, `${OPTIONS.author} · ${OPTIONS.course}`]).replace(/Página \d+ de \d+/g, ' ');
  const sections = (locale === 'es' ? wordsEs : wordsEn).sections;
  const from = all.indexOf(`\n${sections.deliverable}\n`);
  const to = all.indexOf(`\n${sections.questions}\n`, from);
  expect(from).toBeGreaterThan(0);
  expect(to).toBeGreaterThan(from);
  return packed(all.slice(from, to));
}

// The peer's time over GPU Lab's with its interval, as the sentence must give them, in the report's numbers.
function ratioFigures(record: RunRecord, peer: string, ours: string, locale: Locale): string[] {
  const find = (series: string): PointResult | undefined => record.points.find((p) => p.series === series);
  const ep = estimateOf(find(peer));
  const eo = estimateOf(find(ours));
  if (!ep || !eo) throw new Error(`no estimate for ${peer} or ${ours}`);
  // A difference within 0.5× to 1.5× is said in percent of the time, anything else as the ratio and its range.
  const a = agreementOf(eo, ep);
  const r = a.ratio;
  const inPercent = a.kind === 'differ' && r.low >= 0.5 && r.high <= 1.5;
  const [least, most] = a.kind === 'differ' && a.order === 'faster' ? [1 - r.high, 1 - r.low] : [r.low - 1, r.high - 1];
  return inReportLocale(locale, () => [...(inPercent ? [formatPercent(least), formatPercent(most)] : [formatTimes(r.value), formatTimes(r.low), formatTimes(r.high)]), formatMs(ep.median), formatMs(eo.median)]);
}

describe.each(['en', 'es'] as const)('the notebook’s rows in the PDF’s deliverable (%s)', (locale) => {
  const matmul = withPeers('h100-matmul', { 'numpy-matmul': 720, 'torch-resident': 14.9, 'torch-copies': 'failed' });
  const vector = withPeers('h100-vector-function', {
    'numpy-notebook': 30,
    'numba-njit': 6.8,
    'numba-parallel': 0.9,
    'cupy-notebook': 0.35,
    'cupy-fused': 0.044,
    'cupy-copies': 14.2,
  });

  it('matmul: the notebook’s table over NumPy, its baseline, with GPU Lab’s CPU BLAS beside it, then GPU Lab’s methods; and how far they agree', async () => {
    const d = deliverableIn(matmul, locale);
    const current = withCurrentFindings(matmul);
    const lab = localizeDescriptor(descriptorOf('matmul'), locale);
    const t = reportTranslate(locale);
    const label = (key: string): string => lab.series.find((s) => s.key === key)?.label ?? key;
    const cpu = current.points.find((p) => p.series === 'cpu-blas')?.stats?.median ?? Number.NaN;
    // The notebook's rows in its order (NumPy, PyTorch with the copies, without them), each the course's code.
    const [numpy, copies, resident] = peerRows(d, locale);
    expect(peerRows(d, locale).length).toBe(3);
    expect(d.tables[0]?.rows.length).toBe(3);
    expect(d.tables[1]?.rows.length).toBe(5);
    expect((d.tables[0]?.rows ?? []).map((r) => markOf(r.cells))).toEqual(['NumPy', 'PyTorch', 'PyTorch'].map((l) => `Python · ${l}, ${MARK[locale]}`));
    inReportLocale(locale, () => {
      expect(numpy).toEqual([label('numpy-matmul'), formatMs(720), formatTimes(1), formatTimes(cpu / 720), '—']);
      expect(resident).toEqual([label('torch-resident'), formatMs(14.9), formatTimes(720 / 14.9), formatTimes(cpu / 14.9), '—']);
    });
    expect(copies).toEqual([label('torch-copies'), t('results.status.failed'), '—', '—', '—']);
    // GPU Lab's methods read over the same baseline, NumPy, and over GPU Lab's CPU BLAS beside it.
    const ours = (d.tables[1]?.rows ?? []).map((r) => r.cells.map(text));
    inReportLocale(locale, () => {
      for (const row of ours.slice(1)) {
        const p = current.points.find((q) => label(q.series) === row[0]);
        const ms = p?.stats?.median ?? Number.NaN;
        expect(row.slice(2, 4)).toEqual([formatTimes(720 / ms), formatTimes(cpu / ms)]);
      }
    });
    // PyTorch resident against cuBLAS resident: the analysis's sentence, with the ratio and its interval.
    const found = agreements(current);
    expect(found.map((f) => f.id)).toContain('torch-resident-agreement');
    const agreement = found.find((f) => f.id === 'torch-resident-agreement');
    const sentence = agreement ? findingText(agreement, locale) : '';
    for (const figure of ratioFigures(current, 'torch-resident', 'gpu-cublas', locale)) expect(sentence).toContain(figure);
    // Under the notebook's table: which baseline, then those sentences and nothing else (none for the copies, which
    // failed).
    const note = t('pdf.deliverable.against.note', { course: label('numpy-matmul'), own: label('cpu-blas') });
    expect(d.tables[0]?.notes).toEqual([note, ...found.map((f) => findingText(f, locale))]);
    // Read back from the PDF: the rows, their mark and the sentences under the table.
    const printed = await deliverableText(matmul, locale);
    for (const row of [numpy, resident, copies]) for (const cell of row ?? []) expect(printed).toContain(packed(cell));
    expect(printed).toContain(packed(`Python · NumPy, ${MARK[locale]}`));
    expect(printed).toContain(packed(`Python · PyTorch, ${MARK[locale]}`));
    expect(printed).toContain(packed(note));
    for (const f of found) expect(printed).toContain(packed(findingText(f, locale)));
  });

  it('vector-function: the notebook’s three tables over Numba’s @njit, its baseline, GPU Lab’s additions marked as such, and Numba’s CUDA target waived with the probe’s reason', async () => {
    const d = deliverableIn(vector, locale);
    const current = withCurrentFindings(vector);
    const t = reportTranslate(locale);
    const lab = localizeDescriptor(descriptorOf('vector-function'), locale);
    const label = (key: string): string => lab.series.find((s) => s.key === key)?.label ?? key;
    // The notebook's Table 1 (the CPU), 2 (CuPy) and 3 (Numba on the GPU), its code in each row, the copies first.
    const course = [['numba-njit', 'numpy-notebook'], ['cupy-copies', 'cupy-notebook'], ['numba-cuda-copies', 'numba-cuda-vectorize']];
    for (const [i, keys] of course.entries()) {
      expect(d.tables[i]?.rows.map((r) => text(r.cells[0]))).toEqual(keys.map(label));
      for (const r of d.tables[i]?.rows ?? []) expect(markOf(r.cells)).toContain(MARK[locale]);
    }
    const rows = (i: number): string[][] => (d.tables[i]?.rows ?? []).map((r) => r.cells.map(text));
    const threads = current.points.find((p) => p.series === 'cpu-threads')?.stats?.median ?? Number.NaN;
    inReportLocale(locale, () => {
      // Numba's loop is the baseline; every speedup is over it, and over GPU Lab's threads beside it.
      expect(rows(0)[0]).toEqual([label('numba-njit'), formatMs(6.8), formatTimes(1), formatTimes(threads / 6.8), '—']);
      expect(rows(0)[1]?.slice(1, 4)).toEqual([formatMs(30), formatTimes(6.8 / 30), formatTimes(threads / 30)]);
      // The notebook's "Overhead de copia" for CuPy: with the copies less the same code on data already there.
      expect(rows(1)[0]?.[4]).toBe(formatMs(14.2 - 0.35));
      expect(rows(1)[0]?.[2]).toBe(formatTimes(6.8 / 14.2));
    });
    expect(rows(2)[1]?.slice(1)).toEqual([t('results.status.waived'), '—', '—', '—']);
    const waived = current.points.find((p) => p.series === 'numba-cuda-vectorize');
    expect(waived?.reason).toMatch(/numba 0\.68\.0 has no working CUDA here: AttributeError/);
    const waivedNote = t('pdf.deliverable.waivedNote', { reason: waived ? inReportLocale(locale, () => pointReason(waived, t)) : '' });
    expect(d.tables[2]?.notes).toContain(waivedNote);
    // GPU Lab's own table: its series, then its additions in Python, each marked as GPU Lab's, never as the course's.
    const own = d.tables.at(-1);
    const additions = (own?.rows ?? []).filter((r) => markOf(r.cells) !== '');
    expect(additions.map((r) => text(r.cells[0]))).toEqual([label('numba-parallel'), label('cupy-fused')]);
    for (const r of additions) expect(markOf(r.cells)).toMatch(new RegExp(`^Python · (Numba|CuPy), ${ADDITION[locale]}$`));
    const found = agreements(current);
    expect(found.map((f) => f.id).sort()).toEqual(['cupy-copies-agreement', 'cupy-fused-agreement', 'numba-njit-agreement', 'numba-parallel-agreement']);
    for (const [peer, ours] of [['numba-njit', 'cpu-single'], ['numba-parallel', 'cpu-threads'], ['cupy-fused', 'gpu-fused'], ['cupy-copies', 'gpu-transfers']] as const) {
      const f = found.find((x) => x.id === `${peer}-agreement`);
      for (const figure of ratioFigures(current, peer, ours, locale)) expect(f ? findingText(f, locale) : '').toContain(figure);
    }
    const printed = await deliverableText(vector, locale);
    for (const table of d.tables) for (const r of table.rows) for (const cell of r.cells) expect(printed).toContain(packed(text(cell)));
    expect(printed).toContain(packed(waivedNote));
    expect(printed).toContain(packed(`Python · Numba, ${ADDITION[locale]}`));
    for (const f of found) expect(printed).toContain(packed(findingText(f, locale)));
  });

  it('a run without peers shows GPU Lab’s rows only', async () => {
    for (const name of ['h100-matmul', 'h100-vector-function', 'cpu-matmul', 'cpu-vector-function', 'lavapipe-matmul']) {
      const record = fixture(name);
      const d = deliverableIn(record, locale);
      // A WebGPU adapter's own series (matmul's tiled kernel with the copies) only where the run has it.
      const ours = (s: { key: string; peer?: string; webgpuOnly?: true }): boolean => !s.peer && !(s.webgpuOnly && !record.points.some((p) => p.series === s.key));
      const engine = descriptorOf(record.lab).series.filter(ours);
      expect(d.tables[0]?.rows.map((r) => text(r.cells[0]))).toEqual(localizeDescriptor(descriptorOf(record.lab), locale).series.filter(ours).map((s) => s.label));
      expect(d.tables[0]?.rows.length).toBe(engine.length);
      expect(peerRows(d, locale)).toEqual([]);
    }
    // The course's baseline is named only to say it was not measured, and why: the run did not time the course's Python.
    const printed = await deliverableText(fixture('h100-matmul'), locale);
    expect(printed).not.toContain(packed(MARK[locale]));
    const t = reportTranslate(locale);
    const labels = localizeDescriptor(descriptorOf('matmul'), locale).series;
    const name = (key: string): string => labels.find((x) => x.key === key)?.label ?? key;
    expect(printed).toContain(packed(t('pdf.deliverable.against.noteNotMeasured', { course: name('numpy-matmul'), own: name('cpu-blas'), why: t('pdf.deliverable.against.why.noPeers') })));
    for (const s of labels.filter((x) => x.peer && x.key !== 'numpy-matmul')) expect(printed).not.toContain(packed(s.label));
  });
});

it('no recorded run (none has peers) has a peer row in any table', () => {
  for (const name of FIXTURES) {
    const d = deliverableIn(fixture(name), 'en');
    for (const [i] of d.tables.entries()) expect(peerRows(d, 'en', i)).toEqual([]);
  }
});

// The other labs' PyTorch series, as their descriptors will declare them: the same deliverable builders give them rows
// in the tables those labs have, from the descriptor's `peer` alone.
describe('the other labs’ PyTorch peers get rows in their own tables', () => {
  // A GPU Lab point measured again as a peer's: the same samples × `factor`, under the peer's series and key.
  function asPeer(p: PointResult, series: string, factor = 1): PointResult {
    const hostMs = p.hostMs.map((v) => v * factor);
    const deviceMs = p.deviceMs?.map((v) => v * factor) ?? null;
    const samples = countedSamples({ clock: p.clock, hostMs, deviceMs });
    // Named by its label alone: GPU Lab's point's name would call it GPU Lab's.
    const { name: _ours, ...unnamed } = p;
    return {
      ...unnamed,
      key: p.key.replace(p.series, series),
      series,
      label: `PyTorch ${p.label}`,
      hostMs,
      deviceMs,
      stats: p.stats && samples.length > 0 ? summarize(samples) : p.stats,
      gbps: p.gbps === null ? null : p.gbps / factor,
      gflops: p.gflops === null ? null : p.gflops / factor,
    };
  }

  // The lab's descriptor with these peer series declared, and the run with their points: each repeats GPU Lab's
  // series' samples (× a factor), or is waived on this system.
  function withTorch(name: string, peers: Record<string, { ours: string; factor?: number; baseline?: string }>, waived?: string): { record: RunRecord; run: RunRecord; plain: LabDescriptor; lab: LabDescriptor } {
    // As a report reads it: the summary derived again from the points (a break-even with its range).
    const record = withCurrentFindings(fixture(name));
    // The lab as it was before it had PyTorch series, and with them declared here (labelled apart, so that a row
    // can be told from the lab's own words).
    const real = descriptorOf(record.lab);
    const plain = { ...real, series: real.series.filter((s) => !s.peer) };
    const declared = Object.entries(peers).map(([key, s]): SeriesDescriptor => ({ key, label: `PyTorch ${key}`, deviceKind: 'cuda', peer: 'torch', ...(s.baseline ? { baseline: s.baseline } : {}) }));
    const points = Object.entries(peers).flatMap(([key, s]) =>
      record.points.filter((p) => p.series === s.ours).map((p) => (key === waived ? { ...asPeer(p, key), status: 'waived' as const, reason: WAIVED, stats: null } : asPeer(p, key, s.factor))),
    );
    return { record, run: { ...record, points: [...record.points, ...points] }, plain, lab: { ...plain, series: [...plain.series, ...declared] } };
  }
  const WAIVED = 'torch 2.11.0+cu130 has no working CUDA here';

  interface Case {
    name: string;
    // Each peer series: GPU Lab's series it repeats, by what factor its times differ, and its speedup's baseline.
    peers: Record<string, { ours: string; factor?: number; baseline?: string }>;
    // A peer series waived on this system.
    waived?: string;
    // The agreement findings the peers' lab gives: its id, the peer's point and GPU Lab's, by key.
    agree: [string, string, string][];
    // How many peer rows each table has.
    rows: number[];
  }
  const ops = ['add', 'mul', 'exp'];
  const elementwise = Object.fromEntries(
    ops.flatMap((op) => [
      [`${op}-torch-cpu`, { ours: `${op}-cpu` }],
      [`${op}-torch-transfers`, { ours: `${op}-gpu-transfers`, baseline: `${op}-torch-cpu` }],
      [`${op}-torch-resident`, { ours: `${op}-gpu-resident`, baseline: `${op}-torch-cpu` }],
    ]),
  );
  const cases: Case[] = [
    {
      name: 'h100-transfer',
      peers: {
        'torch-h2d-pageable': { ours: 'h2d-pageable-sync', factor: 1.04 },
        'torch-h2d-pinned': { ours: 'h2d-pinned-sync', factor: 1.01 },
        'torch-d2h-pageable': { ours: 'd2h-pageable-sync', factor: 1.3 },
        'torch-d2h-pinned': { ours: 'd2h-pinned-sync' },
      },
      agree: [
        ['torch-h2d-pinned-agreement', 'torch-h2d-pinned@1073741824', 'h2d-pinned-sync@1073741824'],
        ['torch-d2h-pageable-agreement', 'torch-d2h-pageable@1073741824', 'd2h-pageable-sync@1073741824'],
      ],
      // One per article's copy, one per size of the host→device copies, then one per direction.
      rows: [3, new Set(fixture('h100-transfer').points.filter((p) => p.series === 'h2d-pinned-sync').map((p) => p.x)).size, 2],
    },
    {
      name: 'h100-elementwise-breakeven',
      peers: elementwise,
      agree: [['add-torch-resident-agreement', 'add-torch-resident@1000000', 'add-gpu-resident@1000000']],
      // Each operation's two GPU paths; the table of speedups at every size keeps GPU Lab's series only.
      rows: [6, 0],
    },
    {
      name: 'h100-matmul-breakeven',
      peers: { 'torch-cpu': { ours: 'cpu' }, 'torch-transfers': { ours: 'gpu-transfers', factor: 1.02 }, 'torch-resident': { ours: 'gpu-resident' } },
      agree: [['torch-transfers-agreement', 'torch-transfers@5000', 'gpu-transfers@5000']],
      rows: [5],
    },
    { name: 'h100-dtypes', peers: { torch: { ours: 'gpu' } }, agree: [['torch-fp32-agreement', 'torch-fp32', 'gpu-fp32']], rows: [6] },
    {
      name: 'h100-timing-pitfalls',
      peers: {
        'torch-no-sync': { ours: 'gpu-no-sync' },
        'torch-events': { ours: 'gpu-events' },
        'torch-time-time': { ours: 'gpu-events' },
        'torch-cold': { ours: 'gpu-cold' },
        'torch-warm': { ours: 'gpu-warm' },
      },
      waived: 'torch-time-time',
      agree: [['torch-events-agreement', 'torch-events', 'gpu-events']],
      // Unsynchronised against events and against time.time(), cold against warm.
      rows: [3],
    },
  ];

  for (const c of cases) {
    it(`${c.name}: the peers’ rows, why one was waived and how far they agree, in English and Spanish`, () => {
      const { record, run, plain, lab } = withTorch(c.name, c.peers, c.waived);
      const findings = c.agree.map(([id, peer, ours]) => {
        const f = agreementFinding(id, run.points.find((p) => p.key === peer), run.points.find((p) => p.key === ours), { peer: msg(`${record.lab}.series.${peer}`), ours: msg(`${record.lab}.series.${ours}`) });
        if (!f) throw new Error(`no agreement ${id}`);
        return f;
      });
      const withFindings: RunRecord = { ...run, findings: [...run.findings, ...findings] };
      // A run without peer points: the rows of the lab as it was (its notes and answers now say why the course's
      // series gave no figure).
      const rowsOf = (l: LabDescriptor) => labDeliverable({ record, lab: l, t: reportTranslate('en') })?.tables.map((table) => table.rows);
      expect(rowsOf(lab)).toEqual(rowsOf(plain));
      for (const locale of ['en', 'es'] as const) {
        const t = reportTranslate(locale);
        const d = inReportLocale(locale, () => labDeliverable({ record: withFindings, lab: { ...lab, locale }, t }));
        const before = inReportLocale(locale, () => labDeliverable({ record, lab: plain, t }));
        if (!d || !before) throw new Error('no deliverable');
        expect(d.tables.map((_, i) => peerRows(d, locale, i).length)).toEqual(c.rows);
        // GPU Lab's rows are all still there, in their order.
        for (const [i, table] of before.tables.entries()) {
          const ours = d.tables[i]?.rows.filter((r) => !isPeerRow(r.cells, locale)) ?? [];
          expect(ours.map((r) => r.cells.map(text))).toEqual(table.rows.map((r) => r.cells.map(text)));
        }
        const notes = d.tables.flatMap((table) => table.notes);
        for (const f of findings) expect(notes).toContain(findingText(f, locale));
        if (c.waived) expect(notes).toContain(t('pdf.deliverable.waivedNote', { reason: WAIVED }));
      }
    });
  }

  // Where the peer repeats GPU Lab's samples exactly, its row gives GPU Lab's figures, read the same way.
  it('reads a peer’s row as GPU Lab’s row above it is read', () => {
    const t = reportTranslate('en');
    const deliverable = (name: string, peers: Record<string, { ours: string; baseline?: string }>): Deliverable => {
      const { run, lab } = withTorch(name, peers);
      const d = labDeliverable({ record: run, lab, t });
      if (!d) throw new Error('no deliverable');
      return d;
    };
    // Each peer row with GPU Lab's row above it, from the `from`-th cell.
    const pairs = (d: Deliverable, table: number, from: number): [string[], string[]][] => {
      const rows = d.tables[table]?.rows ?? [];
      return rows.flatMap((r, i) => (isPeerRow(r.cells, 'en') ? [[r.cells.slice(from).map(text), (rows[i - 1]?.cells ?? []).slice(from).map(text)] as [string[], string[]]] : []));
    };
    const breakeven = deliverable('h100-matmul-breakeven', { 'torch-cpu': { ours: 'cpu' }, 'torch-transfers': { ours: 'gpu-transfers' }, 'torch-resident': { ours: 'gpu-resident' } });
    expect(pairs(breakeven, 0, 0).map(([peer]) => peer[0])).toEqual((fixture('h100-matmul-breakeven').params.sizes as number[]).map((n) => formatWhole(n, 'en')));
    for (const [peer, ours] of pairs(breakeven, 0, 0)) expect(peer).toEqual(ours);
    const dtypes = deliverable('h100-dtypes', { torch: { ours: 'gpu' } });
    for (const [peer, ours] of pairs(dtypes, 0, 0)) expect(peer).toEqual([...ours.slice(0, 6), '—', '—']);
    const transfer = deliverable('h100-transfer', { 'torch-h2d-pageable': { ours: 'h2d-pageable-sync' }, 'torch-h2d-pinned': { ours: 'h2d-pinned-sync' } });
    // The article's copies: its PyTorch row above GPU Lab's, the same figures at the same size.
    const seed = (transfer.tables[0]?.rows ?? []).map((r) => r.cells.map(text));
    expect(seed.length).toBe(6);
    for (let i = 0; i < seed.length; i += 2) expect(seed[i]).toEqual(seed[i + 1]);
    for (const [peer, ours] of pairs(transfer, 1, 0)) expect(peer).toEqual(ours);
    expect(pairs(transfer, 2, 0)).toEqual([[[t('pdf.deliverable.transfer.direction.h2d'), ...pairs(transfer, 2, 1)[0]?.[1] ?? []], pairs(transfer, 2, 0)[0]?.[1]]]);
    // PyTorch's GPU paths over PyTorch's CPU: where both repeat GPU Lab's, the same sizes and speedups.
    const ew = deliverable('h100-elementwise-breakeven', elementwise);
    for (const op of ops) {
      const mine = (ew.tables[0]?.rows ?? []).filter((r) => text(r.cells[0]) === op.toUpperCase()).map((r) => r.cells.slice(2).map(text));
      expect(mine.slice(2)).toEqual(mine.slice(0, 2));
    }
    expect(ew.tables[0]?.notes).toContain(t('pdf.deliverable.peerSpeedup', { baselines: ops.map((op) => `PyTorch ${op}-torch-cpu`).join(', ') }));
    const pitfalls = deliverable('h100-timing-pitfalls', { 'torch-no-sync': { ours: 'gpu-no-sync' }, 'torch-events': { ours: 'gpu-events' }, 'torch-cold': { ours: 'gpu-cold' }, 'torch-warm': { ours: 'gpu-warm' } });
    const rows = pitfalls.tables[0]?.rows ?? [];
    const peerPairs = rows.filter((r) => isPeerRow(r.cells, 'en'));
    // Where the run has no time.time() series, that row is left out; each row names its two series under their times.
    expect(peerPairs.map((r) => [text(r.cells[0]), ...[r.cells[1], r.cells[2]].map((cell) => (typeof cell === 'object' ? cell.note : ''))])).toEqual([
      [t('pdf.deliverable.timingPitfalls.pitfall.sync'), 'PyTorch GPU, clock stopped at launch', 'PyTorch GPU, CUDA events'],
      [t('pdf.deliverable.timingPitfalls.pitfall.gpuCold'), 'PyTorch GPU, first call (cold)', 'PyTorch GPU, warmed'],
    ]);
    for (const r of peerPairs) expect(r.cells.slice(1).map(text)).toEqual(rows[rows.indexOf(r) - 1]?.cells.slice(1).map(text));
  });
});

// The GPU machine's own runs with every lab's peers (tests/fixtures/peer-runs/, recorded by tests/gpu/peers.test.ts):
// each report's deliverable gives the peers' rows and, printed under its tables, every agreement the run found.
describe('the H100’s runs with their peers, as recorded', () => {
  const dir = new URL('../../fixtures/peer-runs/', import.meta.url);
  for (const name of ['h100-matmul-peers', 'h100-vector-function-peers', 'h100-transfer-peers', 'h100-dtypes-peers', 'h100-matmul-breakeven-peers', 'h100-elementwise-breakeven-peers', 'h100-timing-pitfalls-peers']) {
    it(`${name}: peer rows and the run’s agreements in the PDF, in both languages`, async () => {
      const record = STORED_RECORD.parse(JSON.parse(readFileSync(new URL(`${name}.json`, dir), 'utf8')));
      const measured = new Set(record.points.filter((p) => p.status === 'ok').map((p) => p.series));
      const lab = descriptorOf(record.lab);
      expect(lab.series.some((s) => s.peer && measured.has(s.key))).toBe(true);
      for (const locale of ['en', 'es'] as const) {
        const d = deliverableIn(record, locale);
        expect(d.tables.reduce((n, _, i) => n + peerRows(d, locale, i).length, 0)).toBeGreaterThan(0);
        // Under the tables, each agreement whole; in the PDF, each one's start (a page break may fall inside it).
        const notes = d.tables.flatMap((table) => table.notes);
        const printed = await deliverableText(record, locale);
        for (const f of agreements(withCurrentFindings(record))) {
          const sentence = inReportLocale(locale, () => findingText(f, locale));
          expect(notes).toContain(sentence);
          expect(printed).toContain(packed(sentence).slice(0, 60));
        }
      }
    });
  }
});
