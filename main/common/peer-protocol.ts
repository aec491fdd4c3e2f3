// The Python peers' worker protocol (python/gpu_lab_peers/protocol.py is its other side): JSON lines over the
// worker's stdio, every line the worker writes checked here before it is believed. Requests carry an id and the
// call they make; answers name the id back, ok or with an error. The worker's first line says it is ready.
// Libraries and workloads are named by the engine only: nothing of a request from a browser reaches the worker.
// A workload's words are the measurement's (measurement.ts): its `op`, the arrays' `dtype`, the `clock`.
import { z } from 'zod';

import { CLOCKS, DTYPES, OPS } from './measurement.ts';
import { msg, type Message } from './pure/message.ts';
import { PEER_LIBRARIES } from './pure/peer-libraries.ts';
import type { PeerLibrary } from './pure/peer-libraries.ts';

// The interpreter the peers run on, named by the person at the machine (--python, the app's settings).
export const PYTHON_ENV = 'GPU_LAB_PYTHON';
// Where none is named: python3, looked up in PATH when the worker starts.
export const DEFAULT_PYTHON = 'python3';

export { PEER_LIBRARIES, PEER_LIBRARY_NAMES } from './pure/peer-libraries.ts';
export type { PeerLibrary } from './pure/peer-libraries.ts';

export const PEER_READY = z.strictObject({ ready: z.literal(true), python: z.string().max(40), pid: z.int() });

// The arrays cross in the engine's dtypes, bfloat16 as its raw 16 bits (NumPy has none).
const ARRAY = z.strictObject({ path: z.string().min(1).max(4096), dtype: z.enum(DTYPES), length: z.int().min(1).max(2 ** 31) });
// The clocks a peer's samples are read with (python/gpu_lab_peers/__main__.py): the measurement's, perf_counter
// standing for the host's monotonic clock (`host`: the GPU synchronised after the call; `host-nosync`: the clock
// stopped when the call returns), and what Python alone has: `time-time`, the host's clock read with time.time(),
// as the notebooks write it.
export const PEER_CLOCKS = [...CLOCKS, 'time-time'] as const;
export type PeerClock = (typeof PEER_CLOCKS)[number];
export type PeerArray = z.infer<typeof ARRAY>;

// Where a playground kernel is launched from: PyCUDA where it imports, else cuda.core ('auto'), or the one named.
export const KERNEL_LAUNCH_LIBRARIES = ['auto', 'pycuda', 'cuda-core'] as const;
export type KernelLaunchLibrary = (typeof KERNEL_LAUNCH_LIBRARIES)[number];
const KERNEL_ARG = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.enum(['input', 'output']), path: z.string().min(1).max(4096), dtype: z.enum(['fp32', 'fp64']), length: z.int().min(1).max(2 ** 31) }),
  z.strictObject({ kind: z.literal('scalar'), type: z.enum(['f32', 'f64', 'i32', 'u64']), value: z.number() }),
]);
export type PeerKernelArg = z.infer<typeof KERNEL_ARG>;
// The playground's MAX_SOURCE_CHARS (playground.ts imports this file's neighbours: kept apart to keep imports one-way).
export const MAX_KERNEL_SOURCE_CHARS = 100_000;
const DIM3 = z.tuple([z.int().min(1), z.int().min(1), z.int().min(1)]);

