// The compiler's diagnostics (line, column, severity, message) as the editor's lint markers: an underline from the
// column to the end of the word there, or over the whole line where the compiler gave no column. A line past the end
// of the text (the student edited since) marks the last line rather than vanishing.
import type { Diagnostic } from '@codemirror/lint';
import type { Text } from '@codemirror/state';

import type { CompilerDiagnostic } from '../../../main/common/playground.ts';

const SEVERITY: Record<CompilerDiagnostic['severity'], Diagnostic['severity']> = { error: 'error', warning: 'warning', remark: 'info' };

export function editorDiagnostics(doc: Text, diagnostics: readonly CompilerDiagnostic[]): Diagnostic[] {
  return diagnostics.map((d) => {
    const line = doc.line(Math.min(Math.max(1, d.line), doc.lines));
    const { from, to } = markedRange(line.text, d.column);
    return { from: line.from + from, to: line.from + to, severity: SEVERITY[d.severity], message: d.message };
  });
}

// Offsets within the line: from the (1-based) column to the end of the identifier or number that starts there, or
// one character where none does; without a column, the line from its first non-blank character.
export function markedRange(text: string, column: number | null): { from: number; to: number } {
  if (column === null) {
    const from = text.length - text.trimStart().length;
    return { from, to: text.length };
  }
  const from = Math.min(Math.max(0, column - 1), text.length);
  const word = /^\w+/.exec(text.slice(from));
  return { from, to: Math.min(text.length, from + (word ? word[0].length : 1)) };
}

// Where "line L, col C" puts the cursor: the offset in the text, clamped to it.
export function offsetOf(doc: Text, line: number, column: number | null): number {
  const target = doc.line(Math.min(Math.max(1, line), doc.lines));
  return target.from + Math.min(Math.max(0, (column ?? 1) - 1), target.length);
}
