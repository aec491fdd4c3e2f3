"""The text-to-image lab's workloads (seed 004, Unit 10's third notebook, Stable_Diffusion_GPU_vs_CPU): what a
Stable Diffusion 1.5 pipeline computes to make an image, timed on the CPU or the GPU, without its weights.

- "unet-cpu" / "unet-cuda": one denoising step — the U-Net of SD 1.5's shapes (sd15_unet.py) on a batch of latents,
  twice over as classifier-free guidance runs it (the prompt and the empty prompt, guidance 7.5), then a DDIM update
  of the latents. A sample is one step; after `steps` steps the loop starts a new image from fresh noise, so the
  samples are the steps of generating images.
- "text-cpu" / "text-cuda": the text encoder, CLIP ViT-L/14's text model built from its configuration by
  transformers (nothing downloaded), on the prompt and the empty prompt of every image of the batch.

Weights are random (a seeded default initialisation), unless the run asks for a cached model and diffusers finds
Stable Diffusion 1.5 in the local Hugging Face cache (local_files_only, HF_HUB_OFFLINE=1: never downloaded); the
implementation says which ran. No image is produced: there is no VAE decoder and nothing to see.

Checked as the engine checks everything: the output is the noise prediction (or the text states) of the point's
device, type and batch on fixed inputs, and its first image is compared with the same computed on the CPU in
float64 (`reference`). Memory: the GPU's peak allocated by PyTorch during the point, or the worker's peak resident
memory on the CPU (Linux's VmHWM, reset when the point is prepared)."""

import copy
import importlib
import os

from . import sd15_unet

GUIDANCE = 7.5
TRAIN_STEPS = 1000
TOKENS = 77
VOCAB = 49408
BOS, EOS = 49406, 49407
# The model a run may find cached (diffusers' repository names of SD 1.5), tried in this order.
CACHED = ("stable-diffusion-v1-5/stable-diffusion-v1-5", "runwayml/stable-diffusion-v1-5")

# Built once per worker and kept while a run's points follow one another (the plan says when to let go): its float32
# weights on the CPU, the source of every point's copy.
_models = {}
_references = {}


def _clip_config(transformers):
    """CLIP ViT-L/14's text encoder, as SD 1.5 uses it."""
    return transformers.CLIPTextConfig(
        vocab_size=VOCAB, hidden_size=768, intermediate_size=3072, num_hidden_layers=12, num_attention_heads=12,
        max_position_embeddings=TOKENS, hidden_act="quick_gelu", projection_dim=768, bos_token_id=BOS, eos_token_id=EOS,
    )


def _text_encoder(torch, seed):
    """The encoder and what it is, or (None, why) where transformers is not there."""
    try:
        transformers = importlib.import_module("transformers")
    except ImportError as err:
        return None, f"transformers is not installed ({err})"
    state = torch.random.get_rng_state()
    torch.manual_seed(seed + 1)
    try:
        model = transformers.CLIPTextModel(_clip_config(transformers)).eval()
    finally:
        torch.random.set_rng_state(state)
    return model, f"transformers {transformers.__version__} CLIPTextModel, random weights"


def _cached(torch):
    """SD 1.5's own U-Net and text encoder from the local cache, or an error saying why not; nothing is downloaded."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    try:
        diffusers = importlib.import_module("diffusers")
        transformers = importlib.import_module("transformers")
    except ImportError as err:
        raise LookupError(f"a cached model needs diffusers and transformers ({err})") from None
    reasons = []
    for repo in CACHED:
        try:
            unet = diffusers.UNet2DConditionModel.from_pretrained(repo, subfolder="unet", local_files_only=True, torch_dtype=torch.float32).eval()
            text = transformers.CLIPTextModel.from_pretrained(repo, subfolder="text_encoder", local_files_only=True, torch_dtype=torch.float32).eval()
        except (OSError, ValueError) as err:
            reasons.append(f"{repo}: {err}")
            continue
        return unet, text, f"{repo} from the local cache (diffusers {diffusers.__version__})"
    raise LookupError(f"Stable Diffusion 1.5 is not in the local Hugging Face cache, and nothing is downloaded: {'; '.join(reasons)}")


def _models_for(torch, seed, cached):
    key = (seed, cached)
    if key not in _models:
        _models.clear()
        if cached:
            unet, text, what = _cached(torch)
            _models[key] = {"unet": unet, "text": text, "what": what, "textWhy": None, "diffusers": True}
        else:
            text, text_what = _text_encoder(torch, seed)
            _models[key] = {
                "unet": sd15_unet.build(torch, seed).eval(),
                "text": text,
                "what": "SD 1.5's U-Net shapes, random weights",
                "textWhat": text_what,
                "textWhy": None if text is not None else text_what,
                "diffusers": False,
            }
    return _models[key]


def release_models():
    import gc

    # Kept past earlier releases, the weights may have been frozen out of the collector's reach (__main__.py's
    # release_memory): given back to it, so that any cycle among them is collected with this release.
    gc.unfreeze()
    _models.clear()
    _references.clear()


def _tokens(torch, seed, batch):
    """Each image's prompt as token ids (seeded: a prompt of 20 tokens, padded with the end token) and the empty
    prompt, as CLIP's tokenizer writes them."""
    rows = []
    for i in range(batch):
        g = torch.Generator().manual_seed(seed + 100 + i)
        words = torch.randint(0, BOS, (20,), generator=g)
        rows.append(torch.cat([torch.tensor([BOS]), words, torch.full((TOKENS - 21,), EOS)]))
    empty = torch.cat([torch.tensor([BOS]), torch.full((TOKENS - 1,), EOS)])
    return torch.stack([empty] * batch + rows)


