#!/usr/bin/env node
// Writes main/common/reference-table.ts, the reference results GPU Lab ships: each lab's headline numbers with their
// intervals, per GPU model, from recorded runs of this version (main/common/pure/charts/headlines.ts referenceOf, the same as
// `gpu-lab runs export ID --reference`). Each record is read as the app reads one (runs/stored-record.ts: an older
// schema version's in this one's words, its work and names as this version counts them; then today's findings:
// runs/current-findings.ts); only completed runs on a GPU count, one per lab and GPU model.
//   node scripts/reference-table.mjs                  # from the H100 (and H200) runs kept in tests/fixtures/runs
//   node scripts/reference-table.mjs a.json b.json    # from the records named (another GPU model's, say)
// tests/unit/runs/reference-table.test.ts checks that the committed table is what this script writes.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { findLab } from '../main/labs/index.ts';
import { withCurrentFindings } from '../main/runs/current-findings.ts';
import { readStoredRecord } from '../main/runs/stored-record.ts';
import { referenceOf } from '../main/common/pure/charts/headlines.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const TABLE_PATH = join(ROOT, 'main/common/reference-table.ts');

// The recorded GPU runs of every lab with its defaults (tests/fixtures/README.md says how each was made).
export function fixtureRecords() {
  const dir = join(ROOT, 'tests/fixtures/runs');
  return readdirSync(dir)
    .filter((name) => /^h[12]00-.*\.json$/.test(name))
    .sort()
    .map((name) => join(dir, name));
}

function referenceFrom(path) {
  const read = readStoredRecord(JSON.parse(readFileSync(path, 'utf8')));
  if (!read.ok) throw new Error(`${path}: ${read.message}`);
  const lab = findLab(read.record.lab);
  if (!lab) throw new Error(`${path}: lab ${read.record.lab} is not one of this version's`);
  const record = withCurrentFindings(read.record);
  if (record.status !== 'completed') throw new Error(`${path}: the run is ${record.status}, not completed`);
  const reference = referenceOf(record, lab.descriptor);
  if (reference.machine.gpu === null) throw new Error(`${path}: the run measured no GPU`);
  return reference;
}

// The table's text: a reference a block, a headline point a line.
export function referenceTableText(paths) {
  const references = paths.map(referenceFrom);
  const seen = new Set();
  for (const r of references) {
    const key = `${r.lab} on ${r.machine.gpu}`;
    if (seen.has(key)) throw new Error(`two runs of ${key}: name one`);
    seen.add(key);
  }
  references.sort((a, b) => `${a.machine.gpu} ${a.lab}`.localeCompare(`${b.machine.gpu} ${b.lab}`));
  const block = (r) => {
    const { points, ...rest } = r;
    const head = JSON.stringify(rest).slice(0, -1);
    return `  ${head},\n    "points": [\n${points.map((p) => `      ${JSON.stringify(p)},`).join('\n')}\n    ]\n  },`;
  };
  return [
    '// The reference results GPU Lab ships: each lab\'s headline numbers with their intervals, per GPU model, made by',
    '// scripts/reference-table.mjs (do not edit by hand; tests/unit/runs/reference-table.test.ts checks it is that',
    "// script's output) from these recorded runs:",
    ...paths.map((p) => `//   ${basename(p)}`),
    '// The numbers are as JSON.stringify prints them, which read back to the very same doubles; the lint rule misjudges some.',
    '/* eslint-disable no-loss-of-precision */',
    "import type { ReferenceRun } from './reference-run.ts';",
    '',
    'export const REFERENCE_TABLE: readonly ReferenceRun[] = [',
    ...references.map(block),
    '];',
    '',
  ].join('\n');
}

if (import.meta.main) {
  const named = process.argv.slice(2);
  const text = referenceTableText(named.length ? named : fixtureRecords());
  writeFileSync(TABLE_PATH, text);
  process.stdout.write(`wrote ${TABLE_PATH}\n`);
}
