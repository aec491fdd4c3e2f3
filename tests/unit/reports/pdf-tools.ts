// Reading a report back the way a reader's tools do: poppler's pdftotext (the text, page by page), pdfinfo (the
// metadata and the page count) and pdftoppm (every page drawn), on the recorded runs of tests/fixtures/runs/ (and the
// WebGPU runs of tests/fixtures/webgpu-runs/, kept apart so that the suites listing every stored run keep theirs).
import { withCurrentFindings } from '../../../main/runs/current-findings.ts';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { catalogTranslate } from '../../../main/common/pure/i18n/translate.ts';
import { resultRows } from '../../../main/common/pure/charts/result-rows.ts';
import { results } from '../../../main/common/pure/i18n/en/results.ts';
import { GpuLabError } from '../../../main/common/errors.ts';
import { type RunRecord } from '../../../main/common/run-record.ts';
import { STORED_RECORD } from '../../../main/runs/stored-record.ts';
import { findLab } from '../../../main/labs/index.ts';

export const fixturesDir = fileURLToPath(new URL('../../fixtures/runs/', import.meta.url));
export const FIXTURES = readdirSync(fixturesDir).filter((n) => n.endsWith('.json')).map((n) => n.replace(/\.json$/, '')).sort();
export const webgpuFixturesDir = fileURLToPath(new URL('../../fixtures/webgpu-runs/', import.meta.url));
export const WEBGPU_FIXTURES = readdirSync(webgpuFixturesDir).filter((n) => n.endsWith('.json')).map((n) => n.replace(/\.json$/, '')).sort();

export function fixture(name: string): RunRecord {
  const dir = WEBGPU_FIXTURES.includes(name) ? webgpuFixturesDir : fixturesDir;
  return STORED_RECORD.parse(JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')));
}

// The app's own words for the chart and table functions, as the renderer's vue-i18n gives them.
export const appT = catalogTranslate({ results });

export function tempDir(prefix = 'gpu-lab-report-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function savePdf(bytes: Uint8Array, name = 'report.pdf'): string {
  const path = join(tempDir(), name);
  writeFileSync(path, bytes);
  return path;
}

function run(command: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) throw new Error(`${command} could not run (install poppler-utils): ${r.error.message}`);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// `layout`: each printed line kept as one line, as a table of contents needs (a title and its page number).
export function pdfText(file: string, page?: number, options: { layout?: boolean } = {}): string {
  const pages = page === undefined ? [] : ['-f', String(page), '-l', String(page)];
  const r = run('pdftotext', ['-enc', 'UTF-8', ...(options.layout ? ['-layout'] : []), ...pages, file, '-']);
  if (r.status !== 0) throw new Error(`pdftotext failed: ${r.stderr}`);
  return r.stdout;
}

export function pdfInfo(file: string): Record<string, string> {
  const r = run('pdfinfo', ['-enc', 'UTF-8', file]);
  if (r.status !== 0) throw new Error(`pdfinfo failed: ${r.stderr}`);
  return Object.fromEntries(r.stdout.split('\n').flatMap((line) => {
    const at = line.indexOf(':');
    return at > 0 ? [[line.slice(0, at).trim(), line.slice(at + 1).trim()]] : [];
  }));
}

// Every page drawn to a small PNG: the images made and what pdftoppm said on stderr.
export function renderPages(file: string): { status: number | null; stderr: string; images: string[] } {
  const dir = tempDir('gpu-lab-pages-');
  const r = run('pdftoppm', ['-png', '-r', '24', file, join(dir, 'page')]);
  return { status: r.status, stderr: r.stderr, images: readdirSync(dir).filter((n) => n.endsWith('.png')) };
}

// Runs of white space as one space: a figure drawn in one cell reads back whole.
export const spaced = (text: string): string => text.replace(/\s+/g, ' ');
// Without white space or hyphens: a sentence wrapped over lines reads back whole, whether a line ended at a space or
// after a hyphen (which pdftotext takes out when it joins "data-" and "centre").
export const packed = (text: string): string => text.replace(/[\s-]+/g, '');

// The text without what is printed on every page (the foot with the title and the page number, the header with the
// author and course), so that a paragraph continued on the next page reads as one.
export function bodyText(text: string, running: readonly string[]): string {
  let body = text.replace(/Page \d+ of \d+/g, ' ');
  for (const line of running) body = body.split(line).join(' ');
  return body;
}

// Every figure of the app's results table for this record, as the app formats it.
// Every figure of the results table as the app shows the record: read from the store, so as this version derives it.
export function resultFigures(record: RunRecord): string[] {
  const lab = findLab(record.lab)?.descriptor;
  if (!lab) throw new Error(`no lab ${record.lab}`);
  const figures = resultRows(withCurrentFindings(record), lab, appT).flatMap((row) => [row.median, row.iqr, row.range, row.rate, row.shareOfPeak, row.speedup]);
  return [...new Set(figures.filter((f) => f !== '—'))];
}

export function deviceNameOf(record: RunRecord): string {
  return record.environment.devices?.devices.find((d) => d.id === record.device)?.name ?? record.device;
}

// What a report refused with, from a promise that must reject with a GpuLabError: its code, message and details.
export async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string; details: Record<string, unknown> }> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof GpuLabError)) throw new Error(`expected a GpuLabError, got ${String(err)}`);
  return { code: err.code, message: err.message, details: err.details ?? {} };
}
