// What the compute host says in English about what this machine lacks, said again as messages for every reader: the
// loader's reasons as native/cuda/dynlib.cu words them, read back whole for any names, folders and error; the CUDA
// reasons the runner words; and the peak table's sources, whose catalog words must not drift from the table's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { archRates } from '../../../main/common/pure/gpu-peaks.ts';
import { CATALOGS, translator } from '../../../main/common/pure/i18n/index.ts';
import { libraryWhy, noCudaWhy, recordedReasonWhy } from '../../../main/common/pure/host-reasons.ts';
import { renderMessage } from '../../../main/common/pure/message.ts';

const soname = fc.stringMatching(/^lib[a-z-]{2,12}\.so(\.\d{1,2})?$/);
const folder = fc.stringMatching(/^\/[a-z0-9/_-]{1,30}$/);

describe('libraryWhy', () => {
  it('reads back every name tried, the count of other folders and the loader’s own error', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(soname, folder.map((f) => `${f}/libx.so`)), { minLength: 1, maxLength: 4 }), fc.option(fc.integer({ min: 1, max: 9 }), { nil: null }), fc.string({ minLength: 1, maxLength: 80 }).filter((e) => !e.includes('\n')), (tried, others, error) => {
        const list = tried.join(', ');
        const reason = others === null ? `none of ${list} could be opened (${error})` : `none of ${list} could be opened from the loader's path or ${others} ${others === 1 ? 'other folder' : 'other folders'} (${error})`;
        const said = libraryWhy(reason);
        expect(said?.detail).toBe(error);
        expect(said?.why.values?.tried).toBe(list);
        if (others !== null) expect(said?.why.values?.count).toBe(others);
        for (const locale of ['en', 'es'] as const) expect(renderMessage(said?.why ?? { key: 'x' }, translator(locale), locale)).toContain(list);
      }),
    );
  });

  it('says a build without CUDA, and leaves any other reason to be quoted', () => {
    expect(renderMessage(libraryWhy('built without CUDA')?.why ?? { key: 'x' }, translator('es'), 'es')).toBe('GPU Lab se compiló sin CUDA');
    expect(libraryWhy('something else')).toBeNull();
  });
});

describe('noCudaWhy and recordedReasonWhy', () => {
  it('say the driver’s and the build’s reasons in Spanish', () => {
    const es = (m: ReturnType<typeof noCudaWhy>): string => renderMessage(m, translator('es'), 'es');
    expect(es(noCudaWhy('no CUDA device: no NVIDIA driver is installed (libcuda.so.1 was not found)'))).toBe(
      'no hay ningún dispositivo CUDA: no hay ningún controlador de NVIDIA instalado (no se encontró libcuda.so.1)',
    );
    expect(es(noCudaWhy('no CUDA device: cudaErrorNoDevice (no CUDA-capable device is detected)'))).toBe('no hay ningún dispositivo CUDA: el runtime de CUDA respondió cudaErrorNoDevice');
    expect(es(recordedReasonWhy('the run was started on the CPU only (device "cpu")') ?? { key: 'x' })).toBe('la ejecución se lanzó solo en la CPU (dispositivo «cpu»)');
    // A reason the runner never wrote is not guessed at.
    expect(recordedReasonWhy('NVRTC is missing')).toBeNull();
  });
});

describe('the peak table’s sources in the catalogs', () => {
  it('are the table’s own words in English, and said in Spanish, for every compute capability it knows', () => {
    for (const cc of ['7.0', '7.5', '8.0', '8.6', '8.9', '9.0']) {
      const key = cc.replace('.', '_') as keyof typeof CATALOGS.en.devices.peaks.sources;
      expect(CATALOGS.en.devices.peaks.sources[key]).toBe(archRates(cc)?.source);
      expect(CATALOGS.es.devices.peaks.sources[key]).not.toBe(archRates(cc)?.source);
    }
    expect(archRates('9.1')).toBeNull();
  });
});
