// Error codes that cross every boundary (addon → compute host → main → renderer) as {code, message, details}.
// The code is the stable part: tests, the UI and scripts match on it, never on the message.

export const ERROR_CODES = [
  // bad input
  'INVALID_ARGUMENT',
  'INVALID_PARAMS',
  'UNKNOWN_METHOD',
  'UNKNOWN_DTYPE',
  'DTYPE_MISMATCH',
  'LENGTH_MISMATCH',
  'BUFFER_FREED',
  'SIZE_UNSUPPORTED',
  'UNSUPPORTED_OPERATION',
  // resources
  'OUT_OF_HOST_MEMORY',
  'CUDA_ERROR_OUT_OF_MEMORY',
  'BLAS_UNAVAILABLE',
  'CUDA_UNAVAILABLE',
  'LIBRARY_UNAVAILABLE',
  'DEVICE_LOST',
  'CUDA_ERROR',
  // runs
  'CANCELLED',
  'VERIFICATION_FAILED',
  'COMPUTE_HOST_CRASHED',
  'RUN_INTERRUPTED',
  'TIMEOUT',
  // the device is measuring another run (of this or another process, or another user): one run at a time per device
  'DEVICE_BUSY',
  // a file could not be written for the disk's sake (full, over quota, failing): the path itself was fine
  'WRITE_FAILED',
  'NOT_FOUND',
  'NATIVE_ERROR',
  'ADDON_NOT_BUILT',
  // serve mode: a client past its limits (requests a second, requests at once, runs started); nothing was run
  'RATE_LIMITED',
  // classroom mode: the caller's role may not do this (a student calling a teacher's method)
  'FORBIDDEN',
  // the renderer's link to main (serve mode's WebSocket) dropped before an answer came
  'DISCONNECTED',
  // a Python peer (a NumPy, PyTorch, CuPy or Numba series) failed: its import, its code, or its worker
  'PEER_FAILED',
  // WebGPU reported an error on its device (validation, out of memory, internal): the device cannot be trusted after it
  'WEBGPU_ERROR',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

export class GpuLabError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'GpuLabError';
    this.code = code;
    this.details = details;
  }

  toPayload(): ErrorPayload {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }

  // Any thrown value as a GpuLabError: native errors keep their code, anything else becomes NATIVE_ERROR.
  static from(err: unknown): GpuLabError {
    if (err instanceof GpuLabError) return err;
    if (err instanceof Error) {
      const code = (err as Error & { code?: unknown }).code;
      return new GpuLabError(isErrorCode(code) ? code : 'NATIVE_ERROR', err.message);
    }
    return new GpuLabError('NATIVE_ERROR', String(err));
  }
}
