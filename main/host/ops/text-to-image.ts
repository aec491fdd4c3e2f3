// The text-to-image lab's point as the Python worker measures it (python/gpu_lab_peers/labs/text_to_image.py): no
// inputs from the engine (the latents, the prompts' tokens and the weights are the worker's, from the seed), the
// output the network's on fixed inputs, and a check the engine cannot compute itself: the worker's own float64 CPU
// computation of the first image (or prompt), from the same weights and inputs, against which the point's output is
// read as ‖out − ref‖₂ / ‖ref‖₂ under the lab's stated tolerance.
import type { Measurement, Verification } from '../../common/measurement.ts';
import { TEXT_TO_IMAGE_TOLERANCE } from '../../common/unet-work.ts';
import type { ElementBuffer } from '../../../native/index.ts';
import type { MeasurementBackend } from './backend.ts';

type TextToImage = Extract<Measurement, { op: 'text-to-image' }>;

const TOKENS = 77;
const WIDTH = 768;
const MAX_LISTED = 10;

// What the worker returns: each image's guided noise prediction (4 × latent²), or each prompt's text states (the
// empty prompts first, then the prompts: 2 × batch × 77 × 768).
export function textToImageOutput(m: TextToImage): { length: number; checked: number } {
  if (m.stage === 'text-encoder') return { length: 2 * m.batch * TOKENS * WIDTH, checked: TOKENS * WIDTH };
  const image = 4 * m.latent * m.latent;
  return { length: m.batch * image, checked: image };
}

export function textToImageParams(m: TextToImage): Record<string, number> {
  return { batch: m.batch, latent: m.latent, steps: m.steps, half: m.dtype === 'fp16' ? 1 : 0, seed: m.seed, cached: m.model === 'cached' ? 1 : 0, releaseModel: m.releaseModel ? 1 : 0 };
}

export function textToImageBuffer(m: TextToImage, backend: MeasurementBackend): ElementBuffer {
  return backend.output('fp32', textToImageOutput(m).length, 'host');
}

// The point's output against the worker's float64 reference of `reference.length` values starting at `offset`.
export function verifyAgainstReference(out: Float32Array, reference: Float64Array, offset: number, dtype: TextToImage['dtype']): Verification {
  const tolerance = TEXT_TO_IMAGE_TOLERANCE[dtype];
  let diff = 0;
  let norm = 0;
  let finite = true;
  for (let i = 0; i < reference.length; i++) {
    const got = out[offset + i] ?? Number.NaN;
    const want = reference[i] ?? 0;
    if (!Number.isFinite(got)) finite = false;
    diff += (got - want) ** 2;
    norm += want * want;
  }
  const relativeError = finite && norm > 0 ? Math.sqrt(diff / norm) : null;
  // The elements furthest off, listed by index: those past the tolerance times the reference's RMS.
  const rms = Math.sqrt(norm / Math.max(reference.length, 1));
  const mismatches: Verification['mismatches'] = [];
  for (let i = 0; i < reference.length && mismatches.length < MAX_LISTED; i++) {
    const got = out[offset + i] ?? Number.NaN;
    const want = reference[i] ?? 0;
    if (!(Math.abs(got - want) <= tolerance * rms)) mismatches.push({ index: offset + i, got: Number.isFinite(got) ? got : null, expected: want });
  }
  return { method: 'sampled', checked: reference.length, total: out.length, relativeError, tolerance, passed: relativeError !== null && relativeError <= tolerance, mismatches };
}
