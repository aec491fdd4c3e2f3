// text-to-image's words in English: its findings, series and points, and what the lab says of itself (its
// descriptor's words). Every page that shows the lab says what it is: random weights, no image produced, the timing
// of the network's arithmetic only.
import type { DescriptorText } from '../lab-text-types.ts';

export const textToImage = {
  series: {
    'gpu-fp32': 'GPU U-Net step, fp32',
    'gpu-fp16': 'GPU U-Net step, fp16',
    'cpu-fp32': 'CPU U-Net step, fp32',
    'cpu-fp16': 'CPU U-Net step, fp16',
    'gpu-text-fp32': 'GPU text encoder, fp32',
    'gpu-text-fp16': 'GPU text encoder, fp16',
    'cpu-text-fp32': 'CPU text encoder, fp32',
    'cpu-text-fp16': 'CPU text encoder, fp16',
  },
  point: {
    step: '{series}, batch {batch}',
    text: '{series}, one image',
  },
  findings: {
    // {gpu} and {cpu}: one image's time ({steps} steps of the batch's U-Net shared by its {batch} images, and the text
    // encoder once); {ratio} with its range {low}–{high} from the two intervals; {gpuType}: the GPU's type.
    imageFaster:
      'One image of {steps} steps at batch {batch} takes {gpu} on the GPU ({gpuType}) against {cpu} on the CPU (fp32): the GPU is {ratio} faster (from {low} to {high}), {gpuStep} against {cpuStep} a denoising step{text}.',
    imageSlower:
      'One image of {steps} steps at batch {batch} takes {gpu} on the GPU ({gpuType}) against {cpu} on the CPU (fp32): the GPU is {ratio} slower (from {low} to {high}), {gpuStep} against {cpuStep} a denoising step{text}.',
    imageLevel:
      'One image of {steps} steps at batch {batch} takes {gpu} on the GPU ({gpuType}) against {cpu} on the CPU (fp32): the two cannot be told apart at this precision (the ratio lies between {low} and {high}){text}.',
    textIncluded: ', the text encoder counted once per image',
    textMissing: '; the text encoder was not measured on both sides and is not counted',
    why: 'Why: a step at batch {batch} is {gflop} GFLOP of convolutions and of attention’s matrix products (counted from the U-Net’s layers, the batch run twice for guidance), the same work on both sides. The GPU sustained {gpuRate} on it{gpuPeak}, the CPU {cpuRate}{cpuPeak}: {rates} the rate, which is the whole of the speedup, since the work is the same.',
    gpuPeak: ' ({share} of the {peak} its arithmetic units can do at this type)',
    cpuPeak: ' ({share} of the {peak} estimated for its cores)',
    halfFaster: 'On the GPU at batch {batch}, a step in fp16 takes {half} against {single} in fp32: {ratio} faster (from {low} to {high}){memory}.',
    halfSlower: 'On the GPU at batch {batch}, a step in fp16 takes {half} against {single} in fp32: {ratio} slower (from {low} to {high}){memory}.',
    halfLevel: 'On the GPU at batch {batch}, a step in fp16 takes {half} against {single} in fp32: the two cannot be told apart at this precision (the ratio lies between {low} and {high}){memory}.',
    halfMemory: '; at its peak it held {half} of GPU memory against {single}',
    batchLess: 'On the GPU in {dtype}, a step at batch {batch} takes {step}: {perImage} per image against {one} at batch 1, {ratio} less per image (from {low} to {high}).',
    batchMore: 'On the GPU in {dtype}, a step at batch {batch} takes {step}: {perImage} per image against {one} at batch 1, {ratio} more per image (from {low} to {high}).',
    batchLevel: 'On the GPU in {dtype}, a step at batch {batch} takes {step}: {perImage} per image against {one} at batch 1, the same at this precision (the ratio lies between {low} and {high}).',
    memory: 'Memory at its peak: {list}.',
    memoryList: '{item}; {rest}',
    memoryDevice: '{point}, {bytes} of GPU memory',
    memoryHost: '{point}, {bytes} resident in the Python worker (its interpreter and the weights included)',
    check: 'Checked: one step on the GPU in fp32 at batch 1 against the same step on the CPU in float64, relative error {error} (tolerance {tolerance}).',
    checkFailed: 'The GPU’s fp32 step at batch 1 did not match the CPU’s float64 step: relative error {error}, past the tolerance of {tolerance}.',
    errorUnknown: 'not a finite number',
    scopeRandom:
      'Random weights: no image is produced. What is timed is the network’s arithmetic only — a U-Net of Stable Diffusion 1.5’s shapes ({params} parameters) and CLIP’s text encoder, as a pipeline runs them to make an image.',
    scopeCached:
      'Stable Diffusion 1.5’s own weights, from this machine’s Hugging Face cache ({model}); still no image is produced (there is no VAE decoder): what is timed is the network’s arithmetic only.',
    scopeCachedMissing:
      'A cached model was asked for, and none ran: random weights were not used instead. No image is produced by this lab in any case: it times the network’s arithmetic only ({params} parameters).',
  },
} as const;

