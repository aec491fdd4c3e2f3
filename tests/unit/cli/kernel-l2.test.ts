// `gpu-lab kernel run` on data that fits in L2 (the reduction's 32 MiB on an H100's 50 MiB): no peak line, no
// share of peak in the table, and a line that says the rates were read from L2, in English and in Spanish; a run
// from DRAM says nothing of L2. The flag survives the store's schema, and a run stored before it still parses.
import { describe, expect, it } from 'vitest';

import { kernelRunText } from '../../../main/cli/kernel-run-text.ts';
import { cliText } from '../../../main/cli/cli-text.ts';
import type { Locale } from '../../../main/common/pure/locale.ts';
import { KERNEL_RUN } from '../../../main/common/playground.ts';
import { kernelRun, reductionFromL2Result, saxpyResult } from '../renderer/playground/synthetic-kernel-run.ts';

const cx = (locale: Locale) => ({ locale, t: cliText(locale) });
const fromL2 = kernelRun(reductionFromL2Result(), { exercise: 'reduction' });

describe('a kernel run read from L2, as printed', () => {
  it('says so in English, with no peak and no share of it', () => {
    const { out } = kernelRunText(fromL2, cx('en'), 'reduce.cu');
    expect(out).toContain(
      'the data (32 MiB) fits in the 50 MiB L2 cache of cuda:0: after the first launch it is read from L2, so these rates are not DRAM bandwidth and are not shown as a share of its peak\n',
    );
    expect(out).not.toContain('peak of cuda:0');
    expect(out).toMatch(/^your kernel \(reduce\.cu\) +[\d.]+ µs +5 TB\/s +—$/m);
  });

  it('says so in Spanish', () => {
    const { out } = kernelRunText(fromL2, cx('es'), 'reduce.cu');
    expect(out).toContain(
      'los datos (32 MiB) caben en la caché L2 de 50 MiB de cuda:0: tras el primer lanzamiento se leen de la L2, así que estas tasas no son ancho de banda de DRAM y no se muestran como fracción de su pico\n',
    );
  });

  it('says nothing of L2 for a run from DRAM, in either language', () => {
    for (const locale of ['en', 'es'] as const) expect(kernelRunText(kernelRun(saxpyResult()), cx(locale)).out).not.toContain('L2');
  });

  it('keeps the flag through the store’s schema, and reads a run stored without it', () => {
    expect(KERNEL_RUN.parse(JSON.parse(JSON.stringify(fromL2))).result?.l2).toEqual({ workingSetBytes: 32 * 2 ** 20, l2Bytes: 50 * 2 ** 20 });
    expect(KERNEL_RUN.parse(JSON.parse(JSON.stringify(kernelRun(saxpyResult())))).result?.l2).toBeUndefined();
    expect(() => KERNEL_RUN.parse({ ...fromL2, result: { ...reductionFromL2Result(), l2: { workingSetBytes: 1 } } })).toThrow();
  });
});
