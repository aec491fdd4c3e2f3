// The WGSL kernels a WebGPU measurement runs: the files under shaders/wgsl/ that the labs also show as their sources,
// read once per process. They sit at the repository root, three folders up from main/host/webgpu/ and four from
// dist/main/host/webgpu/; the installed app passes its resources folder's copy (GPU_LAB_SHADERS_DIR).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { GpuLabError } from '../../common/errors.ts';

export const SHADERS_DIR_ENV = 'GPU_LAB_SHADERS_DIR';
export const WGSL_FILES = { elementwise: 'elementwise.wgsl', 'vector-function': 'vector_function.wgsl', gemm: 'gemm.wgsl' } as const;
export type WgslShader = keyof typeof WGSL_FILES;

// The line of a shader that names its element type, which its f16 form replaces.
const ELEMENT_F32 = 'alias Element = f32;';

const sources = new Map<WgslShader, string>();

function shaderDirs(): string[] {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const fromEnv = process.env[SHADERS_DIR_ENV];
  return [...(fromEnv ? [fromEnv] : []), join(here, '..', '..', '..', 'shaders'), join(here, '..', '..', '..', '..', 'shaders')];
}

// The repository path a lab names for `shader` ("shaders/wgsl/elementwise.wgsl").
export const wgslPath = (shader: WgslShader): string => `shaders/wgsl/${WGSL_FILES[shader]}`;

function fileSource(shader: WgslShader): string {
  const kept = sources.get(shader);
  if (kept !== undefined) return kept;
  const dirs = shaderDirs();
  for (const dir of dirs) {
    try {
      const text = readFileSync(join(dir, 'wgsl', WGSL_FILES[shader]), 'utf8');
      sources.set(shader, text);
      return text;
    } catch {
      // Not under this folder; try the next.
    }
  }
  throw new GpuLabError('NOT_FOUND', `The WGSL kernel ${wgslPath(shader)} is not installed with this copy of GPU Lab (looked in ${dirs.join(', ')})`, { file: wgslPath(shader) });
}

// The shader's source; `f16`: its f16 form, WGSL's f16 enabled and its Element type f16 (a shader written for it
// names its element type in one `alias Element = f32;` line).
export function wgslSource(shader: WgslShader, f16 = false): string {
  const text = fileSource(shader);
  if (!f16) return text;
  if (!text.includes(ELEMENT_F32)) throw new GpuLabError('NOT_FOUND', `${wgslPath(shader)} has no f16 form (no "${ELEMENT_F32}" line)`, { file: wgslPath(shader) });
  return `enable f16;\n${text.replace(ELEMENT_F32, 'alias Element = f16;')}`;
}