export const textToImageDescriptor: DescriptorText = {
  title: 'Text to image: a diffusion step on the CPU and the GPU',
  summary: 'Stable Diffusion 1.5’s arithmetic with random weights — its U-Net’s denoising steps and its text encoder — timed on the CPU and the GPU, in fp32 and fp16, by batch, with the memory each needs. No image is produced.',
  explanation: [
    'Unit 10’s third notebook asks how much faster the GPU is than the CPU for generating an image from a text. It downloads Stable Diffusion 1.5 and times the pipeline. Here nothing is downloaded: the lab builds a network of the same shapes with random weights — the U-Net (latents of 4 × 64 × 64, blocks of 320, 640, 1280 and 1280 channels, cross-attention to the text’s 77 × 768 states) and CLIP ViT-L/14’s text encoder — and times its arithmetic. The weights are random, so no image is produced: what is measured is the network’s arithmetic only, which is what the GPU and the CPU differ in.',
    'A denoising step runs the U-Net twice over the batch, on the prompt and on the empty prompt (classifier-free guidance), then updates the latents (DDIM). An image is as many steps as the Steps parameter says, shared by the images of a batch, and the text encoder once; the VAE that would turn latents into pixels is not built. Each sample is one step, timed on the host’s clock after the GPU is synchronised, as the notebook times its pipeline.',
    'Every point is checked: the output of one step on fixed inputs against the same computed on the CPU in float64 from the same weights, to a relative error of 5·10⁻⁴ in fp32 (with TF32 off) and 2·10⁻² in fp16. Memory is the GPU’s peak allocation during the point, or on the CPU the Python worker’s peak resident memory.',
    'A laptop’s CPU takes seconds per step: the CPU’s series stop at the batch and the types of cpuMaxBatch and cpuDtypes, and the points above are waived with that reason. Where Stable Diffusion 1.5 is already in this machine’s Hugging Face cache, the Model parameter can use its own weights (never downloaded), and the run says which model ran.',
  ],
  lookFor: [
    'The time of one image on each side, and the GPU’s speedup with its range.',
    'The rates behind it: the same GFLOP a step on both sides, so the speedup is the ratio of the rates.',
    'fp16 against fp32 on the GPU, in time and in memory.',
    'The time per image as the batch grows: a batch shares each pass over the weights.',
  ],
  parameters: {
    steps: { label: 'Denoising steps', description: 'The steps of one image: its time is this many U-Net steps (shared by the batch’s images) and the text encoder once. SD 1.5’s pipelines take 25 to 50; the time of a step, what is measured, does not depend on it.' },
    batches: { label: 'Batches', description: 'The images generated at once; each batch is a point of every series.' },
    dtypes: { label: 'Data types', description: 'fp32 (TF32 off, as the check holds it) and fp16.' },
    cpuMaxBatch: { label: 'CPU’s largest batch', description: 'The CPU’s series stop at this batch (0: the CPU is left out); the larger batches are waived, saying so. A step at batch 1 takes seconds on a laptop’s CPU.' },
    cpuDtypes: { label: 'CPU’s data types', description: 'The types timed on the CPU; the others are waived, saying so. Many CPUs have no half-precision arithmetic of their own.' },
    model: { label: 'Model', description: 'random: random weights of SD 1.5’s shapes. cached: SD 1.5’s own weights where diffusers finds them in this machine’s Hugging Face cache (never downloaded; the points fail with the reason where they are not there).' },
  },
  presets: {
    'seed-004': { label: 'Unit 10 (a few steps, batches 1 and 4)', description: 'The notebook’s comparison, sized for a laptop: the CPU at batch 1 in fp32, the GPU at batches 1 and 4 in fp32 and fp16.' },
    'gpu-only': { label: 'GPU only, batches 1 to 8', description: 'The GPU’s series alone, the batch doubling up to 8: how the time per image changes with the batch.' },
    'cached-model': { label: 'The cached model', description: 'SD 1.5’s own weights from this machine’s Hugging Face cache, where diffusers finds them; nothing is downloaded.' },
  },
};
