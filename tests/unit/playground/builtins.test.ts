// The engine's own measurements set beside a student's kernel: each is one the compute host accepts at every size
// the exercise allows, does the exercise's work (the same routine, size and scalar), and has a title in both
// languages.
import { describe, expect, it } from 'vitest';

import { MEASUREMENT } from '../../../main/common/measurement.ts';
import { exerciseDescriptors } from '../../../main/playground/descriptors.ts';
import { EXERCISES, exerciseDefinition, SAXPY_A } from '../../../main/common/exercises.ts';
import { defaultSourceRoots } from '../../../main/sources/kernel-sources.ts';

describe('the built-ins of the exercises', () => {
  it('every built-in is a valid measurement at the exercise’s smallest, default and largest size', () => {
    for (const def of EXERCISES) {
      for (const size of [def.size.min, 257, def.size.default, def.size.max]) {
        for (const b of def.builtins) {
          const parsed = MEASUREMENT.safeParse(b.measurement(size, 'cuda:0'));
          expect(parsed.success, `${def.id}/${b.id} at ${size}: ${parsed.error?.message ?? ''}`).toBe(true);
        }
      }
    }
  });

  it('saxpy, the sum and the transpose are measured with cuBLAS on the exercise’s size and scalar', () => {
    const cublas = (id: 'saxpy' | 'reduction' | 'transpose') => exerciseDefinition(id).builtins.find((b) => b.kind === 'cublas');
    expect(cublas('saxpy')?.measurement(1_000_003, 'cuda:1')).toMatchObject({ op: 'blas1', routine: 'saxpy', elements: 1_000_003, a: SAXPY_A, device: 'cuda:1' });
    expect(cublas('reduction')?.measurement(1_000_003, 'cuda:0')).toMatchObject({ op: 'blas1', routine: 'sum', elements: 1_000_003 });
    // The transpose's size is the matrix order N, not its N² elements.
    expect(cublas('transpose')?.measurement(257, 'cuda:0')).toMatchObject({ op: 'blas1', routine: 'transpose', n: 257 });
  });

  it('each cuBLAS comparison has a title that names cuBLAS, in English and Spanish', async () => {
    for (const locale of ['en', 'es'] as const) {
      for (const e of await exerciseDescriptors(locale, defaultSourceRoots())) {
        if (!['saxpy', 'reduction', 'transpose', 'sgemm'].includes(e.id)) continue;
        const titles = e.builtins.filter((b) => b.kind === 'cublas').map((b) => b.title);
        expect(titles, `${locale} ${e.id}`).toHaveLength(1);
        expect(titles[0]).toContain('cuBLAS');
      }
    }
  });
});
