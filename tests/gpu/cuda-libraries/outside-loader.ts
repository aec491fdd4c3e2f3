// Runs in a process of its own (spawned by tests/gpu/cuda-libraries.test.ts) started without the loader's cache, so
// that cuBLAS and NVRTC can come only from the folders the compute host would find: it finds them as the host does,
// hands them to the addon, then compiles a kernel with NVRTC and checks a cuBLAS GEMM against float64. Prints one
// JSON line: { dirs, libraries, compiled, gemm }.
import { homedir } from 'node:os';

import { SYSTEM_CONDA, SYSTEM_TOOLKIT_ROOT, cudaLibraryDirs } from '../../../main/host/cuda-library-dirs.ts';
import { benchmark, compileKernel, createHostBuffer, cudaInventory, relativeError, searchCudaLibrariesIn } from '../../../native/index.ts';

const dirs = await cudaLibraryDirs({ env: process.env, home: homedir(), toolkitRoot: SYSTEM_TOOLKIT_ROOT, systemConda: SYSTEM_CONDA });
searchCudaLibrariesIn(dirs);
const { libraries } = cudaInventory();

// sinf pulls in NVRTC's builtins, which NVRTC opens by name as it compiles.
const kernel = await compileKernel({ source: 'extern "C" __global__ void k(float* x) { x[threadIdx.x] = sinf(x[threadIdx.x]); }\n', fileName: 'k.cu', entry: 'k', arch: 'sm_90' });

const n = 256;
const a = createHostBuffer('fp32', n * n).fillRandom(1);
const b = createHostBuffer('fp32', n * n).fillRandom(2);
const out = createHostBuffer('fp32', n * n);
const r = await benchmark({ device: 'cuda:0', op: 'gemm', variant: 'cublas', dtype: 'fp32', path: 'with-copies', a, b, out, m: n, n, k: n }, { warmup: 1, repeats: 2 });
const x = a.toFloat64();
const y = b.toFloat64();
const ref = new Float64Array(n * n);
for (let i = 0; i < n; i++) {
  for (let p = 0; p < n; p++) {
    for (let j = 0; j < n; j++) ref[i * n + j] = (ref[i * n + j] ?? 0) + (x[i * n + p] ?? 0) * (y[p * n + j] ?? 0);
  }
}
const line = { dirs, libraries, compiled: { ok: kernel.ok, log: kernel.log, bytes: kernel.image?.length ?? 0 }, gemm: { implementation: r.implementation, error: relativeError(out.toFloat64(), ref) } };
process.stdout.write(`${JSON.stringify(line)}\n`);
