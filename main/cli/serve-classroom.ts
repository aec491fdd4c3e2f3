// `gpu-lab serve`'s class and HTTPS options: --classroom NAME with the caps of a student's run, --tls-cert and
// --tls-key; what the server prints for a class, and the warning an address other machines reach gets without TLS.
import { readFileSync } from 'node:fs';

import type { LabHost } from '../app/lab-host.ts';
import { Classroom } from '../classroom/classroom.ts';
import { CLASS_CAPS } from '../common/contract/classroom.ts';
import type { ClassCaps } from '../common/contract/classroom.ts';
import { formatBytes } from '../common/pure/format.ts';
import type { Locale } from '../common/pure/locale.ts';
import type { CliText } from './cli-text.ts';
import { UsageError } from './command.ts';
import { option, pathOption } from './cli-options.ts';
import { integerOption } from './decimal.ts';
import type { ParsedArgs } from './cli-options.ts';

export const CLASSROOM_OPTIONS = ['classroom', 'max-points', 'max-bytes', 'max-seconds', 'tls-cert', 'tls-key'] as const;

const CAP_OPTIONS = [
  ['max-points', 'maxPoints'],
  ['max-bytes', 'maxBytes'],
  ['max-seconds', 'maxSeconds'],
] as const;

// The caps given on the command line; the others stay as the class last had them.
export function capsOption(args: ParsedArgs): Partial<ClassCaps> {
  const caps: Partial<ClassCaps> = {};
  for (const [name, field] of CAP_OPTIONS) {
    const text = option(args, name);
    if (text === undefined) continue;
    if (option(args, 'classroom') === undefined) throw new UsageError('usage.classOnly', { name });
    const schema = CLASS_CAPS.shape[field];
    const range = { min: schema.minValue ?? 0, max: schema.maxValue ?? 0 };
    caps[field] = integerOption(name, text, range, () => new UsageError('usage.classCap', { name, value: text, ...range }));
  }
  return caps;
}

// The certificate and key files, read now: a server that would fail its first handshake is not started.
export function tlsOption(args: ParsedArgs, t: CliText): { cert: Buffer; key: Buffer } | undefined {
  const certFile = pathOption(args, 'tls-cert');
  const keyFile = pathOption(args, 'tls-key');
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined) throw new UsageError('usage.tlsPair');
  const read = (file: string): Buffer => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new Error(t('serve.tlsUnreadable', { file, detail: (err as NodeJS.ErrnoException).code ?? (err as Error).message }), { cause: err });
    }
  };
  return { cert: read(certFile), key: read(keyFile) };
}

export async function openClassroomOption(args: ParsedArgs, host: LabHost, dataDir: string): Promise<Classroom | undefined> {
  const name = option(args, 'classroom');
  if (name === undefined) return undefined;
  return Classroom.open({ host, dataDir, name, caps: capsOption(args) });
}

export function classroomBanner(t: CliText, locale: Locale, c: { name: string; origin: string; dir: string; teacher: string; students: string; caps: ClassCaps }): string {
  return t('serve.classroom', {
    name: c.name,
    origin: c.origin,
    dir: c.dir,
    teacher: c.teacher,
    students: c.students,
    points: c.caps.maxPoints,
    bytes: formatBytes(c.caps.maxBytes, locale),
    seconds: c.caps.maxSeconds,
  });
}
