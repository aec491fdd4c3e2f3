"""C = A·B in float32, as seed 000's notebook writes it: NumPy's `@` on the CPU, and PyTorch on the GPU with the
matrices already there or copied over with `.to()` and back with `.cpu()` inside the timing. TF32 is off, as in
GPU Lab's own fp32 series: both then multiply on the same FP32 units."""


def numpy_matmul(np, device, a, b, m, n, k):
    A = a.reshape(int(m), int(k))
    B = b.reshape(int(k), int(n))

    def call():
        return A @ B

    return call, lambda c: c, "host"


def torch_resident(torch, device, a, b, m, n, k):
    torch.backends.cuda.matmul.allow_tf32 = False
    gpu = torch.device(device)
    A = torch.from_numpy(a.reshape(int(m), int(k))).to(gpu)
    B = torch.from_numpy(b.reshape(int(k), int(n))).to(gpu)

    def call():
        return A @ B

    return call, lambda c: c.cpu().numpy(), "events"


def torch_copies(torch, device, a, b, m, n, k):
    torch.backends.cuda.matmul.allow_tf32 = False
    gpu = torch.device(device)
    A = torch.from_numpy(a.reshape(int(m), int(k)))
    B = torch.from_numpy(b.reshape(int(k), int(n)))

    def call():
        return (A.to(gpu) @ B.to(gpu)).cpu()

    return call, lambda c: c.numpy(), "host-sync"


WORKLOADS = {
    "numpy-matmul": ("numpy", "cpu", numpy_matmul),
    "torch-resident": ("torch", "cuda", torch_resident),
    "torch-copies": ("torch", "cuda", torch_copies),
}
