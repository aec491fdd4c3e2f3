import { describe, expect, it } from 'vitest';

import { declarationLine, parseCompilerLog, signatureCheck } from '../../../main/common/compiler-log.ts';

const source = [
  '// saxpy',
  '__global__ void saxpy(const float* x, const float* y, float* out, float a, size_t n) {',
  '  const size_t i = blockIdx.x * blockDim.x + threadIdx.x;',
  '  if (i < n) out[i] = a * x[i] + q;',
  '}',
].join('\n');

describe('the compiler’s log as editor diagnostics', () => {
  it('reads line, severity and message, and the column from the caret under the echoed line', () => {
    // EDG's layout, as NVRTC prints it: the headline, the source line indented, a caret under the fault.
    const log = [
      'saxpy.cu(4): error: identifier "q" is undefined',
      '    if (i < n) out[i] = a * x[i] + q;',
      '                                   ^',
      '',
      'saxpy.cu(3): warning #177-D: variable "j" was declared but never referenced',
      '',
      '1 error detected in the compilation of "saxpy.cu".',
    ].join('\n');
    const d = parseCompilerLog(log, source, 'saxpy');
    expect(d).toEqual([
      { line: 4, column: (source.split('\n')[3] ?? '').indexOf('q;') + 1, severity: 'error', message: 'identifier "q" is undefined' },
      { line: 3, column: null, severity: 'warning', message: 'variable "j" was declared but never referenced' },
    ]);
  });

  it('puts an error of the appended signature check on the kernel’s declaration', () => {
    const full = source + signatureCheck('saxpy', ['const float*', 'const float*', 'float*', 'float', 'size_t'], '__global__ void saxpy(…)');
    const checkLine = full.split('\n').findIndex((l) => l.startsWith('static_assert')) + 1;
    const log = `saxpy.cu(${checkLine}): error: static assertion failed with "the kernel must be declared as __global__ void saxpy(…)"\n`;
    const [d] = parseCompilerLog(log, source, 'saxpy');
    expect(d).toMatchObject({ line: 2, column: null, severity: 'error' });
    expect(d?.message).toMatch(/^signature check: .*must be declared as/);
  });

  it('puts NVRTC’s failed lookup of the kernel’s name on the declaration, never on its internal file', () => {
    const [d] = parseCompilerLog('__nv_name_map(2): error: identifier "saxpy" is undefined\n', source.replace('saxpy(', 'saxpi('), 'saxpy');
    expect(d).toMatchObject({ line: 1, severity: 'error', message: 'there must be a kernel named saxpy: identifier "saxpy" is undefined' });
  });

  it('the check names the entry and the exact parameter types, after the student’s lines (line numbers unchanged)', () => {
    const check = signatureCheck('TransposeTile<float>', ['const float*', 'float*', 'int', 'int'], 'sig');
    expect(check.startsWith('\n')).toBe(true);
    expect(check).toContain('decltype(&TransposeTile<float>), void (*)(const float*, float*, int, int)');
  });

  it('finds the declaration of a kernel, and of a template kernel by its name', () => {
    expect(declarationLine(source, 'saxpy')).toBe(2);
    expect(declarationLine('template <typename T>\n__global__ void TransposeTile(const T* in) {}', 'TransposeTile<float>')).toBe(2);
    expect(declarationLine('int main;', 'saxpy')).toBe(1);
  });
});
