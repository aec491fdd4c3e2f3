// What identifies a run beside the other: its lab, device (by name where the record has the device list), start
// date in the reader's locale, how it ended, how many points, the app that ran it.
import type { RunRecord } from '../../../main/common/run-record.ts';
import type { Translate } from '../../../main/common/pure/charts/text.ts';

export interface FactRow {
  name: 'lab' | 'device' | 'date' | 'status' | 'points' | 'app';
  a: string;
  b: string;
  differs: boolean;
}

function deviceName(r: RunRecord): string {
  const device = r.environment.devices?.devices.find((d) => d.id === r.device);
  return device ? `${device.name} (${r.device})` : r.device;
}

function dateText(iso: string, locale: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

// `labTitle` names a run's lab in the language shown (the record keeps the one it was run with).
type LabTitle = (r: RunRecord) => string;

function facts(r: RunRecord, t: Translate, locale: string, labTitle: LabTitle): Record<FactRow['name'], string> {
  return {
    lab: labTitle(r),
    device: deviceName(r),
    date: dateText(r.createdAt, locale),
    status: t(`results.compare.runStatus.${r.status}`),
    points: String(r.points.length),
    app: r.appVersion,
  };
}

export function factRows(a: RunRecord, b: RunRecord, t: Translate, locale: string, labTitle: LabTitle = (r) => r.labTitle): FactRow[] {
  const fa = facts(a, t, locale, labTitle);
  const fb = facts(b, t, locale, labTitle);
  return (Object.keys(fa) as FactRow['name'][]).map((name) => ({ name, a: fa[name], b: fb[name], differs: name !== 'date' && fa[name] !== fb[name] }));
}
