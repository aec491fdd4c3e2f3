// Three runs of the matrix break-even lab with the same parameters on the same device: the report of every lab gives
// each crossing's spread over them, lowest and highest to two significant digits, in both languages; a run with other
// parameters is not one of them. Through the reports service too, which finds the earlier runs in the store.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { formatBreakEven } from '../../../main/common/pure/format.ts';
import { summarizeRun, type PointResult, type RunRecord } from '../../../main/common/run-record.ts';
import { timedStatistics } from '../../../main/common/pure/statistics.ts';
import { createReportsService } from '../../../main/reports/reports-service.ts';
import { inReportLocale } from '../../../main/reports/report-locale.ts';
import { writeLabsReport } from '../../../main/reports/report-writer.ts';
import { withCurrentFindings } from '../../../main/runs/current-findings.ts';
import { fixture, pdfText, savePdf, spaced } from './pdf-tools.ts';

// The run again, earlier, with the GPU's times with the copies scaled: its crossing moves. Their statistics are the
// scaled samples', as the runner would have recorded them (a record is read as stored).
function earlier(record: RunRecord, id: string, hoursBefore: number, factor: number): RunRecord {
  const createdAt = new Date(new Date(record.createdAt).getTime() - hoursBefore * 3_600_000).toISOString();
  const scaled = (p: PointResult): PointResult => {
    const times = { ...p, hostMs: p.hostMs.map((v) => v * factor), deviceMs: p.deviceMs?.map((v) => v * factor) ?? null };
    return { ...times, stats: p.stats ? timedStatistics(times) : null };
  };
  const points = record.points.map((p) => (p.series === 'gpu-transfers' ? scaled(p) : p));
  return { ...record, id, createdAt, finishedAt: createdAt, points };
}

const latest = fixture('h100-matmul-breakeven');
const runs = [latest, earlier(latest, 'earlier-1', 1, 1.3), earlier(latest, 'earlier-2', 2, 0.8)];
const crossings = runs.map((r) => withCurrentFindings(r).summary['gpu-transfers.breakEvenN']).filter((v): v is number => typeof v === 'number');

describe('a break-even over three runs', () => {
  it('is given with its lowest and highest value, in both languages', async () => {
    expect(crossings).toHaveLength(3);
    const [low, high] = [Math.min(...crossings), Math.max(...crossings)];
    expect(formatBreakEven('matrix-n', high, 'en')).not.toBe(formatBreakEven('matrix-n', low, 'en'));
    for (const [locale, words] of [['en', 'Over the 3 runs made with these parameters on this device, each break-even lay between: GPU with transfers, N ≈ '], ['es', 'En las 3 ejecuciones hechas con estos parámetros en este dispositivo, cada punto de equilibrio quedó entre: GPU con transferencias, N ≈ ']] as const) {
      const pdf = await writeLabsReport(runs, 'cuda:0', { locale });
      const text = spaced(pdfText(savePdf(pdf.bytes)));
      const [lo, hi] = inReportLocale(locale, () => [formatBreakEven('matrix-n', low), formatBreakEven('matrix-n', high)]);
      expect(text).toContain(`${words}${lo} ${locale === 'en' ? 'and' : 'y'} ${hi}`);
    }
  });

  it('is not given over runs made with other parameters', async () => {
    const other = { ...runs[2], params: { ...latest.params, repeats: 3 } } as RunRecord;
    const pdf = await writeLabsReport([latest, runs[1] as RunRecord, other], 'cuda:0');
    expect(spaced(pdfText(savePdf(pdf.bytes)))).not.toContain('runs made with these parameters');
  });

  it('is given by the reports service from the runs its store keeps', async () => {
    const byId = new Map(runs.map((r) => [r.id, r]));
    const service = createReportsService({
      getRun: async (id) => {
        const r = byId.get(id);
        if (!r) throw new Error(`no run ${id}`);
        return r;
      },
      listRuns: async () => runs.map((r) => summarizeRun(r)),
      runsDir: mkdtempSync(join(tmpdir(), 'gpu-lab-spread-')),
      writerVersion: '0.1.0',
    });
    const file = await service.writeLabsReport({ device: 'cuda:0' });
    const text = spaced(pdfText(savePdf(Buffer.from(file.base64, 'base64'))));
    expect(text).toContain('Over the 3 runs made with these parameters on this device');
  });
});
