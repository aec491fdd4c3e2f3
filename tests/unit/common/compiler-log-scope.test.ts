// The second layer of the playground's door: a compiler log reaches a person only for the student's own file, and a
// stored kernel run (written before, or by a host that let one through) never shows another file's lines.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { confineCompilerLog } from '../../../main/common/compiler-log-scope.ts';
import type { KernelRun } from '../../../main/common/playground.ts';
import { KernelStore } from '../../../main/playground/kernel-store.ts';

const fixtures = join(import.meta.dirname, '../../fixtures/kernel-runs');
const SECRET = 'root:x:0:0:root:/root:/bin/bash';

// What NVRTC wrote on the H100 for `/**/#include "/etc/passwd"` in saxpy.cu: an entry about the included file,
// quoting its first line, then one about the student's.
const LEAKY_LOG = [
  `/etc/passwd(1): error: expected a declaration`,
  `  ${SECRET}`,
  `  ^`,
  ``,
  `/etc/passwd(2): error: identifier "daemon" is undefined`,
  `  daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin`,
  `  ^`,
  ``,
  `saxpy.cu(5): error: identifier "q" is undefined`,
  `    if (i < n) out[i] = a * x[i] + q;`,
  `                                   ^`,
  ``,
  `3 errors detected in the compilation of "saxpy.cu".`,
  ``,
].join('\n');

describe('the compiler log, confined to the student’s file', () => {
  it('drops every entry about another file, whole, and says how many', () => {
    const log = confineCompilerLog(LEAKY_LOG, 'saxpy.cu');
    expect(log).not.toContain('root:');
    expect(log).not.toContain('daemon');
    expect(log).toContain('saxpy.cu(5): error: identifier "q" is undefined');
    expect(log).toContain('    if (i < n) out[i] = a * x[i] + q;');
    expect(log).toContain('3 errors detected in the compilation of "saxpy.cu".');
    expect(log).toMatch(/\(2 compiler messages about a file other than saxpy\.cu were left out/);
    // Confining again changes nothing: a stored run read twice says the same.
    expect(confineCompilerLog(log, 'saxpy.cu')).toBe(log);
  });

  it('keeps a log about the student’s file alone as it was, and NVRTC’s own name lookup', () => {
    const own = readFileSync(join(fixtures, 'h100-saxpy-compile-error.json'), 'utf8');
    const log = (JSON.parse(own) as KernelRun).result?.compile.log ?? '';
    expect(confineCompilerLog(log, 'saxpy.cu')).toBe(log);
    const lookup = '__nv_name_map(2): error: identifier "saxpy" is undefined\n  saxpy\n  ^\n';
    expect(confineCompilerLog(lookup, 'saxpy.cu')).toBe(lookup);
    expect(confineCompilerLog('saxpy.cu: error: no kernel named "saxpy" was found\n', 'saxpy.cu')).toContain('no kernel named');
  });

  it('drops lines that come before any headline, where nothing says whose text they are', () => {
    const log = confineCompilerLog(`${SECRET}\nmore of it\nsaxpy.cu(1): warning: unused\n  int x;\n  ^\n`, 'saxpy.cu');
    expect(log).not.toContain('root:');
    expect(log).toMatch(/^saxpy\.cu\(1\): warning/);
    expect(log).toMatch(/1 compiler message about a file other than saxpy\.cu was left out/);
  });
});

describe('kernel runs on disk', () => {
  const leaky = (): KernelRun => {
    const run = JSON.parse(readFileSync(join(fixtures, 'h100-saxpy-compile-error.json'), 'utf8')) as KernelRun;
    if (!run.result) throw new Error('the fixture has a result');
    run.result.compile.log = LEAKY_LOG;
    run.result.compile.diagnostics = [{ line: 1, column: null, severity: 'error', message: `signature check: ${SECRET}` }, ...run.result.compile.diagnostics];
    return run;
  };

  it('are written without another file’s lines, whatever the host sent', async () => {
    const store = new KernelStore(mkdtempSync(join(tmpdir(), 'gpu-lab-kscope-')));
    const run = leaky();
    await store.save(run);
    const onDisk = readFileSync(join(store.runsDir, `${run.id}.json`), 'utf8');
    expect(onDisk).not.toContain('root:');
    expect(onDisk).toContain('identifier \\"q\\" is undefined');
  });

  it('read from before the log was confined show no line of another file, log or diagnostics', async () => {
    const store = new KernelStore(mkdtempSync(join(tmpdir(), 'gpu-lab-kscope-')));
    const run = leaky();
    writeFileSync(join(store.runsDir, `${run.id}.json`), JSON.stringify(run));
    const read = await store.get(run.id);
    expect(JSON.stringify(read)).not.toContain('root:');
    expect(JSON.stringify(read)).not.toContain('daemon');
    // The diagnostics read again from the confined log: the student's one error, where NVRTC put it.
    const original = JSON.parse(readFileSync(join(fixtures, 'h100-saxpy-compile-error.json'), 'utf8')) as KernelRun;
    expect(read.result?.compile.diagnostics).toEqual(original.result?.compile.diagnostics);
    expect(read.result?.compile.diagnostics).toHaveLength(1);
    expect(JSON.stringify(await store.list())).not.toContain('root:');
  });
});