export const PEER_REQUEST = z.discriminatedUnion('call', [
  z.strictObject({ id: z.int(), call: z.literal('probe'), libraries: z.array(z.enum(PEER_LIBRARIES)) }),
  z.strictObject({
    id: z.int(),
    call: z.literal('prepare'),
    op: z.enum(OPS),
    code: z.string().max(64),
    device: z.string().max(16),
    inputs: z.array(ARRAY).max(8),
    output: ARRAY,
    params: z.record(z.string(), z.number()),
    // The clock the engine asks for, where it is not the workload's own; and the shortest sample, reached by
    // repeating a shorter call inside it.
    clock: z.enum(PEER_CLOCKS).optional(),
    minSampleMs: z.number().min(0).max(1000).optional(),
  }),
  // A playground kernel launched from Python: the source the door checked, its file's and kernel's names, the launch,
  // the arguments in the signature's order. No field names a compiler option or an include folder: the worker's
  // options are its own (and it refuses any field not listed).
  z.strictObject({
    id: z.int(),
    call: z.literal('prepare-kernel'),
    library: z.enum(KERNEL_LAUNCH_LIBRARIES),
    device: z.string().max(16),
    source: z.string().min(1).max(MAX_KERNEL_SOURCE_CHARS),
    fileName: z.string().regex(/^[\w.-]{1,120}$/),
    entry: z.string().regex(/^[A-Za-z_]\w{0,63}$/),
    grid: DIM3,
    block: DIM3,
    sharedBytes: z.int().min(0).max(49_152),
    args: z.array(KERNEL_ARG).max(16),
    minSampleMs: z.number().min(0).max(1000).optional(),
  }),
  z.strictObject({ id: z.int(), call: z.literal('sample'), warmup: z.int().min(0).max(100_000), count: z.int().min(1).max(100_000) }),
  // `indices`: only these elements of the output are written back (those the engine's check reads, where it reads a
  // sample), in this order.
  z.strictObject({ id: z.int(), call: z.literal('output'), indices: z.array(z.int().min(0).max(2 ** 31 - 1)).max(8192).optional() }),
  // The workload's own float64 reference of part of its output (the text-to-image lab: the first image computed on the
  // CPU in float64), for workloads the engine has no reference of.
  z.strictObject({ id: z.int(), call: z.literal('reference'), output: ARRAY.refine((a) => a.dtype === 'fp64', 'fp64') }),
  // `keep`: the input files whose arrays the worker keeps for the peer points after (host/peer-files.ts); absent, none.
  z.strictObject({ id: z.int(), call: z.literal('release'), keep: z.array(z.string().max(4096)).max(1000).optional() }),
]);
export type PeerRequest = z.infer<typeof PEER_REQUEST>;
// A request as the engine writes it, before the id is given.
export type PeerCall = PeerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

const LIBRARY_REPORT = z.union([
  // `kind`: not installed, or an import that failed (with what Python said, `error`); `reason` says it in English.
  // Reports of versions before `kind` have the reason alone.
  z.strictObject({ found: z.literal(false), reason: z.string().max(2000), kind: z.enum(['missing', 'broken', 'unknown']).optional(), error: z.string().max(2000).optional() }),
  z.strictObject({
    found: z.literal(true),
    version: z.string().max(100),
    // NumPy: the BLAS it calls; torch, CuPy, Numba: whether CUDA works for them and the devices they see.
    blas: z.string().max(200).nullable().optional(),
    cudaAvailable: z.boolean().optional(),
    cudaVersion: z.string().max(40).nullable().optional(),
    cudaReason: z.string().max(2000).optional(),
    devices: z.array(z.string().max(200)).max(64).optional(),
    detailsReason: z.string().max(2000).optional(),
  }),
]);
export type PeerLibraryReport = z.infer<typeof LIBRARY_REPORT>;

export const PEER_PROBE = z.strictObject({
  python: z.string().max(40),
  executable: z.string().max(4096),
  libraries: z.record(z.string(), LIBRARY_REPORT),
});
export type PeerProbe = z.infer<typeof PEER_PROBE>;

export const PEER_ANSWER = z.union([
  z.object({ id: z.int(), ok: z.literal(true) }).catchall(z.unknown()),
  z.strictObject({ id: z.int().nullable(), ok: z.literal(false), error: z.strictObject({ code: z.string().max(64), message: z.string().max(10_000) }) }),
]);
export type PeerAnswer = z.infer<typeof PEER_ANSWER>;

