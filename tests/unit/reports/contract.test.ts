// The report through the contract, as both shells carry it: the dispatch checks the request's shape and calls the
// reports service, whose answer is the PDF in base64; the renderer's client sends it under its wire name.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { dispatch } from '../../../main/common/api-dispatch.ts';
import type { ApiMethod, GpuLabApi } from '../../../main/common/contract/index.ts';
import type { LabsReportContents, ReportFile } from '../../../main/common/contract/reports.ts';
import type { RunSummary } from '../../../main/common/run-record.ts';
import { createReportsService, labsReportChoice } from '../../../main/reports/reports-service.ts';
import { RunStore } from '../../../main/runs/run-store.ts';
import { createApiClient } from '../../../renderer/api/client.ts';
import { fixture, fixturesDir, pdfInfo, pdfText, savePdf, tempDir } from './pdf-tools.ts';

function apiWithRuns(...names: string[]): GpuLabApi {
  const dataDir = tempDir('gpu-lab-report-api-');
  mkdirSync(join(dataDir, 'runs'));
  for (const name of names) copyFileSync(join(fixturesDir, `${name}.json`), join(dataDir, 'runs', `${fixture(name).id}.json`));
  const store = new RunStore(dataDir, { warn: () => undefined });
  const reports = createReportsService({ getRun: (id) => store.get(id), listRuns: () => store.list(), runsDir: store.dir, writerVersion: '0.1.0' });
  // Only the reports service is reached here.
  return { reports } as unknown as GpuLabApi;
}

describe('reports.writeReport over the dispatch', () => {
  const api = apiWithRuns('cpu-matmul', 'h100-matmul');

  it('answers the PDF of one run, and of two compared, in base64 with its name and page count', async () => {
    for (const runIds of [[fixture('h100-matmul').id], [fixture('cpu-matmul').id, fixture('h100-matmul').id]]) {
      const answer = await dispatch(api, 'reports.writeReport', [{ runIds, author: 'Ana Pérez', course: 'GPU' }]);
      if (!answer.ok) throw new Error(answer.error.message);
      const file = answer.value as ReportFile;
      expect(file.mimeType).toBe('application/pdf');
      expect(file.filename).toBe(`${runIds.join('-vs-')}.pdf`);
      const path = savePdf(Buffer.from(file.base64, 'base64'));
      const info = pdfInfo(path);
      expect(Number(info.Pages)).toBe(file.pages);
      expect(info.Author).toBe('Ana Pérez');
    }
  });

  it.each([
    ['no run', { runIds: [] }],
    ['three runs', { runIds: ['a', 'b', 'c'] }],
    ['a run id that is a path', { runIds: ['../../etc/passwd'] }],
    ['an author that is not text', { runIds: ['a'], author: 42 }],
    ['a field the contract does not have', { runIds: ['a'], title: 'x' }],
  ])('refuses %s as INVALID_ARGUMENT naming the argument', async (_, request) => {
    const answer = await dispatch(api, 'reports.writeReport', [request]);
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error.code).toBe('INVALID_ARGUMENT');
    expect(answer.error.details?.argument).toBe('request');
  });

  it('passes the report’s own refusal through, with its reason', async () => {
    const answer = await dispatch(api, 'reports.writeReport', [{ runIds: [fixture('cpu-matmul').id], author: 'x'.repeat(100_000) }]);
    expect(answer.ok ? null : [answer.error.code, answer.error.details?.reason, answer.error.details?.field]).toEqual(['INVALID_ARGUMENT', 'text-too-long', 'author']);
  });
});

