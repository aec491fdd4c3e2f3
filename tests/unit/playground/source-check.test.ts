// The playground's allowlist judged by an independent reader: GCC's preprocessor (`cpp -std=c++17`). Sources are
// generated that try to name a sentinel file in every spelling known to slip past a line-by-line check, alone and
// combined; whenever cpp reads the sentinel (its contents or a probe of it reach the output, or it is a
// dependency), our check must refuse the source. The exercises' own starters and references must all pass.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { checkKernelSource } from '../../../main/common/pure/kernel-source-check.ts';
import { EXERCISES } from '../../../main/common/exercises.ts';
import { includeSpellings, otherSpellings } from '../serve/hostile-sources.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../../..');

let dir = '';
let sentinel = '';
const READ_MARK = 'GPU_LAB_SENTINEL_WAS_READ';
const PROBE_MARK = 'GPU_LAB_SENTINEL_WAS_PROBED';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gpu-lab-oracle-'));
  sentinel = join(dir, 'sentinel.h');
  writeFileSync(sentinel, `${READ_MARK}\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let serial = 0;
// Whether GCC's preprocessor, reading `source` as C++17, opens or probes the sentinel.
async function oracleReads(source: string): Promise<boolean> {
  const name = join(dir, `case-${serial++}`);
  writeFileSync(`${name}.cpp`, source);
  // A source cpp refuses (an #include of a missing file, a bad directive) still counts by what it wrote before.
  await run('cpp', ['-std=c++17', '-P', '-w', '-MD', '-MF', `${name}.d`, `${name}.cpp`, '-o', `${name}.i`]).catch(() => undefined);
  const readIfThere = (path: string): string => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return '';
    }
  };
  const out = readIfThere(`${name}.i`);
  const deps = readIfThere(`${name}.d`);
  return out.includes(READ_MARK) || out.includes(PROBE_MARK) || deps.includes('sentinel.h');
}

describe('the playground source check against GCC’s preprocessor', () => {
  it('refuses every generated source through which cpp reads or probes the sentinel file', async () => {
    const all = [...includeSpellings(sentinel), ...otherSpellings(sentinel, PROBE_MARK)];
    let read = 0;
    const slipped: string[] = [];
    // Four cpp processes at a time: a 2-core machine finishes the 500 in seconds.
    for (let i = 0; i < all.length; i += 4) {
      const batch = all.slice(i, i + 4);
      const verdicts = await Promise.all(batch.map(oracleReads));
      batch.forEach((source, k) => {
        if (!verdicts[k]) return;
        read += 1;
        if (checkKernelSource(source) === null) slipped.push(JSON.stringify(source));
      });
    }
    expect(slipped).toEqual([]);
    // The generator must really produce sources cpp follows, or the test proves nothing.
    expect(read).toBeGreaterThan(200);
  }, 120_000);

  it('refuses each spelling named in the security report, at the student’s line and column', () => {
    const at = (source: string): [number, number, string] => {
      const r = checkKernelSource(source);
      return r ? [r.line, r.column, r.reason] : [0, 0, 'accepted'];
    };
    expect(at('__global__ void k() {}\n/**/#include "/etc/passwd"\n')).toEqual([2, 5, 'directive']);
    expect(at('#/*c*/include "/etc/passwd"')).toEqual([1, 1, 'directive']);
    expect(at('\n\n#\\\ninclude "/etc/passwd"')).toEqual([3, 1, 'directive']);
    expect(at('#incl\\\nude "/etc/passwd"')).toEqual([1, 1, 'directive']);
    expect(at('int x;\n%:include "/etc/passwd"')).toEqual([2, 1, 'directive']);
    expect(at('#include_next "/etc/passwd"')).toEqual([1, 1, 'directive']);
    expect(at('int x;\r#include "/etc/passwd"')).toEqual([2, 1, 'directive']);
    expect(at('int x;\r\n  _Pragma("GCC dependency \\"/etc/passwd\\"")')).toEqual([2, 3, 'forbidden-identifier']);
    expect(at('#define J(a,b) a ## b')).toEqual([1, 18, 'token-paste']);
    expect(at('x ??= y;')).toEqual([1, 3, 'trigraph']);
    expect(at('int a; // \\ \n#include "x"')).toEqual([1, 11, 'splice-before-space']);
    expect(at('const char* s = R"(x)";')).toEqual([1, 17, 'raw-string']);
    expect(at('int \\u0061;')).toEqual([1, 5, 'backslash']);
    expect(at('int a;\u0000#include "x"')).toEqual([1, 7, 'control-character']);
    expect(at('/* never closed\n#include "x"')).toEqual([1, 1, 'unterminated-comment']);
    expect(at('#pragma once')).toEqual([1, 1, 'directive']);
    expect(at('#define S(x) #x\nint a; #include "x"')).toEqual([2, 9, 'stray-hash']);
    // GCC before 10 spelt its probes with trailing underscores; a compiler that still knows them reads the file.
    expect(at('#if __has_include__("/etc/passwd")\n#endif')).toEqual([1, 5, 'forbidden-identifier']);
    expect(at('#define P __has_include_next__\n#if P(<shadow>)\n#endif')).toEqual([1, 11, 'forbidden-identifier']);
  });

  it('accepts what kernels use: macros, conditions, #pragma unroll, stringizing, strings and comments that mention #include', () => {
    const source = [
      '// #include "/etc/passwd" in a comment is only words',
      '/* so is this: #include <x> */',
      '#define TILE 32',
      '#define STR(x) #x',
      '#define MAX(a, b) ((a) > (b) ? (a) : (b))',
      '#ifndef N',
      '#  define N 1\'024',
      '#elif defined(TILE) && TILE > 16',
      '#else',
      '#endif',
      '#undef MAX',
      'const char* s = "#include \\"x\\" ??";',
      "const char c = '#';",
      '__global__ void k(float* out) {',
      '#pragma unroll 4',
      '  for (int i = 0; i < 4; ++i) out[i] = 1.5e+3f + 0x1p-2f;',
      '%:pragma unroll',
      '  for (int i = 0; i < 4; ++i) out[i] += 1;',
      '}',
      '// a comment whose line is spliced onto the next \\',
      '#include "/etc/passwd" (so this is comment too, for GCC and for the check)',
      '#define LONG_MACRO(a) \\',
      '  (a + 1)',
      '',
    ].join('\r\n');
    expect(checkKernelSource(source)).toBeNull();
  });

  it('accepts every exercise’s starter and reference kernel as shipped', () => {
    const files = EXERCISES.flatMap((e) => e.kernels.map((k) => k.file));
    expect(files.length).toBeGreaterThanOrEqual(12);
    for (const file of files) expect({ file, refusal: checkKernelSource(readFileSync(join(root, file), 'utf8')) }).toEqual({ file, refusal: null });
  });
});
