// An error as a reader of another language reads it, one sentence per code (main/common/errors.ts); in English the
// engine's own message is shown instead. tests/unit/i18n/error-text.test.ts holds every code to a sentence.
import type { ErrorCode } from '../../../errors.ts';

export const errors = {
  INVALID_ARGUMENT: 'An argument was refused.',
  INVALID_PARAMS: 'A parameter of the lab was refused.',
  UNKNOWN_METHOD: 'GPU Lab has no such request.',
  UNKNOWN_DTYPE: 'The data type is not one GPU Lab knows.',
  DTYPE_MISMATCH: 'The buffers hold different data types.',
  LENGTH_MISMATCH: 'The buffers have different lengths.',
  BUFFER_FREED: 'A buffer was used after it was freed.',
  SIZE_UNSUPPORTED: 'This size is not supported.',
  UNSUPPORTED_OPERATION: 'This device cannot do this operation.',
  OUT_OF_HOST_MEMORY: 'The computer ran out of memory.',
  CUDA_ERROR_OUT_OF_MEMORY: 'The GPU ran out of memory.',
  BLAS_UNAVAILABLE: 'No BLAS library is available.',
  CUDA_UNAVAILABLE: 'CUDA is not available on this computer.',
  LIBRARY_UNAVAILABLE: 'A library it needs (cuBLAS, NVRTC or NVML) was not found.',
  DEVICE_LOST: 'The GPU stopped responding.',
  CUDA_ERROR: 'CUDA reported an error.',
  CANCELLED: 'Cancelled.',
  VERIFICATION_FAILED: 'The result did not match the float64 reference.',
  COMPUTE_HOST_CRASHED: 'The compute process stopped unexpectedly; it has been restarted.',
  RUN_INTERRUPTED: 'The run was interrupted: the program that ran it stopped.',
  TIMEOUT: 'It took too long and was stopped.',
  DEVICE_BUSY: 'The device is measuring another run: one run at a time per device.',
  WRITE_FAILED: 'The file could not be written (the disk may be full).',
  NOT_FOUND: 'It was not found.',
  NATIVE_ERROR: 'An internal error occurred.',
  ADDON_NOT_BUILT: 'The native part of GPU Lab is not built.',
  RATE_LIMITED: 'Too many requests: wait a moment and try again.',
  FORBIDDEN: 'Your role in the class does not allow this.',
  DISCONNECTED: 'The connection to GPU Lab was lost.',
  PEER_FAILED: 'The Python series failed.',
  WEBGPU_ERROR: 'WebGPU reported an error on the device; the compute process has been restarted.',
} satisfies Record<ErrorCode, string>;

// What an error's details name, said after the code's sentence in another language than English: identifiers and
// paths, which read the same in every language.
export const errorDetails = {
  runId: 'run {value}',
  id: '{value}',
  file: 'file {value}',
  path: 'path {value}',
  device: 'device {value}',
  heldBy: 'in use by {value}',
  parameter: 'parameter {value}',
  argument: 'argument {value}',
  method: 'request {value}',
};