describe('the report of every lab on a device', () => {
  const summary = (id: string, lab: string, device: string, status: RunSummary['status'], createdAt: string): RunSummary => ({
    id, lab, labTitle: lab, device, status, createdAt, finishedAt: null, points: 1, errorCode: null, params: {}, headline: null,
  });

  it('takes the newest completed run of each lab on the device, else its newest cancelled or failed one', () => {
    const choice = labsReportChoice(
      [
        summary('old-ok', 'matmul', 'cuda:0', 'completed', '2026-11-01T10:00:00Z'),
        summary('new-failed', 'matmul', 'cuda:0', 'failed', '2026-11-03T10:00:00Z'),
        summary('new-ok', 'matmul', 'cuda:0', 'completed', '2026-11-02T10:00:00Z'),
        summary('cpu-only', 'matmul', 'cpu', 'completed', '2026-11-04T10:00:00Z'),
        summary('cancelled', 'transfer', 'cuda:0', 'cancelled', '2026-11-01T10:00:00Z'),
        summary('still-running', 'dtypes', 'cuda:0', 'running', '2026-11-05T10:00:00Z'),
      ],
      'cuda:0',
    );
    // In the app's order of labs: transfer comes before matmul.
    expect(choice.runs.map((r) => r.id)).toEqual(['cancelled', 'new-ok']);
    expect(choice.missing).toEqual(['dtypes', 'vector-function', 'elementwise-breakeven', 'matmul-breakeven', 'timing-pitfalls']);
  });

  const api = apiWithRuns('h100-matmul', 'h100-transfer', 'cpu-matmul');

  it('says which runs a report on a device would hold, and writes it: a chapter per lab run, the others listed as not run', async () => {
    const contents = await dispatch(api, 'reports.labsReportContents', ['cuda:0']);
    if (!contents.ok) throw new Error(contents.error.message);
    const chosen = contents.value as LabsReportContents;
    expect(chosen.runs.map((r) => r.id)).toEqual([fixture('h100-transfer').id, fixture('h100-matmul').id]);
    expect(chosen.missing).toHaveLength(5);
    const answer = await dispatch(api, 'reports.writeLabsReport', [{ device: 'cuda:0', author: 'Ana Pérez', locale: 'es' }]);
    if (!answer.ok) throw new Error(answer.error.message);
    const file = answer.value as ReportFile;
    expect(file.filename).toMatch(/^gpu-lab-labs-cuda-0-\d{4}-\d{2}-\d{2}\.pdf$/);
    const path = savePdf(Buffer.from(file.base64, 'base64'));
    expect(pdfInfo(path).Author).toBe('Ana Pérez');
    const text = pdfText(path).replace(/\s+/g, ' ');
    // Both runs' ids are in it, in Spanish, and every lab not run on the GPU is named as such.
    for (const run of ['h100-transfer', 'h100-matmul']) expect(text).toContain(fixture(run).id);
    expect(text).not.toContain(fixture('cpu-matmul').id);
    expect(text).toContain('Informe de GPU Lab: los laboratorios en NVIDIA H100');
    expect(text.match(/: no se ha ejecutado en este dispositivo/g)).toHaveLength(5);
  });

  it('refuses a device that is not one, naming the argument, and a device without a finished run as NOT_FOUND', async () => {
    const bad = await dispatch(api, 'reports.writeLabsReport', [{ device: 'gpu0' }]);
    expect(bad.ok ? null : [bad.error.code, bad.error.details?.argument]).toEqual(['INVALID_ARGUMENT', 'request']);
    // Past the wire's check, the service's own: the field, the value and the reason.
    const direct = await api.reports.writeLabsReport({ device: 'gpu0' }).catch((e: unknown) => e);
    expect(direct).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'device', value: 'gpu0', reason: 'device-unknown' } });
    const none = await dispatch(api, 'reports.writeLabsReport', [{ device: 'cuda:1' }]);
    expect(none.ok ? null : [none.error.code, none.error.details?.reason, none.error.message]).toEqual(['NOT_FOUND', 'nothing-to-report', expect.stringContaining('cuda:1')]);
    const contents = await dispatch(api, 'reports.labsReportContents', ['cuda:1']);
    expect(contents.ok && (contents.value as LabsReportContents).runs).toEqual([]);
  });
});

describe('the renderer’s client', () => {
  it('sends writeReport under its wire name with the request', async () => {
    const calls: { method: ApiMethod; args: unknown[] }[] = [];
    const client = createApiClient({
      call: async (method, args) => {
        calls.push({ method, args });
        return { ok: true, value: { filename: 'r.pdf', mimeType: 'application/pdf', base64: '', pages: 1 } };
      },
      on: () => () => undefined,
      state: 'open',
      onState: () => () => undefined,
    });
    const file = await client.reports.writeReport({ runIds: ['r1', 'r2'], author: 'Ana' });
    expect(calls).toEqual([{ method: 'reports.writeReport', args: [{ runIds: ['r1', 'r2'], author: 'Ana' }] }]);
    expect(file.filename).toBe('r.pdf');
  });
});
