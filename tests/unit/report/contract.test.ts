// The report through the contract, as both shells carry it: the dispatch checks the request's shape and calls the
// reports service, whose answer is the PDF in base64; the renderer's client sends it under its wire name.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { dispatch } from '../../../main/common/api-dispatch.ts';
import type { ApiMethod } from '../../../main/common/api-methods.ts';
import type { GpuLabApi, ReportFile } from '../../../main/common/contract.ts';
import { createReportsService } from '../../../main/report/reports-service.ts';
import { RunStore } from '../../../main/runner/run-store.ts';
import { createApiClient } from '../../../renderer/api/client.ts';
import { fixture, fixturesDir, pdfInfo, savePdf, tempDir } from './pdf-tools.ts';

function apiWithRuns(...names: string[]): GpuLabApi {
  const dataDir = tempDir('gpu-lab-report-api-');
  mkdirSync(join(dataDir, 'runs'));
  for (const name of names) copyFileSync(join(fixturesDir, `${name}.json`), join(dataDir, 'runs', `${fixture(name).id}.json`));
  const store = new RunStore(dataDir, { warn: () => undefined });
  const reports = createReportsService({ getRun: (id) => store.get(id), runsDir: store.dir, writerVersion: '0.1.0' });
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
