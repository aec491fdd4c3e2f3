// The Python libraries GPU Lab asks of the interpreter, plain data the renderer reads too (no zod here). numpy,
// torch, cupy and numba run the labs' peer series; transformers builds the text-to-image lab's text encoder;
// pycuda and cuda-core (whose module is cuda.core) launch the playground's kernels from Python
// (python/gpu_lab_peers/kernel_launch.py).
export const PEER_LIBRARIES = ['numpy', 'torch', 'cupy', 'numba', 'transformers', 'pycuda', 'cuda-core'] as const;
export type PeerLibrary = (typeof PEER_LIBRARIES)[number];

// The libraries' names as their projects write them, the same in every language (gpu-lab peers, the devices page,
// the results table and the PDF).
export const PEER_LIBRARY_NAMES: Readonly<Record<PeerLibrary, string>> = { numpy: 'NumPy', torch: 'PyTorch', cupy: 'CuPy', numba: 'Numba', transformers: 'Transformers', pycuda: 'PyCUDA', 'cuda-core': 'cuda.core' };
