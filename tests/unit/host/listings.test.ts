// The compiler's listings beside the student's source: the PTX (a real one, from nvcc -ptx -lineinfo of the SGEMM
// starter, the format NVRTC writes) and nvdisasm's SASS, each line mapped to the line of the source it came from.
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { disassemble, ptxListing, sassListing, toolCandidates } from '../../../main/host/listings.ts';
import { MAX_LISTING_LINES } from '../../../main/common/playground.ts';

const fixtures = join(import.meta.dirname, 'fixtures');
const root = join(import.meta.dirname, '..', '..', '..');
const ptx = readFileSync(join(fixtures, 'sgemm.starter.ptx'), 'utf8');
const source = readFileSync(join(root, 'shaders/playground/sgemm.starter.cu'), 'utf8').split('\n');
const lineOf = (needle: string): number => source.findIndex((l) => l.includes(needle)) + 1;

describe('PTX listing', () => {
  const listing = ptxListing(ptx, 'sgemm.cu', source.length, 'NVRTC 13.0 (compute_90)');

  it('maps the loop\'s multiply-add and the store to their lines of the source', () => {
    const fma = listing.lines.filter((l) => /\bfma\.rn\.f32\b/.test(l.text));
    expect(fma.length).toBeGreaterThan(0);
    for (const l of fma) expect(l.source).toBe(lineOf('for (int p = 0; p < k; ++p)'));
    const store = listing.lines.find((l) => /st\.global\.f32/.test(l.text));
    expect(store?.source).toBe(lineOf('c[static_cast<size_t>(row) * n + col] = sum;'));
  });

  it('keeps the instructions and leaves out the .loc and .file directives', () => {
    expect(listing.lines.some((l) => /^\s*\.(loc|file)\b/.test(l.text))).toBe(false);
    expect(listing.lines.some((l) => /\.entry\s+_Z5sgemm/.test(l.text))).toBe(true);
    expect(listing).toMatchObject({ kind: 'ptx', tool: 'NVRTC 13.0 (compute_90)', truncated: 0, unavailable: null });
  });

  it('maps nothing to a line past the student\'s source, nor to another file, nor to line 0', () => {
    // The same PTX with the source cut to its first 7 lines: the loop (line 10) and the store map to none.
    const cut = ptxListing(ptx, 'sgemm.cu', 7, 'NVRTC');
    expect(cut.lines.every((l) => l.source === null || l.source <= 7)).toBe(true);
    expect(ptxListing(ptx, 'other.cu', source.length, 'NVRTC').lines.every((l) => l.source === null)).toBe(true);
    expect(listing.lines.every((l) => l.source === null || l.source >= 1)).toBe(true);
  });

  it('cuts a listing past its limit and says how many lines were left out', () => {
    const long = `.visible .entry k()\n{\n${'\tadd.s32 %r1, %r1, 1;\n'.repeat(MAX_LISTING_LINES + 5)}}\n`;
    const l = ptxListing(long, 'k.cu', 1, 'NVRTC');
    expect(l.lines).toHaveLength(MAX_LISTING_LINES);
    // Two lines before the instructions and the closing brace after them.
    expect(l.truncated).toBe(8);
  });
});

describe('SASS listing', () => {
  // nvdisasm -c -g's shape: a function's section, the line markers, instructions with their offsets.
  const sass = [
    '\t.text.sgemm:',
    '        /*0000*/                   LDC R1, c[0x0][0x28] ;',
    '\t//## File "sgemm.cu", line 6',
    '        /*0010*/                   S2R R0, SR_CTAID.X ;',
    '.L_x_1:',
    '\t//## File "sgemm.cu", line 10 inlined at "sgemm.cu", line 10',
    '        /*0020*/                   FFMA R9, R10, R11, R9 ;',
    '\t//## File "sgemm.cu", line 40',
    '        /*0030*/                   EXIT ;',
    '',
  ].join('\n');

  it('maps each instruction to the line marked before it, and labels and directives to none', () => {
    const l = sassListing(sass, 'sgemm.cu', 12, 'nvdisasm 13.0');
    expect(l.lines.map((x) => [x.text.trim().replace(/^\/\*\w+\*\/\s+/, '').split(' ')[0], x.source])).toEqual([
      ['.text.sgemm:', null],
      ['LDC', null],
      ['S2R', 6],
      ['.L_x_1:', null],
      ['FFMA', 10],
      // Line 40 is past the student's 12 lines: the signature check appended to the source.
      ['EXIT', null],
    ]);
  });
});

describe('the disassembler', () => {
  it('is looked for in PATH, then CUDA_PATH, CUDA_HOME and /usr/local/cuda', () => {
    expect(toolCandidates('nvdisasm', { PATH: '/a:/b', CUDA_PATH: '/c', CUDA_HOME: '/d' })).toEqual(['/a/nvdisasm', '/b/nvdisasm', '/c/bin/nvdisasm', '/d/bin/nvdisasm', '/usr/local/cuda/bin/nvdisasm']);
  });

  it('runs the nvdisasm it finds on the cubin, with line numbers, and says so', async () => {
    // A stand-in nvdisasm in a CUDA_PATH of its own: it prints its version, or a listing naming the file it was given.
    const cuda = mkdtempSync(join(tmpdir(), 'gpu-lab-cuda-'));
    const bin = join(cuda, 'bin');
    const tool = join(bin, 'nvdisasm');
    await import('node:fs').then((fs) => fs.mkdirSync(bin));
    writeFileSync(tool, `#!/bin/sh\nif [ "$1" = --version ]; then echo 'Cuda compilation tools, release 12.9, V12.9.1'; exit 0; fi\necho "args $*" >&2\nprintf '\\t.text.k:\\n\\t//## File "k.cu", line 2\\n        /*0000*/ EXIT ;\\n'\n[ "$1 $2" = "-c -g" ] && [ -s "$3" ]\n`);
    chmodSync(tool, 0o755);
    const l = await disassemble(new Uint8Array([0x7f, 0x45, 0x4c, 0x46]), 'k.cu', 3, { PATH: '', CUDA_PATH: cuda });
    expect(l).toMatchObject({ kind: 'sass', tool: 'nvdisasm 12.9', unavailable: null });
    expect(l.lines.at(-1)).toEqual({ text: '        /*0000*/ EXIT ;', source: 2 });
  });
});