// One round of samples, on the clock named (PEER_CLOCKS), and the host's wall time of each.
export const PEER_SAMPLES = z.strictObject({
  id: z.int(),
  ok: z.literal(true),
  samplesMs: z.array(z.number().nonnegative()).min(1),
  wallMs: z.array(z.number().nonnegative()).min(1),
  clock: z.enum(PEER_CLOCKS),
  // Calls a sample holds (each sample is their mean): more than one only where a call is shorter than minSampleMs.
  executionsPerSample: z.int().min(1).max(10_000),
  // The memory the workload held at its peak since it was prepared, where it says (text_to_image.py): on the GPU,
  // PyTorch's peak allocation; on the CPU, the worker's peak resident memory.
  memoryBytes: z.number().int().nonnegative().optional(),
  // Untimed calls the round made before its samples: its warm-up, and where the batch was sized, the call that sized it.
  untimedCalls: z.int().min(0).max(200_000).optional(),
});
// Where the reference's first value sits in the output.
export const PEER_REFERENCE = z.strictObject({ id: z.int(), ok: z.literal(true), offset: z.int().min(0) });
export type PeerSamples = z.infer<typeof PEER_SAMPLES>;
// `restored`: what the worker put back into NumPy before importing the library (python/gpu_lab_peers/library_import.py:
// numpy.row_stack, which numba-cuda 0.30 reads and NumPy 2.5 removed).
// `reusedInputs`: how many of its inputs the worker still held from an earlier point (host/peer-files.ts).
export const PEER_PREPARED = z.strictObject({ id: z.int(), ok: z.literal(true), library: z.string().max(200), reusedInputs: z.int().min(0).max(8).optional(), restored: z.array(z.enum(['numpy.row_stack'])).max(1).optional() });
// What the worker says of a kernel it prepared: which launcher took it ('pycuda' or 'cuda-core') and its version, how
// long its compiler took, and the time of the launch whose output is verified.
export const PEER_KERNEL_PREPARED = z.strictObject({
  id: z.int(),
  ok: z.literal(true),
  library: z.string().max(200),
  launcher: z.enum(['pycuda', 'cuda-core']),
  compileMs: z.number().nonnegative(),
  firstMs: z.number().nonnegative(),
});
// How a series' implementation says so, in the record (English, as the libraries' own names there); the report's
// method finds the series by it and says it in the reader's language.
export const ROW_STACK_RESTORED = 'numpy.row_stack restored as numpy.vstack for Numba';

// Where the interpreter was named (desktop-api.ts's PythonSource): added by main (the lab host), which knows, never
// by the compute host, which only sees GPU_LAB_PYTHON.
const PYTHON_SOURCE = z.enum(['settings', 'environment', 'default']).optional();

// What the compute host says of the Python peers: the interpreter it would use and what it offers, or why there is
// none to ask (no interpreter, no package, a worker that would not start).
export const PEERS_REPORT = z.union([
  z.strictObject({ interpreter: z.string().max(4096), available: z.literal(true), probe: PEER_PROBE, source: PYTHON_SOURCE }),
  z.strictObject({ interpreter: z.string().max(4096), available: z.literal(false), reason: z.string().max(4000), source: PYTHON_SOURCE }),
]);
export type PeersReport = z.infer<typeof PEERS_REPORT>;

// Why a peer library's series cannot run, as a message of the reasons catalog (common/pure/i18n/*/reasons.ts), or null
// where it can; `gpu`: the series runs on the GPU through it. What the interpreter or library said stays as it said it.
export function peerWaivedWhy(report: PeersReport | null, library: PeerLibrary, gpu = false): Message | null {
  if (!report) return msg('reasons.peersNotAsked');
  if (!report.available) return msg('reasons.noPeers', { detail: report.reason });
  const lib = report.probe.libraries[library];
  if (!lib) return msg('reasons.peerNotProbed', { library });
  if (!lib.found) {
    const said = { library, interpreter: report.probe.executable, detail: lib.error ?? lib.reason };
    if (lib.kind === 'missing') return msg('reasons.peerNotInstalled', said);
    if (lib.kind === 'broken') return msg('reasons.peerImportFailed', said);
    return msg('reasons.peerMissing', { ...said, detail: lib.reason });
  }
  if (gpu && lib.cudaAvailable !== true) {
    return lib.cudaReason ? msg('reasons.peerNoCudaWhy', { library, version: lib.version, detail: lib.cudaReason }) : msg('reasons.peerNoCuda', { library, version: lib.version });
  }
  return null;
}
