// What NVRTC says, as an editor shows it: the log's "file(line): error: message" entries with the column read off
// the caret line under the echoed source, and the signature check the playground appends after the student's code
// reported on the kernel's own declaration instead of on lines the student never wrote.
import { confineCompilerLog } from './compiler-log-scope.ts';
import type { CompilerDiagnostic, KernelRun } from './playground.ts';
import { exerciseDefinition } from './exercises.ts';

const HEADLINE = /^(.*)\((\d+)\): (error|warning|remark)(?: #[\w-]+)?: (.*)$/;

// The lines appended to the student's source: a compile-time check that the kernel has the exercise's signature.
// Written with a template of its own: NVRTC has no <type_traits>.
export function signatureCheck(entry: string, paramTypes: readonly string[], signature: string): string {
  return [
    '',
    '// ---- appended by GPU Lab: the kernel must have the exercise\'s signature ----',
    'template <typename A, typename B> struct GpuLabSameType { static constexpr bool value = false; };',
    'template <typename A> struct GpuLabSameType<A, A> { static constexpr bool value = true; };',
    `static_assert(GpuLabSameType<decltype(&${entry}), void (*)(${paramTypes.join(', ')})>::value, ${JSON.stringify(`the kernel must be declared as ${signature}`)});`,
    '',
  ].join('\n');
}

// The line of the kernel's declaration in the student's source (1 when it cannot be found).
export function declarationLine(source: string, entry: string): number {
  const name = entry.replace(/<.*$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const lines = source.split('\n');
  const found = lines.findIndex((l) => new RegExp(`\\b${name}\\s*\\(`).test(l) && /__global__/.test(l));
  if (found >= 0) return found + 1;
  const any = lines.findIndex((l) => new RegExp(`\\b${name}\\b`).test(l));
  return any >= 0 ? any + 1 : 1;
}

// The column of the caret under an echoed source line: EDG prints the line indented, and the caret under the
// character at fault. Comparing the echo with the real line tells the indent.
function caretColumn(echo: string | undefined, caret: string | undefined, sourceLine: string | undefined): number | null {
  if (echo === undefined || caret === undefined || !/^\s*\^\s*$/.test(caret)) return null;
  const at = caret.indexOf('^');
  const real = (sourceLine ?? '').replace(/\s+$/, '');
  const shown = echo.replace(/\s+$/, '');
  const indent = real && shown.endsWith(real) ? shown.length - real.length : Math.max(0, shown.length - shown.trimStart().length - (real.length - real.trimStart().length));
  const column = at - indent + 1;
  return column >= 1 ? column : null;
}

export function parseCompilerLog(log: string, source: string, entry: string): CompilerDiagnostic[] {
  const sourceLines = source.split('\n');
  const userLines = sourceLines.length;
  const lines = log.split('\n');
  const out: CompilerDiagnostic[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = HEADLINE.exec(lines[i] ?? '');
    if (!m) continue;
    const line = Number(m[2]);
    const severity = m[3] as CompilerDiagnostic['severity'];
    const message = (m[4] ?? '').trim();
    // NVRTC's own name lookup (__nv_name_map: no kernel of that name) and the appended signature check: said on the
    // kernel's declaration, in words about the name or the signature, not on lines the student never wrote.
    if ((m[1] ?? '').startsWith('__nv')) {
      out.push({ line: declarationLine(source, entry), column: null, severity, message: `there must be a kernel named ${entry}: ${message}` });
      continue;
    }
    if (line > userLines) {
      out.push({ line: declarationLine(source, entry), column: null, severity, message: `signature check: ${message}` });
      continue;
    }
    out.push({ line, column: caretColumn(lines[i + 1], lines[i + 2], sourceLines[line - 1]), severity, message });
  }
  return out;
}

// A kernel run as the store writes and reads it: its log confined to the student's file, and its diagnostics read
// again from that log, so that a run stored before the log was confined never shows another file's lines.
export function confineKernelRun(run: KernelRun): KernelRun {
  const result = run.result;
  if (!result) return run;
  const log = confineCompilerLog(result.compile.log, run.request.fileName ?? `${run.exercise}.cu`);
  if (log === result.compile.log) return run;
  const diagnostics = parseCompilerLog(log, run.source, exerciseDefinition(run.exercise).entry);
  return { ...run, result: { ...result, compile: { ...result.compile, log, diagnostics } } };
}
