// Stand-ins for the BLAS libraries the compute host opens (main/host/blas-libraries.ts), built with the system's C
// compiler and really dlopened: each computes C = A·B (row-major, no transposes) naively, with the integer width and
// the symbol names of the family it stands in for, so that a loader that called it with the wrong width or names
// would get a wrong product or none (up to 10⁷ multiply-adds: beyond, only the time is kept). Each reports a version no real release has, and can be made slow (a sleep per
// call, shorter the more threads it is told to use) for the chooser's tests.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const canBuildFakes = spawnSync('cc', ['--version']).status === 0;

export interface FakeBlas {
  // Symbols: prefix and suffix around the CBLAS names, as the scipy-openblas wheels rename them.
  prefix?: string;
  suffix?: string;
  // 64-bit integers for the dimensions.
  ilp64?: boolean;
  // openblas_get_config's line; absent: no OpenBLAS functions at all (a plain CBLAS).
  config?: string;
  kernel?: string;
  // Microseconds slept per call on one thread; divided by the threads set.
  sleepUs?: number;
  // MKL's service functions instead of OpenBLAS's.
  mkl?: string;
  // No GEMMs: a library that opens but is no BLAS.
  noGemm?: boolean;
  // The Fortran interface alone (column-major sgemm_/dgemm_, arguments by reference), as a program exports it.
  fortran?: boolean;
  // An OpenMP runtime's thread functions beside it (omp_set_num_threads, omp_get_max_threads).
  omp?: boolean;
  // The thread count a setting of the calling thread, as OpenMP's is (and MKL's on OpenMP); and each GEMM logged,
  // with the calling thread's id and the count it runs with, to the file FAKE_BLAS_LOG names when it is called.
  perThread?: boolean;
}

function source(f: FakeBlas): string {
  const p = f.prefix ?? '';
  const s = f.suffix ?? '';
  const int = f.ilp64 ? 'long long' : 'int';
  const gemm = (t: string, c: string): string => `
void ${p}cblas_${c}gemm${s}(int order, int ta, int tb, ${int} m, ${int} n, ${int} k, ${t} alpha, const ${t}* a, ${int} lda,
                     const ${t}* b, ${int} ldb, ${t} beta, ${t}* cc, ${int} ldc) {
  if (order != 101 || ta != 111 || tb != 111) return;
  logCall("${c}gemm");
  if (${f.sleepUs ?? 0} > 0) usleep(${f.sleepUs ?? 0} / (threads > 0 ? threads : 1));
  if ((double)m * n * k > 1e7) return;  /* the chooser's sizes: only the time matters */
  for (${int} i = 0; i < m; i++) for (${int} j = 0; j < n; j++) {
    double sum = 0;
    for (${int} q = 0; q < k; q++) sum += (double)a[i * lda + q] * b[q * ldb + j];
    /* beta = 0 overwrites, as every BLAS does: C may hold NaN bits */
    cc[i * ldc + j] = beta == 0 ? (${t})(alpha * sum) : (${t})(alpha * sum) + beta * cc[i * ldc + j];
  }
}`;
  // Column-major C = A·B with every argument by reference and the characters' lengths last, as Fortran passes them.
  const fortran = (t: string, c: string): string => `
void ${c}gemm_(const char* ta, const char* tb, const int* m, const int* n, const int* k, const ${t}* alpha, const ${t}* a,
               const int* lda, const ${t}* b, const int* ldb, const ${t}* beta, ${t}* cc, const int* ldc, size_t la, size_t lb) {
  if (*ta != 'N' || *tb != 'N') return;
  logCall("${c}gemm_");
  for (int j = 0; j < *n; j++) for (int i = 0; i < *m; i++) {
    double sum = 0;
    for (int q = 0; q < *k; q++) sum += (double)a[i + q * *lda] * b[q + j * *ldb];
    cc[i + j * *ldc] = *beta == 0 ? (${t})(*alpha * sum) : (${t})(*alpha * sum) + *beta * cc[i + j * *ldc];
  }
}`;
  const openblas = f.config
    ? `
const char* ${p}openblas_get_config${s}(void) { return "${f.config}"; }
const char* ${p}openblas_get_corename${s}(void) { return "${f.kernel ?? 'FakeCore'}"; }
void ${p}openblas_set_num_threads${s}(int t) { threads = t; }
int ${p}openblas_get_num_threads${s}(void) { return threads; }`
    : '';
  const mkl = f.mkl
    ? `
void MKL_Get_Version_String(char* buf, int len) { snprintf(buf, len, "%s", "${f.mkl}"); }
int MKL_Get_Max_Threads(void) { return threads; }
void MKL_Set_Num_Threads(int t) { threads = t; }`
    : '';
  return `#define _GNU_SOURCE
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
static ${f.perThread ? '__thread ' : ''}int threads = 4;
static void logCall(const char* what) {
  const char* path = getenv("FAKE_BLAS_LOG");
  FILE* log = path && *path ? fopen(path, "a") : NULL;
  if (!log) return;
  fprintf(log, "%s %ld %d\\n", what, (long)syscall(SYS_gettid), threads);
  fclose(log);
}
${f.noGemm ? 'int not_a_blas(void) { return 0; }' : f.fortran ? fortran('float', 's') + fortran('double', 'd') : gemm('float', 's') + gemm('double', 'd')}
${f.omp ? 'void omp_set_num_threads(int t) { threads = t; }\nint omp_get_max_threads(void) { return threads; }' : ''}
${openblas}
${mkl}
`;
}

// Builds `fileName` in `dir` and returns its path.
export function fakeBlas(dir: string, fileName: string, f: FakeBlas): string {
  mkdirSync(dir, { recursive: true });
  const c = join(mkdtempSync(join(tmpdir(), 'gpu-lab-fake-blas-')), 'fake.c');
  writeFileSync(c, source(f));
  const out = join(dir, fileName);
  const r = spawnSync('cc', ['-O1', '-shared', '-fPIC', `-Wl,-soname,${fileName}`, '-o', out, c], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`cc could not build ${fileName}: ${r.stderr}`);
  return out;
}
