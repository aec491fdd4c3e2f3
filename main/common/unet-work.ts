// The work of the text-to-image lab's network, counted from its layers' shapes (python/gpu_lab_peers/labs/
// sd15_unet.py builds the same shapes; tests/gpu/unit10.test.ts compares these counts with the Python model's own
// and with PyTorch's FlopCounterMode): Stable Diffusion 1.5's U-Net and its CLIP ViT-L/14 text encoder.
//
// FLOPs are counted as PyTorch's FlopCounterMode counts them: 2 per multiply-add of a convolution, a linear layer or
// one of attention's two matrix products (q·kᵀ and the weights times v); biases, normalisations, activations,
// softmax, the up-sampling's copies and the scheduler's few elementwise operations are not counted (a few per cent of
// a step's memory traffic, nothing of its arithmetic).

export const UNET_CHANNELS = [320, 640, 1280, 1280] as const;

// ‖out − ref‖₂ / ‖ref‖₂ allowed between a point's output and the same computed on the CPU in float64: in fp32 a few
// roundings of 6·10⁻⁸ compound over some seventy layers (a few 10⁻⁵; TF32 would give a few 10⁻³, and is off); in fp16
// the operands are rounded to 5·10⁻⁴ at every layer.
export const TEXT_TO_IMAGE_TOLERANCE = { fp32: 5e-4, fp16: 2e-2 } as const;
const TIME = 1280;
const CONTEXT = 768;
const TOKENS = 77;
const LAYERS_DOWN = 2;

// Parameters of a layer.
const conv = (cin: number, cout: number, k: number): number => cin * cout * k * k + cout;
const linear = (cin: number, cout: number, bias = true): number => cin * cout + (bias ? cout : 0);
const norm = (c: number): number => 2 * c;

function resnetParams(cin: number, cout: number): number {
  return norm(cin) + conv(cin, cout, 3) + linear(TIME, cout) + norm(cout) + conv(cout, cout, 3) + (cin !== cout ? conv(cin, cout, 1) : 0);
}

function transformerParams(c: number): number {
  const selfAttention = 3 * linear(c, c, false) + linear(c, c);
  const crossAttention = linear(c, c, false) + 2 * linear(CONTEXT, c, false) + linear(c, c);
  // GEGLU: c → 8c (half of it gates the other half), then 4c → c.
  const feedForward = linear(c, 8 * c) + linear(4 * c, c);
  return norm(c) + conv(c, c, 1) + 3 * norm(c) + selfAttention + crossAttention + feedForward + conv(c, c, 1);
}

// One layer of the U-Net at its place: what it is, its channels, and the side of its (square) output.
type Layer =
  | { kind: 'conv'; cin: number; cout: number; k: number; side: number }
  | { kind: 'resnet'; cin: number; cout: number; side: number }
  | { kind: 'transformer'; c: number; side: number }
  | { kind: 'time' };

// The U-Net's layers in order, for latents of `latent` × `latent`: levels at latent, latent/2, /4 and /8.
function unetLayers(latent: number): Layer[] {
  const side = (level: number): number => latent / 2 ** level;
  const layers: Layer[] = [{ kind: 'time' }, { kind: 'conv', cin: 4, cout: UNET_CHANNELS[0], k: 3, side: latent }];
  let cin: number = UNET_CHANNELS[0];
  UNET_CHANNELS.forEach((c, level) => {
    const attention = level < UNET_CHANNELS.length - 1;
    for (let j = 0; j < LAYERS_DOWN; j++) {
      layers.push({ kind: 'resnet', cin: j === 0 ? cin : c, cout: c, side: side(level) });
      if (attention) layers.push({ kind: 'transformer', c, side: side(level) });
    }
    if (attention) layers.push({ kind: 'conv', cin: c, cout: c, k: 3, side: side(level + 1) });
    cin = c;
  });
  const bottom = UNET_CHANNELS.length - 1;
  const deepest = UNET_CHANNELS[3];
  layers.push({ kind: 'resnet', cin: deepest, cout: deepest, side: side(bottom) }, { kind: 'transformer', c: deepest, side: side(bottom) }, { kind: 'resnet', cin: deepest, cout: deepest, side: side(bottom) });
  const reverse = [...UNET_CHANNELS].reverse();
  let previous: number = deepest;
  reverse.forEach((c, i) => {
    const level = bottom - i;
    const skipIn = reverse[Math.min(i + 1, reverse.length - 1)] ?? c;
    for (let j = 0; j <= LAYERS_DOWN; j++) {
      layers.push({ kind: 'resnet', cin: (j === 0 ? previous : c) + (j === LAYERS_DOWN ? skipIn : c), cout: c, side: side(level) });
      if (i > 0) layers.push({ kind: 'transformer', c, side: side(level) });
    }
    if (level > 0) layers.push({ kind: 'conv', cin: c, cout: c, k: 3, side: side(level - 1) });
    previous = c;
  });
  layers.push({ kind: 'conv', cin: UNET_CHANNELS[0], cout: 4, k: 3, side: latent });
  return layers;
}

