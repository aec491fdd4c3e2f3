// How a stored run reads in the history: its start in the reader's local time, how long it took, and the short name
// ("Matrix product of 23 Nov 2026, 08:49:46") that buttons and messages use to say which run they act on.
import { useI18n } from 'vue-i18n';

import type { RunSummary } from '../../../main/common/run-record.ts';
import { useLabsStore } from '../../stores/labs.ts';

// Milliseconds from start to end, or null for a run that has not ended (or a record with unreadable times).
export function runDurationMs(run: Pick<RunSummary, 'createdAt' | 'finishedAt'>): number | null {
  if (run.finishedAt === null) return null;
  const ms = Date.parse(run.finishedAt) - Date.parse(run.createdAt);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}

// Lab titles read "Matrix product: CPU, GPU, and the cost of getting there"; the part before the colon names the lab.
export function shortLabTitle(labTitle: string): string {
  return labTitle.split(':')[0]?.trim() || labTitle;
}

export function useRunText() {
  const { t, locale } = useI18n();
  const labs = useLabsStore();

  function startedAt(iso: string): string {
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return iso;
    // Seconds shown: runs started by a script are seconds apart, and their names must differ.
    return new Intl.DateTimeFormat(locale.value, { dateStyle: 'medium', timeStyle: 'medium' }).format(date);
  }

  function duration(ms: number | null): string {
    if (ms === null) return '—';
    const number = (value: number, digits: number): string =>
      new Intl.NumberFormat(locale.value, { maximumFractionDigits: digits }).format(value);
    if (ms < 1000) return t('history.duration.ms', { value: number(ms, 0) });
    const seconds = ms / 1000;
    // Tenths only under 10 s, where they are a noticeable part of the whole.
    if (seconds < 10) return t('history.duration.seconds', { value: number(seconds, 1) });
    const whole = Math.round(seconds);
    if (whole < 60) return t('history.duration.seconds', { value: number(whole, 0) });
    if (whole < 3600) return t('history.duration.minutes', { minutes: Math.floor(whole / 60), seconds: whole % 60 });
    return t('history.duration.hours', { hours: Math.floor(whole / 3600), minutes: Math.floor((whole % 3600) / 60) });
  }

  // The lab named in the app's language, whatever the language the run was recorded in.
  function runName(run: Pick<RunSummary, 'lab' | 'labTitle' | 'createdAt'>): string {
    return t('history.run.name', { lab: shortLabTitle(labs.titleOf(run)), date: startedAt(run.createdAt) });
  }

  // A device as the history names it: "cpu (CPU only)", a GPU by its id.
  function deviceName(id: string): string {
    return id === 'cpu' ? t('history.filters.cpuOnly', { id }) : id;
  }

  // Where a run ran, as a heading says it: "on cuda:0", "on the CPU".
  function on(device: string): string {
    return device === 'cpu' ? t('history.run.onCpu') : t('history.run.on', { device });
  }

  function dated(iso: string, options: Intl.DateTimeFormatOptions): string {
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(locale.value, options).format(date);
  }

  // When a run started, as its page's heading says it: "23 Nov 2026, 07:49".
  function startedOn(iso: string): string {
    return dated(iso, { dateStyle: 'medium', timeStyle: 'short' });
  }

  // Two runs' starts, as short as still tells them apart: "25 Nov 2026" and "23 Nov" (the year said once where both
  // share it), with the times where both are of one day ("23 Nov 2026, 07:47" and "23 Nov, 07:49").
  function twoStarts(a: string, b: string): [string, string] {
    const [da, db] = [new Date(a), new Date(b)];
    const sameDay = da.toDateString() === db.toDateString();
    const time: Intl.DateTimeFormatOptions = sameDay ? { hour: 'numeric', minute: '2-digit' } : {};
    const full: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric', ...time };
    return [dated(a, full), dated(b, da.getFullYear() === db.getFullYear() ? { day: 'numeric', month: 'short', ...time } : full)];
  }

  return { startedAt, duration, runName, deviceName, on, startedOn, twoStarts };
}
