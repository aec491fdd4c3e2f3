// Compiler diagnostics as editor markers: at the line and column the compiler named, over the word that starts there
// (the name it complains about), over the line where it gave no column, and on the last line where the text has
// since become shorter than the line it named. "line L, col C" puts the cursor there.
import { Text } from '@codemirror/state';
import { describe, expect, it } from 'vitest';

import { editorDiagnostics, markedRange, offsetOf } from '../../../../renderer/components/playground/editor-diagnostics.ts';

const source = Text.of(['__global__ void saxpy(const float* x, float* out, size_t n) {', '  size_t i = blockIdx.x * blockDim.x + threadIdx.x;', '  if (i < n) out[i] = 2.0f * x[j];', '}']);
const marked = (d: { from: number; to: number }) => source.sliceString(d.from, d.to);

describe('compiler diagnostics in the editor', () => {
  it('underlines the identifier at the line and column NVRTC gave', () => {
    // saxpy.cu(3): error: identifier "j" is undefined — column 32 is the j in x[j].
    const [d] = editorDiagnostics(source, [{ line: 3, column: 32, severity: 'error', message: 'identifier "j" is undefined' }]);
    expect(d && [marked(d), d.severity, d.message]).toEqual(['j', 'error', 'identifier "j" is undefined']);
    expect(d?.from).toBe(source.line(3).from + 31);
  });

  it('underlines the whole line from its first character where there is no column, and a remark is information', () => {
    const [d] = editorDiagnostics(source, [{ line: 2, column: null, severity: 'remark', message: 'variable declared' }]);
    expect(d && [marked(d), d.severity]).toEqual(['size_t i = blockIdx.x * blockDim.x + threadIdx.x;', 'info']);
  });

  it('puts a diagnostic past the end of the text on its last line', () => {
    const [d] = editorDiagnostics(source, [{ line: 40, column: 1, severity: 'warning', message: 'w' }]);
    expect(d && [marked(d), d.severity]).toEqual(['}', 'warning']);
  });

  it('marks one character where no word starts at the column, and nothing past the line’s end', () => {
    expect(markedRange('  x = (a + b);', 7)).toEqual({ from: 6, to: 7 });
    expect(markedRange('ab', 9)).toEqual({ from: 2, to: 2 });
  });

  it('moves the cursor to line 3, column 32, and to the start of a line without a column', () => {
    expect(offsetOf(source, 3, 32)).toBe(source.line(3).from + 31);
    expect(offsetOf(source, 2, null)).toBe(source.line(2).from);
  });
});
