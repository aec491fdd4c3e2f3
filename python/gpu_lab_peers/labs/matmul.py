"""C = A·B, as the course's notebooks write it. In float32 (seed 000, and seed 003's break-even): NumPy's `@` and
PyTorch's `torch.matmul` on the CPU, and PyTorch on the GPU with the matrices already there or copied over with
`.to()` and back with `.cpu()` inside the timing. TF32 is off, as in GPU Lab's own fp32 series: both then multiply
on the same FP32 units. Then one GEMM per dtype on the GPU (seed 003's table of dtypes): fp64, fp32, tf32 (fp32
storage, `torch.backends.cuda.matmul.allow_tf32`), fp16, bf16, and int8 through `torch._int_mm`, whose int32
products are handed back as float32, as GPU Lab's own int8 GEMM writes them."""


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

    return call, lambda c: c.numpy(), "host"


def torch_cpu(torch, device, a, b, m, n, k):
    A = torch.from_numpy(a.reshape(int(m), int(k)))
    B = torch.from_numpy(b.reshape(int(k), int(n)))

    def call():
        return torch.matmul(A, B)

    return call, lambda c: c.numpy(), "host"


def _on_gpu(torch, device, array, dtype, shape):
    """An engine array as a tensor on the GPU: bfloat16 arrives as its raw bits and is viewed as such."""
    import numpy as np

    if dtype == "bf16":
        return torch.from_numpy(array.view(np.int16).reshape(shape)).view(torch.bfloat16).to(torch.device(device))
    return torch.from_numpy(array.reshape(shape)).to(torch.device(device))


def _per_dtype(dtype):
    def setup(torch, device, a, b, m, n, k):
        import numpy as np

        m, n, k = int(m), int(n), int(k)
        torch.backends.cuda.matmul.allow_tf32 = dtype == "tf32"
        A = _on_gpu(torch, device, a, dtype, (m, k))
        B = _on_gpu(torch, device, b, dtype, (k, n))
        if dtype == "int8":
            return (lambda: torch._int_mm(A, B)), (lambda c: c.cpu().numpy().astype(np.float32)), "events"
        if dtype == "bf16":
            return (lambda: A @ B), (lambda c: c.view(torch.int16).cpu().numpy().view(np.uint16)), "events"
        return (lambda: A @ B), (lambda c: c.cpu().numpy()), "events"

    return setup


WORKLOADS = {
    "torch-cpu": ("torch", "cpu", torch_cpu),
    **{f"torch-{d}": ("torch", "cuda", _per_dtype(d)) for d in ("fp64", "fp32", "tf32", "fp16", "bf16", "int8")},
    "numpy-matmul": ("numpy", "cpu", numpy_matmul),
    "torch-resident": ("torch", "cuda", torch_resident),
    "torch-copies": ("torch", "cuda", torch_copies),
}
