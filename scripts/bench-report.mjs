#!/usr/bin/env node
// The PDF report's own cost, against its targets: a one-lab report under 1 s and under 2 MB, the seven-lab report
// under 5 s. Every recorded run of tests/fixtures/runs/ (the H100's and this machine's) is reported `repeats` times in
// this process; each row gives the median and the slowest time, the size and the pages. The first report of the
// process also loads the PDF library, the canvas, Chart.js and the fonts: it is timed on its own ("first report"),
// with the modules' import before it, which is what `gpu-lab runs report` pays on top of Node's start.
//   node scripts/bench-report.mjs [repeats]      (default 3)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repeats = Number(process.argv[2] ?? 3);
const ONE_LAB_MS = 1000;
const ONE_LAB_BYTES = 2 * 1024 * 1024;
const ALL_LABS_MS = 5000;
const LABS = ['transfer', 'dtypes', 'matmul', 'vector-function', 'elementwise-breakeven', 'matmul-breakeven', 'timing-pitfalls'];

const fixtures = fileURLToPath(new URL('../tests/fixtures/runs/', import.meta.url));
const load = (name) => JSON.parse(readFileSync(join(fixtures, `${name}.json`), 'utf8'));
const names = readdirSync(fixtures).filter((n) => n.endsWith('.json')).map((n) => n.replace(/\.json$/, '')).sort();

const importStart = performance.now();
const { writeLabsReport, writeRunReport } = await import('../main/reports/report-writer.ts');
const importMs = performance.now() - importStart;

const options = { author: 'Laura Llamas López', course: 'Programación de GPUs', writerVersion: 'bench' };
const firstStart = performance.now();
await writeRunReport(load('h100-matmul'), options);
const firstMs = performance.now() - firstStart;

async function timed(write) {
  const times = [];
  let pdf = null;
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    pdf = await write();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: times[times.length >> 1], max: times.at(-1), bytes: pdf.bytes.length, pages: pdf.pages };
}

const ms = (v) => `${v.toFixed(0)} ms`.padStart(8);
const size = (b) => `${(b / 1024).toFixed(0)} KiB`.padStart(9);
let missed = 0;
function row(name, r, limitMs, limitBytes) {
  const ok = r.max < limitMs && (limitBytes === null || r.bytes < limitBytes);
  if (!ok) missed++;
  console.log(`  ${name.padEnd(30)} ${ms(r.median)} ${ms(r.max)} ${size(r.bytes)} ${String(r.pages).padStart(5)}   ${ok ? 'within' : 'OVER'}`);
}

console.log(`PDF report: ${repeats} reports of each recorded run; targets: one lab under ${ONE_LAB_MS} ms and ${ONE_LAB_BYTES / 1024 / 1024} MiB, seven labs under ${ALL_LABS_MS} ms`);
console.log(`  importing the writer (pdfkit, @napi-rs/canvas, Chart.js): ${importMs.toFixed(0)} ms; first report (fonts loaded, charts registered): ${firstMs.toFixed(0)} ms`);
console.log(`  ${'report'.padEnd(30)} ${'median'.padStart(8)} ${'slowest'.padStart(8)} ${'size'.padStart(9)} ${'pages'.padStart(5)}`);
for (const name of names) row(name, await timed(() => writeRunReport(load(name), options)), ONE_LAB_MS, ONE_LAB_BYTES);
for (const device of ['h100', 'cpu']) {
  const records = LABS.map((lab) => load(`${device}-${lab}`));
  row(`seven labs, ${device}`, await timed(() => writeLabsReport(records, records[0].device, options)), ALL_LABS_MS, null);
}
console.log(missed === 0 ? '  every report within its targets' : `  ${missed} report(s) OVER their targets`);
process.exitCode = missed === 0 ? 0 : 1;
