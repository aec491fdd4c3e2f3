// Stand-ins for cuBLAS and NVRTC, built with the system's C compiler: shared libraries with the real sonames that
// export every function the addon binds (and NVRTC's builtins beside it), and report a version no real release has, so that a test can tell them
// from a real library. The build machines have neither library; the addon opens these as it would the real ones.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The versions they report: NVRTC 13.7, cuBLAS 12.99.5.
export const FAKE_NVRTC_VERSION = '13.7';
export const FAKE_CUBLAS_VERSION = '12.99.5';

const NVRTC_SOURCE = `
int nvrtcVersion(int* major, int* minor) { *major = 13; *minor = 7; return 0; }
const char* nvrtcGetErrorString(int r) { return "fake NVRTC"; }
${['CreateProgram', 'CompileProgram', 'GetProgramLogSize', 'GetProgramLog', 'GetCUBINSize', 'GetCUBIN', 'GetPTXSize', 'GetPTX', 'AddNameExpression', 'GetLoweredName', 'GetNumSupportedArchs', 'GetSupportedArchs', 'DestroyProgram'].map((f) => `int nvrtc${f}(void) { return 1; }`).join('\n')}
`;

// cublasGetProperty: MAJOR_VERSION 0, MINOR_VERSION 1, PATCH_LEVEL 2 (library_types.h).
const CUBLAS_SOURCE = `
int cublasGetProperty(int type, int* value) { *value = type == 0 ? 12 : type == 1 ? 99 : 5; return 0; }
${['Create_v2', 'Destroy_v2', 'SetStream_v2', 'SetMathMode', 'GemmEx'].map((f) => `int cublas${f}(void) { return 1; }`).join('\n')}
`;

// Whether a C compiler is here to build them.
export const canBuildFakes = spawnSync('cc', ['--version']).status === 0;

// Whether the loader finds a real cuBLAS or NVRTC by itself: it would win over any folder, and the stand-ins would
// prove nothing.
export const realOnesOnLoaderPath = ((): boolean => {
  const cache = spawnSync('ldconfig', ['-p'], { encoding: 'utf8' }).stdout ?? '';
  const dirs = (process.env.LD_LIBRARY_PATH ?? '').split(':').filter(Boolean);
  return ['libnvrtc.so.13', 'libnvrtc.so.12', 'libcublas.so.13', 'libcublas.so.12'].some((s) => cache.includes(s) || dirs.some((d) => existsSync(join(d, s))));
})();

function build(dir: string, soname: string, source: string): void {
  mkdirSync(dir, { recursive: true });
  const c = join(mkdtempSync(join(tmpdir(), 'gpu-lab-fake-src-')), 'fake.c');
  writeFileSync(c, source);
  const r = spawnSync('cc', ['-shared', '-fPIC', `-Wl,-soname,${soname}`, '-o', join(dir, soname), c], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`cc could not build ${soname}: ${r.stderr}`);
}

// NVRTC with the builtins it dlopens by name as it compiles, side by side as NVIDIA ships them.
export function fakeNvrtc(dir: string): { library: string; builtins: string } {
  build(dir, 'libnvrtc.so.13', NVRTC_SOURCE);
  build(dir, 'libnvrtc-builtins.so.13.7', 'int nvrtcBuiltinsStandIn(void) { return 0; }\n');
  return { library: join(dir, 'libnvrtc.so.13'), builtins: join(dir, 'libnvrtc-builtins.so.13.7') };
}

export function fakeCublas(dir: string): string {
  build(dir, 'libcublas.so.12', CUBLAS_SOURCE);
  return join(dir, 'libcublas.so.12');
}
