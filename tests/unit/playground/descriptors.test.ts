import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { exerciseDescriptors } from '../../../main/playground/descriptors.ts';
import { defaultSourceRoots } from '../../../main/sources/kernel-sources.ts';

const root = join(import.meta.dirname, '..', '..', '..');

describe('the exercises as the app shows them', () => {
  it('eight exercises (Unit 10’s multiply and add among them), each with a starter and a reference whose text is the file on disk, in both languages', async () => {
    for (const locale of ['en', 'es'] as const) {
      const exercises = await exerciseDescriptors(locale, defaultSourceRoots());
      expect(exercises.map((e) => e.id)).toEqual(['polynomial-fp32', 'polynomial-fp64', 'saxpy', 'reduction', 'transpose', 'sgemm', 'multiply', 'add']);
      for (const e of exercises) {
        expect(e.kernels.filter((k) => k.kind === 'starter')).toHaveLength(1);
        expect(e.kernels.some((k) => k.kind === 'reference')).toBe(true);
        for (const k of e.kernels) {
          expect(k.text).toBe(readFileSync(join(root, k.file), 'utf8'));
          // The kernel the exercise launches is in the file, by its name.
          expect(k.text).toMatch(new RegExp(`__global__ void\\s+(__launch_bounds__\\([\\w, ]+\\)\\s+)?${k.entry.replace(/<.*$/, '')}\\(`));
          expect(k.title.length).toBeGreaterThan(5);
        }
        expect(e.signature).toMatch(new RegExp(`^__global__ void ${e.entry}\\(`));
      }
    }
  });

  it('the starters declare exactly the exercise’s signature', async () => {
    for (const e of await exerciseDescriptors('en', defaultSourceRoots())) {
      const starter = e.kernels.find((k) => k.kind === 'starter');
      const declared = starter?.text.replace(/\s+/g, ' ') ?? '';
      expect(declared).toContain(e.signature.replace(/\s+/g, ' '));
    }
  });

  it('the reference solutions of SGEMM, fp64 polynomial and transpose are the engine’s own kernels, one file for nvcc and NVRTC', () => {
    for (const [built, shared] of [['shaders/cuda/sgemm.cu', 'sgemm_tiled.cuh'], ['shaders/cuda/vector_function.cu', 'vector_function_fused.cuh'], ['shaders/cuda/transpose.cu', 'transpose_tile.cuh']] as const) {
      expect(readFileSync(join(root, built), 'utf8')).toContain(`#include "${shared}"`);
      // NVRTC compiles the shared file alone: it must include nothing.
      expect(readFileSync(join(root, 'shaders/cuda', shared), 'utf8')).not.toMatch(/^#include/m);
    }
  });
});
