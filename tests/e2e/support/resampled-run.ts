// A long run made from a recorded one, for what a page does with thousands of points (the results table's scrolling,
// the UI benchmark's stream): each series of the H100's elementwise run resampled on a log grid from 10² to 10⁸
// elements, its medians interpolated log-log between the sizes measured. The subject is the page, not the numbers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { PointResult, RunRecord } from '../../../main/common/run-record.ts';
import { STORED_RECORD } from '../../../main/runs/stored-record.ts';

// A recorded run as the app reads it (a version 1 record in this version's words).
export function recordedRun(name: string): RunRecord {
  return STORED_RECORD.parse(JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'runs', `${name}.json`), 'utf8')));
}

function scaledStats(left: PointResult, right: PointResult, f: number): PointResult['stats'] {
  const a = left.stats;
  const b = right.stats;
  if (!a || !b) return a;
  const scale = (x: number, y: number): number => (x > 0 && y > 0 ? Math.exp(Math.log(x) + f * (Math.log(y) - Math.log(x))) : x);
  const out = { ...a };
  for (const k of ['median', 'mean', 'std', 'min', 'max', 'p95', 'q1', 'q3', 'iqr', 'ciLow', 'ciHigh'] as const) {
    const x = a[k];
    const y = b[k];
    if (typeof x === 'number' && typeof y === 'number') out[k] = scale(x, y);
  }
  return out;
}

export function resampledPoints(source: RunRecord, total: number): PointResult[] {
  const series = [...new Set(source.points.map((p) => p.series))];
  const perSeries = Math.ceil(total / series.length);
  const points: PointResult[] = [];
  for (let i = 0; i < perSeries; i++) {
    const x = Math.round(10 ** (2 + (6 * i) / (perSeries - 1)));
    for (const s of series) {
      const measured = source.points.filter((p) => p.series === s && p.stats && p.x !== null);
      const right = measured.find((p) => (p.x ?? 0) >= x) ?? measured.at(-1);
      const left = [...measured].reverse().find((p) => (p.x ?? 0) <= x) ?? measured[0];
      if (!left || !right || left.x === null || right.x === null) continue;
      const f = left.x === right.x ? 0 : Math.log(x / left.x) / Math.log(right.x / left.x);
      const { name: _name, ...rest } = left;
      points.push({
        ...rest,
        key: `${s}@${x}`,
        x,
        label: `${left.label.replace(/, [^,]+$/, '')}, ${x}`,
        stats: scaledStats(left, right, f),
        work: { ...left.work, elements: x, bytes: (left.work.bytes / left.x) * x, flops: x },
      });
    }
  }
  return points.slice(0, total);
}

// A finished run of `total` points, under an id of its own.
export function resampledRun(total: number, id = `20261201T000000Z-elementwise-breakeven-${total}`): RunRecord {
  const source = recordedRun('h100-elementwise-breakeven');
  return { ...source, id, points: resampledPoints(source, total) };
}
