// The names of the files GPU Lab hands to people — a run's PDF, JSON and CSV, two runs' PDF — as they would name
// them ("GPU Lab – Matrix product – 2026-11-25.pdf"), in the app's language, and valid on Windows, macOS and Linux
// alike. Pure: the renderer and main both read it.

// Characters some system refuses in a name: Windows < > : " / \ | ? *, macOS's Finder ':', Linux '/' and NUL; the
// control characters everywhere; half a surrogate pair, which no file system can store; and the bidirectional
// overrides, which make "gpj.exe" read as "exe.jpg".
const INVALID = /[<>:"/\\|?*\p{Cc}\p{Cs}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
// Names Windows keeps for devices, whatever extension follows.
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)/i;
// ext4 and APFS take 255 bytes of UTF-8, NTFS 255 UTF-16 units: 255 bytes of UTF-8 fits all three.
const MAX_BYTES = 255;

// The bytes a string takes in UTF-8 (lone surrogates are taken out before it is asked).
function utf8Bytes(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

// A name made of `stem` and `extension` that every one of those systems accepts: forbidden characters become
// spaces, runs of spaces one, no leading or trailing dot or space (Windows drops them, a leading dot hides the file),
// a device name gets an underscore before it, and a long stem is cut, at a whole character, to fit.
export function safeFileName(stem: string, extension: string): string {
  const ext = extension.replace(/[^\p{L}\p{N}]/gu, '');
  const suffix = ext ? `.${ext}` : '';
  let name = stem
    .replace(INVALID, ' ')
    .replace(/\s+/gu, ' ')
    .replace(/^[\s.]+|[\s.]+$/gu, '');
  if (RESERVED.test(name)) name = `_${name}`;
  const room = MAX_BYTES - utf8Bytes(suffix);
  if (utf8Bytes(name) > room) {
    const kept: string[] = [];
    let bytes = 0;
    for (const char of name) {
      bytes += utf8Bytes(char);
      if (bytes > room) break;
      kept.push(char);
    }
    name = kept.join('').replace(/[\s.]+$/u, '');
  }
  return `${name || 'GPU Lab'}${suffix}`;
}

// The day a run started, in the reader's time zone, as a name sorts it: "2026-11-25"; '' for an unreadable date.
export function fileDay(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}

// What the names are made of: a run's lab as the reader names it (its short title, in the app's language) and when
// the run started.
export interface NamedRun {
  lab: string;
  createdAt: string;
}

export type RunFileKind = 'pdf' | 'json' | 'csv' | 'csv-samples';

type Words = (key: string, named: Record<string, string>) => string;

const EXTENSIONS: Record<RunFileKind, string> = { pdf: 'pdf', json: 'json', csv: 'csv', 'csv-samples': 'csv' };

// "GPU Lab – Matrix product – 2026-11-25.pdf"; the samples' CSV says so, beside the points' CSV of the same run.
export function runFileName(run: NamedRun, kind: RunFileKind, t: Words): string {
  const named = { lab: run.lab, date: fileDay(run.createdAt) };
  return safeFileName(t(kind === 'csv-samples' ? 'report.fileNames.samples' : 'report.fileNames.run', named), EXTENSIONS[kind]);
}

// "GPU Lab – Matrix product – 2026-11-25 vs 2026-11-23.pdf"; runs of two labs name both.
export function comparisonFileName(a: NamedRun, b: NamedRun, t: Words): string {
  const named = { lab: a.lab, first: a.lab, second: b.lab, a: fileDay(a.createdAt), b: fileDay(b.createdAt) };
  return safeFileName(t(a.lab === b.lab ? 'report.fileNames.comparison' : 'report.fileNames.comparisonLabs', named), 'pdf');
}

// "GPU Lab – every lab – cuda:0 – 2026-11-25.pdf" (the colon made a space), on the day it is written.
export function labsFileName(device: string, writtenAt: Date, t: Words): string {
  return safeFileName(t('report.fileNames.labs', { device, date: fileDay(writtenAt.toISOString()) }), 'pdf');
}
