"""A denoising U-Net with Stable Diffusion 1.5's layer shapes, in plain PyTorch, for the text-to-image lab
(text_to_image.py): the layout of diffusers' UNet2DConditionModel with SD 1.5's configuration — latents of 4
channels, block widths 320/640/1280/1280, two ResNet blocks a level on the way down and three on the way up, a
cross-attention transformer at every level but the lowest (8 heads, attending to the text encoder's 77 × 768
states), a time embedding of 1280, GroupNorm in 32 groups. 859 520 964 parameters, as the real model has
(main/labs/unet-work.ts counts them, and its FLOPs, from the same shapes).

Its weights are PyTorch's default random initialisation from a seed: it does the real model's arithmetic and
produces no image. Built only when torch imports; the module imports nothing at load."""

import math

CHANNELS = (320, 640, 1280, 1280)
TIME = 1280
CONTEXT = 768
HEADS = 8
GROUPS = 32
LAYERS_DOWN = 2


def build(torch, seed):
    """The U-Net's modules, defined here so that this file imports torch only when a lab asks for it."""
    nn = torch.nn
    F = torch.nn.functional

    class Resnet(nn.Module):
        def __init__(self, cin, cout):
            super().__init__()
            self.norm1 = nn.GroupNorm(GROUPS, cin, eps=1e-5)
            self.conv1 = nn.Conv2d(cin, cout, 3, padding=1)
            self.time_emb_proj = nn.Linear(TIME, cout)
            self.norm2 = nn.GroupNorm(GROUPS, cout, eps=1e-5)
            self.conv2 = nn.Conv2d(cout, cout, 3, padding=1)
            self.conv_shortcut = nn.Conv2d(cin, cout, 1) if cin != cout else None

        def forward(self, x, temb):
            h = self.conv1(F.silu(self.norm1(x)))
            h = h + self.time_emb_proj(F.silu(temb))[:, :, None, None]
            h = self.conv2(F.silu(self.norm2(h)))
            return (self.conv_shortcut(x) if self.conv_shortcut is not None else x) + h

    class Attention(nn.Module):
        def __init__(self, channels, context=None):
            super().__init__()
            self.to_q = nn.Linear(channels, channels, bias=False)
            self.to_k = nn.Linear(context or channels, channels, bias=False)
            self.to_v = nn.Linear(context or channels, channels, bias=False)
            self.to_out = nn.Linear(channels, channels)

        def forward(self, x, context=None):
            source = x if context is None else context
            b, n, c = x.shape
            heads = lambda t: t.reshape(b, -1, HEADS, c // HEADS).transpose(1, 2)
            out = F.scaled_dot_product_attention(heads(self.to_q(x)), heads(self.to_k(source)), heads(self.to_v(source)))
            return self.to_out(out.transpose(1, 2).reshape(b, n, c))

    class Block(nn.Module):
        def __init__(self, channels):
            super().__init__()
            self.norm1 = nn.LayerNorm(channels)
            self.attn1 = Attention(channels)
            self.norm2 = nn.LayerNorm(channels)
            self.attn2 = Attention(channels, CONTEXT)
            self.norm3 = nn.LayerNorm(channels)
            # GEGLU: a projection to twice the inner width, one half gating the other through GELU.
            self.ff_in = nn.Linear(channels, 8 * channels)
            self.ff_out = nn.Linear(4 * channels, channels)

        def forward(self, x, context):
            x = self.attn1(self.norm1(x)) + x
            x = self.attn2(self.norm2(x), context) + x
            hidden, gate = self.ff_in(self.norm3(x)).chunk(2, dim=-1)
            return self.ff_out(hidden * F.gelu(gate)) + x

    class Transformer(nn.Module):
        def __init__(self, channels):
            super().__init__()
            self.norm = nn.GroupNorm(GROUPS, channels, eps=1e-6)
            self.proj_in = nn.Conv2d(channels, channels, 1)
            self.block = Block(channels)
            self.proj_out = nn.Conv2d(channels, channels, 1)

        def forward(self, x, context):
            b, c, h, w = x.shape
            y = self.proj_in(self.norm(x)).permute(0, 2, 3, 1).reshape(b, h * w, c)
            y = self.block(y, context).reshape(b, h, w, c).permute(0, 3, 1, 2)
            return self.proj_out(y) + x

    class UNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.linear_1 = nn.Linear(CHANNELS[0], TIME)
            self.linear_2 = nn.Linear(TIME, TIME)
            self.conv_in = nn.Conv2d(4, CHANNELS[0], 3, padding=1)
            self.down = nn.ModuleList()
            cin = CHANNELS[0]
            for level, c in enumerate(CHANNELS):
                attention = level < len(CHANNELS) - 1
                stage = nn.Module()
                stage.resnets = nn.ModuleList(Resnet(cin if j == 0 else c, c) for j in range(LAYERS_DOWN))
                stage.attentions = nn.ModuleList(Transformer(c) for _ in range(LAYERS_DOWN)) if attention else None
                stage.downsample = nn.Conv2d(c, c, 3, stride=2, padding=1) if attention else None
                self.down.append(stage)
                cin = c
            self.mid_resnet_1 = Resnet(CHANNELS[-1], CHANNELS[-1])
            self.mid_attention = Transformer(CHANNELS[-1])
            self.mid_resnet_2 = Resnet(CHANNELS[-1], CHANNELS[-1])
            self.up = nn.ModuleList()
            reverse = CHANNELS[::-1]
            previous = reverse[0]
            for level, c in enumerate(reverse):
                skip_in = reverse[min(level + 1, len(reverse) - 1)]
                stage = nn.Module()
                stage.resnets = nn.ModuleList(Resnet((previous if j == 0 else c) + (skip_in if j == LAYERS_DOWN else c), c) for j in range(LAYERS_DOWN + 1))
                stage.attentions = nn.ModuleList(Transformer(c) for _ in range(LAYERS_DOWN + 1)) if level > 0 else None
                stage.upsample = nn.Conv2d(c, c, 3, padding=1) if level < len(reverse) - 1 else None
                self.up.append(stage)
                previous = c
            self.norm_out = nn.GroupNorm(GROUPS, CHANNELS[0], eps=1e-5)
            self.conv_out = nn.Conv2d(CHANNELS[0], 4, 3, padding=1)

        def time_embedding(self, t, dtype):
            # Sinusoids of 160 frequencies, cosines first (diffusers' flip_sin_to_cos), then two linear layers.
            half = CHANNELS[0] // 2
            freqs = torch.exp(-math.log(10000.0) * torch.arange(half, device=t.device, dtype=torch.float32) / half)
            angles = t.float()[:, None] * freqs[None]
            emb = torch.cat([torch.cos(angles), torch.sin(angles)], dim=-1).to(dtype)
            return self.linear_2(F.silu(self.linear_1(emb)))

        def forward(self, x, t, context):
            temb = self.time_embedding(t, x.dtype)
            h = self.conv_in(x)
            skips = [h]
            for stage in self.down:
                for j, resnet in enumerate(stage.resnets):
                    h = resnet(h, temb)
                    if stage.attentions is not None:
                        h = stage.attentions[j](h, context)
                    skips.append(h)
                if stage.downsample is not None:
                    h = stage.downsample(h)
                    skips.append(h)
            h = self.mid_resnet_2(self.mid_attention(self.mid_resnet_1(h, temb), context), temb)
            for stage in self.up:
                for j, resnet in enumerate(stage.resnets):
                    h = resnet(torch.cat([h, skips.pop()], dim=1), temb)
                    if stage.attentions is not None:
                        h = stage.attentions[j](h, context)
                if stage.upsample is not None:
                    h = stage.upsample(F.interpolate(h, scale_factor=2.0, mode="nearest"))
            return self.conv_out(F.silu(self.norm_out(h)))

    generator_state = torch.random.get_rng_state()
    torch.manual_seed(seed)
    try:
        return UNet()
    finally:
        torch.random.set_rng_state(generator_state)
