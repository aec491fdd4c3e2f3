// A run beside the reference results of other machines (main/common/reference-run.ts): for each reference of its lab,
// each of the run's headline points that the reference measured alike (same key, size and work), the two medians
// with their intervals, this run's time ÷ the reference's with the range the intervals allow, and which is faster
// only where the intervals separate (common/pure/claims.ts). Every sentence names the reference's machine as another one:
// these are never this run's numbers. A reference made from this very run is left out.
import { compareTimes, timeRatio } from '../claims.ts';
import type { Order, Ratio } from '../claims.ts';
import type { ReferenceResult } from '../../contract/labs.ts';
import { formatMs, formatRate, formatTimes } from '../format.ts';
import type { LabDescriptor } from '../../lab-descriptor.ts';
import type { HeadlinePoint } from '../../reference-run.ts';
import type { RunRecord } from '../../run-record.ts';
import { estimateOfHeadline } from './device-comparison.ts';
import { headlineLabel, headlinePoints, sameWork } from './headlines.ts';
import type { Translate } from './text.ts';

export interface ReferenceRow {
  key: string;
  label: string;
  yours: HeadlinePoint;
  theirs: HeadlinePoint;
  // This run's time ÷ the reference's.
  ratio: Ratio;
  // This run against the reference.
  order: Order;
}

export interface ReferenceBlock {
  result: ReferenceResult;
  rows: ReferenceRow[];
  // The reference's points this run has no like point for (another size, a series not run).
  unmatched: number;
}

export function referenceBlocks(record: RunRecord, lab: LabDescriptor, references: readonly ReferenceResult[]): ReferenceBlock[] {
  const yours = new Map(headlinePoints(record, lab).map((h) => [h.key, h]));
  return references
    .filter((r) => r.reference.lab === record.lab && r.reference.runId !== record.id)
    .map((result) => {
      const rows: ReferenceRow[] = [];
      for (const theirs of result.reference.points) {
        const mine = yours.get(theirs.key);
        if (!mine || !sameWork(mine, theirs)) continue;
        const a = estimateOfHeadline(theirs);
        const b = estimateOfHeadline(mine);
        rows.push({ key: theirs.key, label: headlineLabel(mine, lab), yours: mine, theirs, ratio: timeRatio(a, b), order: compareTimes(b, a) });
      }
      return { result, rows, unmatched: result.reference.points.length - rows.length };
    });
}

// The machine a reference was measured on, as its heading names it: its GPU model (or CPU), driver, GPU Lab version.
export function referenceMachine(block: ReferenceBlock, t: Translate): string {
  const { machine, appVersion, measuredAt } = block.result.reference;
  const model = machine.gpu ?? machine.cpu ?? machine.device;
  return t('machines.reference.machine', { model, driver: machine.driver ?? '—', version: appVersion, date: measuredAt.slice(0, 10) });
}

export function timeWithInterval(h: HeadlinePoint, t: Translate): string {
  return t('machines.reference.time', { median: formatMs(h.median), low: formatMs(h.low), high: formatMs(h.high) });
}

export function rateText(h: HeadlinePoint): string {
  return h.rate ? formatRate(h.rate.value, h.rate.unit) : '—';
}

// "NVIDIA H100 80GB HBM3 (another machine) measured 9.71 ms (9.70 ms – 9.72 ms), 47.1 TFLOP/s; this run 10.2 ms
// (…): slower, 1.05× its time (1.04× – 1.06×)."
export function referenceSentence(block: ReferenceBlock, row: ReferenceRow, t: Translate): string {
  const { machine } = block.result.reference;
  return t('machines.reference.sentence', {
    model: machine.gpu ?? machine.cpu ?? machine.device,
    point: row.label,
    theirs: timeWithInterval(row.theirs, t),
    rate: rateText(row.theirs),
    yours: timeWithInterval(row.yours, t),
    verdict: verdictText(row, t),
  });
}

export function verdictText(row: ReferenceRow, t: Translate): string {
  const ratio = { ratio: formatTimes(row.ratio.value), low: formatTimes(row.ratio.low), high: formatTimes(row.ratio.high) };
  return t(`machines.reference.order.${row.order}`, ratio);
}
