"""Copies between the host and the GPU with PyTorch, as seed 003 writes them: a tensor in pageable memory moved with
`.to('cuda')`, one in pinned memory (`.pin_memory()`) with `.to('cuda', non_blocking=True)`, and back into a tensor
of each kind with `.copy_()`. The bytes are the engine's own (int8, the seed's stream); the last copy's bytes are
handed back for the engine to compare with its source, byte for byte.

A copy back with `.cpu()` would allocate a fresh host tensor each time, and the first touch of its pages would be
timed with it: back into a tensor allocated once is the copy GPU Lab's own series time."""


def _gpu(torch, device):
    return torch.device(device)


def h2d_pageable(torch, device, data):
    src = torch.from_numpy(data)

    def call():
        return src.to(_gpu(torch, device))

    return call, lambda t: t.cpu().numpy(), "events"


def h2d_pinned(torch, device, data):
    src = torch.from_numpy(data).pin_memory()

    def call():
        return src.to(_gpu(torch, device), non_blocking=True)

    return call, lambda t: t.cpu().numpy(), "events"


def _d2h(torch, device, data, pinned):
    src = torch.from_numpy(data).to(_gpu(torch, device))
    dst = torch.empty(src.shape, dtype=src.dtype, pin_memory=pinned)
    dst.fill_(0)  # its pages touched once, before any timing

    def call():
        return dst.copy_(src, non_blocking=pinned)

    return call, lambda t: t.numpy(), "events"


def d2h_pageable(torch, device, data):
    return _d2h(torch, device, data, False)


def d2h_pinned(torch, device, data):
    return _d2h(torch, device, data, True)


WORKLOADS = {
    "torch-h2d-pageable": ("torch", "cuda", h2d_pageable),
    "torch-h2d-pinned": ("torch", "cuda", h2d_pinned),
    "torch-d2h-pageable": ("torch", "cuda", d2h_pageable),
    "torch-d2h-pinned": ("torch", "cuda", d2h_pinned),
}
