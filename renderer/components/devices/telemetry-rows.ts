// The live panel's readings as rows: the value now in words, the last minute's range, and the points of its line.
// Power is scaled against the power limit and the shares against 0–100 %, so that a line's height means something.
import type { Telemetry } from '../../../main/common/device-report.ts';
import { count } from './device-fields.ts';
import type { FieldContext } from './device-fields.ts';

export interface SparkPoint {
  // ms since the epoch, as the readings carry it.
  at: number;
  value: number | null;
}

export interface ReadingRow {
  id: 'smClock' | 'memoryClock' | 'temperature' | 'power' | 'gpuUtilization' | 'memoryUtilization';
  label: string;
  now: string;
  hint: string | null;
  // The lowest and highest of the last minute, formatted; null before there are two readings.
  range: { min: string; max: string } | null;
  points: SparkPoint[];
  min?: number;
  max?: number;
}

const HINTS: ReadonlySet<ReadingRow['id']> = new Set(['gpuUtilization', 'memoryUtilization']);

export function telemetryRows(current: Telemetry, history: Telemetry[], powerLimitW: number | null, { t, locale }: FieldContext): ReadingRow[] {
  const unknown = t('devices.unknown');
  const unit = (key: string) => (v: number) => t(`devices.units.${key}`, { value: count(Math.round(v), locale) });
  const row = (
    id: ReadingRow['id'],
    pick: (r: Telemetry) => number | null,
    format: (v: number) => string,
    scale: { min?: number; max?: number } = {},
    // The range in plain values: "270 W to 470 W", not each against the limit.
    formatRange: (v: number) => string = format,
  ): ReadingRow => {
    const points = history.map((r) => ({ at: r.timestamp, value: pick(r) }));
    const values = points.flatMap((p) => (p.value === null ? [] : [p.value]));
    const now = pick(current);
    return {
      id,
      label: t(`devices.telemetry.fields.${id}`),
      now: now === null ? unknown : format(now),
      hint: HINTS.has(id) ? t(`devices.telemetry.hints.${id}`) : null,
      range: values.length < 2 ? null : { min: formatRange(Math.min(...values)), max: formatRange(Math.max(...values)) },
      points,
      ...scale,
    };
  };
  const limit = current.powerLimitW ?? powerLimitW;
  const watts = unit('watts');
  const power = (w: number): string => (limit === null ? watts(w) : t('devices.telemetry.powerOfLimit', { power: watts(w), limit: watts(limit) }));
  const share = { min: 0, max: 100 };
  return [
    row('smClock', (r) => r.smClockMHz, unit('mhz')),
    row('memoryClock', (r) => r.memoryClockMHz, unit('mhz')),
    row('temperature', (r) => r.temperatureC, unit('celsius')),
    row('power', (r) => r.powerW, power, limit === null ? { min: 0 } : { min: 0, max: limit }, watts),
    row('gpuUtilization', (r) => r.gpuUtilizationPercent, unit('percent'), share),
    row('memoryUtilization', (r) => r.memoryUtilizationPercent, unit('percent'), share),
  ];
}
