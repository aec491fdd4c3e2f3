// One lab across every device that has a run of it: for each device the newest run there (a completed one first),
// and for each headline point (headlines.ts) each device's median with its interval and rate. Ratios are given only
// between like points (the same size and work), each against the first device: its time ÷ the first's, with the
// range the two intervals allow, and which is faster only where the intervals separate (common/pure/claims.ts), else that
// the two cannot be told apart. Plain data and text, shared by the app's view and the PDF.
import { compareTimes, timeRatio } from '../claims.ts';
import type { Estimate } from '../claims.ts';
import type { DeviceCell, DeviceColumn, DeviceRow, DevicesComparison } from '../../contract/reports.ts';
import { formatMs, formatRate, formatTimes } from '../format.ts';
import type { LabDescriptor } from '../../lab-descriptor.ts';
import type { HeadlinePoint } from '../../reference-run.ts';
import type { RunRecord } from '../../run-record.ts';
import { deviceKeyOf, headlineKeys, headlineLabel, headlineOf, machineOf, sameWork } from './headlines.ts';
import type { Translate } from './text.ts';

export function estimateOfHeadline(h: HeadlinePoint): Estimate {
  return { median: h.median, low: h.low, high: h.high, min: h.min, max: h.max, samples: h.samples };
}

// The run shown for each device: the newest completed one, else the newest that ended. Devices in the order of their
// model, then node, then device id, so that the same folder always gives the same columns.
export function runPerDevice(records: readonly RunRecord[]): RunRecord[] {
  const chosen = new Map<string, RunRecord>();
  const rank = (r: RunRecord): string => `${r.status === 'completed' ? 1 : 0}${r.createdAt}${r.id}`;
  for (const r of records) {
    if (r.status === 'queued' || r.status === 'running') continue;
    const key = deviceKeyOf(r);
    const held = chosen.get(key);
    if (!held || rank(r) > rank(held)) chosen.set(key, r);
  }
  const order = (r: RunRecord): string => {
    const m = machineOf(r);
    return `${m.gpu === null ? 1 : 0}|${m.gpu ?? m.cpu ?? ''}|${m.node ?? ''}|${m.device}|${r.id}`;
  };
  return [...chosen.values()].sort((a, b) => order(a).localeCompare(order(b)));
}

function cellOf(record: RunRecord, key: string, lab: LabDescriptor, first: HeadlinePoint | null, isFirst: boolean): DeviceCell {
  const p = record.points.find((q) => q.key === key);
  if (!p) return { status: 'absent', point: null, ratio: null, order: null, unlike: false };
  const point = headlineOf(p, lab);
  if (!point) return { status: p.status === 'ok' ? 'failed' : p.status, point: null, ratio: null, order: null, unlike: false };
  if (isFirst || !first) return { status: 'ok', point, ratio: null, order: null, unlike: false };
  if (!sameWork(first, point)) return { status: 'ok', point, ratio: null, order: null, unlike: true };
  const a = estimateOfHeadline(first);
  const b = estimateOfHeadline(point);
  return { status: 'ok', point, ratio: timeRatio(a, b), order: compareTimes(b, a), unlike: false };
}

// `records`: one run of the lab per device, the first the one the others are read against (runPerDevice's order).
export function compareDevices(records: readonly RunRecord[], lab: LabDescriptor): DevicesComparison {
  const columns: DeviceColumn[] = records.map((r) => ({ ...machineOf(r), runId: r.id, status: r.status, createdAt: r.createdAt, appVersion: r.appVersion }));
  const seriesRank = (series: string): number => {
    const i = lab.series.findIndex((s) => s.key === series);
    return i === -1 ? lab.series.length : i;
  };
  const points = new Map<string, { series: string; x: number | null }>();
  for (const r of records) {
    for (const key of headlineKeys(r)) {
      const p = r.points.find((q) => q.key === key);
      if (p && !points.has(key)) points.set(key, { series: p.series, x: p.x });
    }
  }
  const keys = [...points.entries()].sort(([ka, a], [kb, b]) => seriesRank(a.series) - seriesRank(b.series) || (a.x ?? -1) - (b.x ?? -1) || ka.localeCompare(kb));
  const rows: DeviceRow[] = keys.map(([key, at]) => {
    const [head] = records;
    const firstPoint = head?.points.find((q) => q.key === key);
    const first = firstPoint ? headlineOf(firstPoint, lab) : null;
    const cells = records.map((r, i) => cellOf(r, key, lab, first, i === 0));
    const named = cells.find((c) => c.point)?.point ?? null;
    return { key, series: at.series, x: at.x, name: named?.name ?? null, label: named?.label ?? key, cells };
  });
  return { lab: lab.id, columns, rows };
}

// Device A, B, … Z, then AA: the first is the one the others are read against.
export function deviceLetter(i: number): string {
  const letter = String.fromCharCode(65 + (i % 26));
  return i < 26 ? letter : `${deviceLetter(Math.floor(i / 26) - 1)}${letter}`;
}

// How a column names its device: the GPU (or the CPU) model and the node; `full` adds the driver.
export function columnTitle(c: DeviceColumn, t: Translate, full = false): string {
  const model = c.gpu ?? c.cpu ?? c.device;
  const node = c.node ? t('machines.devices.onNode', { node: c.node }) : '';
  const driver = full && c.driver ? t('machines.devices.driver', { driver: c.driver }) : '';
  return [model, node, driver].filter(Boolean).join(' · ');
}

export interface CellText {
  median: string;
  interval: string;
  rate: string;
  // Against the first device: its time ÷ the first's with the range, and the verdict; '' for the first itself.
  ratio: string;
  verdict: string;
}

const DASH = '—';

export function cellText(cell: DeviceCell, isFirst: boolean, t: Translate, lab: LabDescriptor | undefined): CellText {
  const p = cell.point;
  if (!p) {
    const status = cell.status === 'absent' ? t('machines.devices.absent') : t(`results.status.${cell.status}`);
    return { median: status, interval: '', rate: '', ratio: '', verdict: '' };
  }
  const interval = t('machines.devices.interval', { low: formatMs(p.low), high: formatMs(p.high) });
  const rate = p.rate ? formatRate(p.rate.value, p.rate.unit) : DASH;
  let ratio = '';
  let verdict = '';
  if (!isFirst) {
    if (cell.unlike) verdict = t('machines.devices.unlike', { point: headlineLabel(p, lab) });
    else if (cell.ratio && cell.order) {
      ratio = t('machines.devices.ratio', { ratio: formatTimes(cell.ratio.value), low: formatTimes(cell.ratio.low), high: formatTimes(cell.ratio.high) });
      verdict = t(`machines.devices.order.${cell.order}`);
    }
  }
  return { median: formatMs(p.median), interval, rate, ratio, verdict };
}

export function rowLabel(row: DeviceRow, lab: LabDescriptor | undefined): string {
  const point = row.cells.find((c) => c.point)?.point;
  return point ? headlineLabel(point, lab) : row.label;
}
