// The code blocks read a kernel with the editor's grammar (@lezer/cpp): comments, strings, directives, numbers,
// keywords, types and CUDA's own words each get their kind, CUDA words inside a comment or a string do not, a
// comment spanning lines stays one, and the text comes back exactly as it was, line by line.
import { describe, expect, it } from 'vitest';

import { highlightLines } from '../../../../renderer/components/code/highlight.ts';
import type { Token } from '../../../../renderer/components/code/highlight.ts';

const SOURCE = [
  '#define TILE 32',
  '/* a comment that names threadIdx',
  '   and ends here */ __global__ void k(const float* x, int n) {',
  '  int i = blockIdx.x * blockDim.x + threadIdx.x;  // threadIdx again',
  '  if (i < n) printf("threadIdx %d", 42);',
  '}',
].join('\r\n');

const kindOf = (lines: Token[][], line: number, text: string): string | undefined => lines[line]?.find((t) => t.text.includes(text))?.kind;

describe('highlightLines', () => {
  const lines = highlightLines(SOURCE);

  it('gives back every line, and its text unchanged', () => {
    expect(lines.map((l) => l.map((t) => t.text).join(''))).toEqual(SOURCE.split('\r\n'));
  });

  it('colours each kind of token as the editor does', () => {
    expect(kindOf(lines, 0, '#define')).toBe('preprocessor');
    expect(kindOf(lines, 1, 'a comment')).toBe('comment');
    expect(kindOf(lines, 2, 'ends here')).toBe('comment');
    expect(kindOf(lines, 2, '__global__')).toBe('cuda');
    expect(kindOf(lines, 2, 'void')).toBe('type');
    expect(kindOf(lines, 2, 'const')).toBe('keyword');
    expect(kindOf(lines, 3, 'blockIdx')).toBe('cuda');
    expect(kindOf(lines, 4, 'if')).toBe('keyword');
    expect(kindOf(lines, 4, '42')).toBe('number');
    expect(kindOf(lines, 4, '"threadIdx %d"')).toBe('string');
  });

  it('leaves CUDA words alone inside comments and strings', () => {
    expect(lines[1]?.some((t) => t.kind === 'cuda')).toBe(false);
    expect(lines[3]?.find((t) => t.text.includes('threadIdx again'))?.kind).toBe('comment');
    expect(lines[4]?.some((t) => t.kind === 'cuda')).toBe(false);
  });
});