def _latents(torch, seed, batch, latent):
    """Each image's starting noise, seeded image by image, so that the first image is the same at every batch."""
    return torch.stack([torch.randn(4, latent, latent, generator=torch.Generator().manual_seed(seed + 1000 + i)) for i in range(batch)])


def _context(torch, models, seed, batch):
    """The text states the U-Net attends to: the encoder's on the CPU in float32, the same for every point of a
    seed; random states of the same shape where there is no encoder (and the implementation says so)."""
    if models["text"] is not None:
        with torch.no_grad():
            return models["text"](_tokens(torch, seed, batch))[0].float()
    g = torch.Generator().manual_seed(seed + 7)
    return torch.randn(2 * batch, TOKENS, 768, generator=g)


def _alphas(torch):
    # SD 1.5's scaled-linear schedule: betas from 0.00085 to 0.012 on a square-root scale.
    betas = torch.linspace(0.00085**0.5, 0.012**0.5, TRAIN_STEPS, dtype=torch.float64) ** 2
    return torch.cumprod(1.0 - betas, dim=0)


def _noise_prediction(unet, diffusers, torch, x, t, context):
    """The guided prediction for a batch: the U-Net on [empty prompt, prompt] at once, then uncond + 7.5·(cond − uncond)."""
    both = torch.cat([x, x])
    ts = torch.full((both.shape[0],), int(t), device=x.device)
    out = unet(both, ts, encoder_hidden_states=context).sample if diffusers else unet(both, ts, context)
    uncond, cond = out.chunk(2)
    return uncond + GUIDANCE * (cond - uncond)


