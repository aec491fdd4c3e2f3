"""add, mul and exp over float32 vectors with PyTorch, as seed 003's break-even exercise writes them: on the CPU
(PyTorch's own threads), on the GPU with the tensors copied over with `.to('cuda')` and the result back with
`.cpu()` inside the timing, and on tensors already on the GPU. The break-even is about the time a program waits
for, so the GPU series are timed on the host's clock after a synchronise, as the lab times its own."""

OPS = ("add", "mul", "exp")


def _apply(torch, op, tensors):
    if op == "exp":
        return torch.exp(tensors[0])
    x, y = tensors
    return x + y if op == "add" else x * y


def _cpu(op):
    def setup(torch, device, *arrays):
        tensors = [torch.from_numpy(a) for a in arrays]
        return (lambda: _apply(torch, op, tensors)), (lambda t: t.numpy()), "host"

    return setup


def _transfers(op):
    def setup(torch, device, *arrays):
        gpu = torch.device(device)
        tensors = [torch.from_numpy(a) for a in arrays]
        return (lambda: _apply(torch, op, [t.to(gpu) for t in tensors]).cpu()), (lambda t: t.numpy()), "host-sync"

    return setup


def _resident(op):
    def setup(torch, device, *arrays):
        gpu = torch.device(device)
        tensors = [torch.from_numpy(a).to(gpu) for a in arrays]
        return (lambda: _apply(torch, op, tensors)), (lambda t: t.cpu().numpy()), "host-sync"

    return setup


def workloads(op):
    return {
        "torch-cpu": ("torch", "cpu", _cpu(op)),
        "torch-transfers": ("torch", "cuda", _transfers(op)),
        "torch-resident": ("torch", "cuda", _resident(op)),
    }
