// `gpu-lab kernel run --ptx`: the PTX printed in runs under the line of the source each came from, as FILE:LINE and
// the line's text, from a real listing (nvcc -ptx -lineinfo of the SGEMM starter).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { listingText } from '../../../main/cli/listing-text.ts';
import { cliText } from '../../../main/cli/cli-text.ts';
import { listingBlocks } from '../../../main/common/pure/listing-blocks.ts';
import { ptxListing } from '../../../main/host/listings.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const source = readFileSync(join(root, 'shaders/playground/sgemm.starter.cu'), 'utf8');
const ptx = readFileSync(join(root, 'tests/unit/host/fixtures/sgemm.starter.ptx'), 'utf8');
const listing = ptxListing(ptx, 'sgemm.cu', source.split('\n').length, 'NVRTC 13.0 (compute_90)');

describe('kernel run --ptx', () => {
  it('heads each run of instructions with FILE:LINE and that line of the source, the loop\'s multiply-add under the loop', () => {
    for (const locale of ['en', 'es'] as const) {
      const text = listingText(listing, source, 'sgemm.cu', cliText(locale));
      const lines = text.split('\n');
      const loop = source.split('\n').findIndex((l) => l.includes('for (int p = 0')) + 1;
      const fma = lines.findIndex((l) => /fma\.rn\.f32/.test(l));
      const heading = lines.slice(0, fma).reverse().find((l) => l.startsWith('// sgemm.cu:'));
      expect(heading).toBe(`// sgemm.cu:${loop}  ${source.split('\n')[loop - 1]?.trim()}`);
      expect(lines[0]).toContain('PTX');
      expect(lines[0]).toContain('NVRTC 13.0 (compute_90)');
    }
  });

  it('prints every line of the listing once, in order', () => {
    const text = listingText(listing, source, 'sgemm.cu', cliText('en'));
    const printed = text.split('\n').filter((l) => !l.startsWith('// sgemm.cu:')).slice(1);
    expect(printed).toEqual(listing.lines.map((l) => l.text));
    expect(listingBlocks(listing).flatMap((b) => b.lines)).toEqual(listing.lines.map((l) => l.text));
  });
});