function layerParams(l: Layer): number {
  switch (l.kind) {
    case 'time':
      return linear(UNET_CHANNELS[0], TIME) + linear(TIME, TIME);
    case 'conv':
      // conv_out has its GroupNorm before it.
      return conv(l.cin, l.cout, l.k) + (l.cout === 4 ? norm(l.cin) : 0);
    case 'resnet':
      return resnetParams(l.cin, l.cout);
    case 'transformer':
      return transformerParams(l.c);
  }
}

// FLOPs of a layer for `rows` latents.
function layerFlops(l: Layer, rows: number): number {
  switch (l.kind) {
    case 'time':
      return 2 * rows * (UNET_CHANNELS[0] * TIME + TIME * TIME);
    case 'conv':
      return 2 * rows * l.cin * l.cout * l.k * l.k * l.side * l.side;
    case 'resnet': {
      const pixels = l.side * l.side;
      const shortcut = l.cin !== l.cout ? l.cin * l.cout : 0;
      return 2 * rows * (pixels * (9 * l.cin * l.cout + 9 * l.cout * l.cout + shortcut) + TIME * l.cout);
    }
    case 'transformer': {
      const s = l.side * l.side;
      const c = l.c;
      const projections = 2 * s * c * c;
      const selfAttention = 4 * s * c * c + 2 * s * s * c;
      const crossAttention = 2 * s * c * c + 2 * TOKENS * CONTEXT * c + 2 * s * TOKENS * c;
      const feedForward = s * c * 8 * c + s * 4 * c * c;
      return 2 * rows * (projections + selfAttention + crossAttention + feedForward);
    }
  }
}

export function unetParameters(): number {
  return unetLayers(64).reduce((sum, l) => sum + layerParams(l), 0);
}

// FLOPs of one pass of the U-Net over `rows` latents of latent × latent (a guided step of a batch of B images is
// 2B rows: the prompt and the empty prompt).
export function unetFlops(latent: number, rows: number): number {
  return unetLayers(latent).reduce((sum, l) => sum + layerFlops(l, rows), 0);
}

// CLIP ViT-L/14's text encoder: 12 layers of width 768 (12 heads, an MLP of 3072) over 77 tokens of a 49408-word
// vocabulary.
const CLIP = { vocab: 49_408, width: 768, mlp: 3072, layers: 12 } as const;

export function clipTextParameters(): number {
  const w = CLIP.width;
  const layer = 2 * norm(w) + 4 * linear(w, w) + linear(w, CLIP.mlp) + linear(CLIP.mlp, w);
  return CLIP.vocab * w + TOKENS * w + CLIP.layers * layer + norm(w);
}

// FLOPs of the encoder over `rows` prompts of 77 tokens.
export function clipTextFlops(rows: number): number {
  const w = CLIP.width;
  const perLayer = 4 * TOKENS * w * w + 2 * TOKENS * TOKENS * w + 2 * TOKENS * w * CLIP.mlp;
  return 2 * rows * CLIP.layers * perLayer;
}
