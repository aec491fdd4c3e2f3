import type { TextOf } from '../translate.ts';
import type { errorDetails as detailsEn, errors as en } from '../en/errors.ts';

// Un error por su código, como lo lee quien no lee inglés.
export const errors: TextOf<typeof en> = {
  INVALID_ARGUMENT: 'Se rechazó un argumento.',
  INVALID_PARAMS: 'Se rechazó un parámetro del laboratorio.',
  UNKNOWN_METHOD: 'GPU Lab no tiene esa petición.',
  UNKNOWN_DTYPE: 'GPU Lab no conoce ese tipo de datos.',
  DTYPE_MISMATCH: 'Los buffers tienen tipos de datos distintos.',
  LENGTH_MISMATCH: 'Los buffers tienen longitudes distintas.',
  BUFFER_FREED: 'Se usó un buffer después de liberarlo.',
  SIZE_UNSUPPORTED: 'Ese tamaño no está admitido.',
  UNSUPPORTED_OPERATION: 'Este dispositivo no puede hacer esa operación.',
  OUT_OF_HOST_MEMORY: 'El ordenador se quedó sin memoria.',
  CUDA_ERROR_OUT_OF_MEMORY: 'La GPU se quedó sin memoria.',
  BLAS_UNAVAILABLE: 'No hay ninguna biblioteca BLAS disponible.',
  CUDA_UNAVAILABLE: 'CUDA no está disponible en este ordenador.',
  LIBRARY_UNAVAILABLE: 'No se encontró una biblioteca necesaria (cuBLAS, NVRTC o NVML).',
  DEVICE_LOST: 'La GPU dejó de responder.',
  CUDA_ERROR: 'CUDA informó de un error.',
  CANCELLED: 'Cancelado.',
  VERIFICATION_FAILED: 'El resultado no coincide con la referencia en float64.',
  COMPUTE_HOST_CRASHED: 'El proceso de cálculo se detuvo de forma inesperada; se ha vuelto a arrancar.',
  RUN_INTERRUPTED: 'La ejecución se interrumpió: el programa que la hacía se detuvo.',
  DEVICE_BUSY: 'El dispositivo está midiendo otra ejecución: una sola a la vez por dispositivo.',
  TIMEOUT: 'Tardó demasiado y se detuvo.',
  WRITE_FAILED: 'No se pudo escribir el archivo (puede que el disco esté lleno).',
  NOT_FOUND: 'No se encontró.',
  NATIVE_ERROR: 'Se produjo un error interno.',
  ADDON_NOT_BUILT: 'La parte nativa de GPU Lab no está compilada.',
  RATE_LIMITED: 'Demasiadas peticiones: espera un momento y vuelve a intentarlo.',
  FORBIDDEN: 'Tu papel en la clase no permite esto.',
  DISCONNECTED: 'Se perdió la conexión con GPU Lab.',
  PEER_FAILED: 'Falló la serie de Python.',
  WEBGPU_ERROR: 'WebGPU informó de un error en el dispositivo; el proceso de cálculo se ha vuelto a arrancar.',
};

export const errorDetails: TextOf<typeof detailsEn> = {
  runId: 'ejecución {value}',
  id: '{value}',
  file: 'archivo {value}',
  path: 'ruta {value}',
  device: 'dispositivo {value}',
  heldBy: 'en uso por {value}',
  parameter: 'parámetro {value}',
  argument: 'argumento {value}',
  method: 'petición {value}',
};