class Workload:
    """A prepared point: `call` times one sample, `fetch` gives the checked output, `reference` the float64 CPU
    output of its first image, `memory` the peak since `begin`."""

    def __init__(self, torch, device, stage, batch, latent, steps, half, seed, cached, release):
        self.torch = torch
        self.gpu = device != "cpu"
        self.device = torch.device(device)
        self.dtype = torch.float16 if half else torch.float32
        self.stage, self.batch, self.latent, self.steps, self.seed = stage, batch, latent, steps, seed
        self.release_models = release
        self.clock = "host"
        # Full float32 on the GPU, as the CPU computes and as the check holds it to: no TF32 for matrix products or
        # convolutions (cuDNN's default is TF32). Set through the flags the other peers use (labs/matmul.py), and put
        # back on release, so that the worker's later series find PyTorch's settings as they were.
        self.tf32 = (torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32)
        if self.gpu:
            torch.backends.cuda.matmul.allow_tf32 = False
            torch.backends.cudnn.allow_tf32 = False
        try:
            models = _models_for(torch, seed, cached)
        except LookupError as err:
            from ..protocol import ProtocolError

            raise ProtocolError("LIBRARY_UNAVAILABLE", str(err)) from None
        self.models = models
        if stage == "text" and models["text"] is None:
            from ..protocol import ProtocolError

            raise ProtocolError("LIBRARY_UNAVAILABLE", f"the text encoder is built by transformers: {models['textWhy']}")
        self.implementation = models["what"] if stage == "unet" else models.get("textWhat", models["what"])
        if stage == "unet" and models["textWhy"]:
            self.implementation += f"; text states random ({models['textWhy']})"
        self.model = self._copy(models["unet" if stage == "unet" else "text"])
        # The weights' bytes this point holds: what the worker's release may hand back (its pools emptied past 64 MiB).
        self.nbytes = sum(p.numel() * p.element_size() for p in self.model.parameters())
        self.context = _context(torch, models, seed, batch).to(self.device, self.dtype)
        self.tokens = _tokens(torch, seed, batch).to(self.device)
        self.alphas = _alphas(torch)
        self.timesteps = [int(t) for t in torch.linspace(TRAIN_STEPS - 1, 0, steps).round().tolist()]
        self.step = 0
        self.x = None
        self.begin()

    def _copy(self, master):
        torch = self.torch
        if self.device.type == "cpu" and self.dtype == torch.float32:
            return master
        if not self.models["diffusers"] and master is self.models["unet"]:
            # Built on the meta device (no initialisation), then given the master's weights in the point's type.
            with torch.device("meta"):
                model = sd15_unet.build(torch, self.seed)
            weights = {k: v.to(self.device, self.dtype) for k, v in master.state_dict().items()}
            model.load_state_dict(weights, assign=True)
            return model.eval()
        return copy.deepcopy(master).to(self.device, self.dtype).eval()

    def begin(self):
        torch = self.torch
        if self.gpu:
            torch.cuda.synchronize(self.device)
            torch.cuda.reset_peak_memory_stats(self.device)
        else:
            try:
                with open("/proc/self/clear_refs", "w") as f:
                    f.write("5")
            except OSError:
                pass

    def memory(self):
        """Bytes: the GPU's peak allocated since begin(), or this process's peak resident set (None where Linux's
        /proc does not say)."""
        if self.gpu:
            return int(self.torch.cuda.max_memory_allocated(self.device))
        try:
            with open("/proc/self/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) * 1024
        except OSError:
            return None
        return None

    def call(self):
        torch = self.torch
        with torch.no_grad():
            if self.stage == "text":
                return self.model(self.tokens)[0]
            if self.step % self.steps == 0:
                self.x = _latents(torch, self.seed + self.step, self.batch, self.latent).to(self.device, self.dtype)
            t = self.timesteps[self.step % self.steps]
            eps = _noise_prediction(self.model, self.models["diffusers"], torch, self.x, t, self.context)
            # DDIM: the clean latents the prediction implies, then the latents of the next timestep.
            a = float(self.alphas[t])
            nxt = self.timesteps[self.step % self.steps + 1] if self.step % self.steps + 1 < self.steps else None
            a_next = float(self.alphas[nxt]) if nxt is not None else 1.0
            x0 = (self.x - (1 - a) ** 0.5 * eps) / a**0.5
            self.x = a_next**0.5 * x0 + (1 - a_next) ** 0.5 * eps
            self.step += 1
            return eps

    def fetch(self, _last):
        """The checked output: on fixed inputs (each image's starting noise at timestep 999, the text states), the
        guided noise prediction of every image, or the text states of every prompt."""
        torch = self.torch
        with torch.no_grad():
            if self.stage == "text":
                return self.model(self.tokens)[0].float().cpu().numpy()
            x = _latents(torch, self.seed, self.batch, self.latent).to(self.device, self.dtype)
            eps = _noise_prediction(self.model, self.models["diffusers"], torch, x, TRAIN_STEPS - 1, self.context)
            return eps.float().cpu().numpy()

    def reference(self):
        """The first image's (or the first prompt's) output computed on the CPU in float64, from the same weights and
        inputs: kept for the run's other points."""
        torch = self.torch
        key = (self.stage, self.seed, self.latent, id(self.models["unet"]))
        if key not in _references:
            master = self.models["unet" if self.stage == "unet" else "text"]
            # float32 → float64 → float32 is exact: the master is widened in place for the reference, then narrowed
            # back, so that its float64 copy never sits beside it.
            master.double()
            try:
                with torch.no_grad():
                    if self.stage == "text":
                        out = master(_tokens(torch, self.seed, 1)[1:2])[0]
                    else:
                        context = _context(torch, self.models, self.seed, self.batch).double()
                        # The first image's empty prompt and prompt: rows 0 and `batch` of the batch's states.
                        first = torch.stack([context[0], context[self.batch]])
                        x = _latents(torch, self.seed, 1, self.latent).double()
                        out = _noise_prediction(master, self.models["diffusers"], torch, x, TRAIN_STEPS - 1, first)
            finally:
                master.float()
            _references[key] = out.reshape(-1).numpy().copy()
        return _references[key]

    def reference_offset(self):
        """Where the first image's (or the first prompt's) values start in the output: the text states list the
        empty prompts first."""
        return self.batch * TOKENS * 768 if self.stage == "text" else 0

    def release(self):
        self.model = None
        self.context = None
        self.torch.backends.cuda.matmul.allow_tf32, self.torch.backends.cudnn.allow_tf32 = self.tf32
        if self.release_models:
            release_models()


def _setup(stage, where):
    def setup(torch, device, *_inputs, batch, latent, steps, half, seed, cached, releaseModel):
        return Workload(torch, device, stage, int(batch), int(latent), int(steps), bool(half), int(seed), bool(cached), bool(releaseModel))

    return setup


WORKLOADS = {
    "unet-cpu": ("torch", "cpu", _setup("unet", "cpu")),
    "unet-cuda": ("torch", "cuda", _setup("unet", "cuda")),
    "text-cpu": ("torch", "cpu", _setup("text", "cpu")),
    "text-cuda": ("torch", "cuda", _setup("text", "cuda")),
}
