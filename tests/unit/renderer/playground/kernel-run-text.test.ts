// How a kernel run's figures read: elements of the output with float precision and the language's decimal mark, and
// which failures cost the compute host a restart (a fault or the watchdog), which the result panel says in words.
import { afterEach, describe, expect, it } from 'vitest';

import { setNumberLocale } from '../../../../main/common/pure/locale.ts';
import { costRestart, elementText, undercovered } from '../../../../renderer/components/playground/kernel-run-text.ts';

afterEach(() => setNumberLocale('en'));

describe('kernel run text', () => {
  it('prints an element with nine significant digits, so that a last-bit difference of a float shows', () => {
    // 1 + 2⁻²³, the float after 1.
    expect(elementText(Math.fround(1 + 2 ** -23))).toBe('1.00000012');
    expect(elementText(1)).toBe('1');
    expect(elementText(Math.PI)).toBe('3.14159265');
    expect(elementText(Number.NaN)).toBe('NaN');
    setNumberLocale('es');
    expect(elementText(2.5)).toBe('2,5');
  });

  it('says the compute host was restarted after a watchdog timeout or an illegal address, not after a refusal', () => {
    expect(costRestart({ status: 'failed', error: { code: 'TIMEOUT', message: 'watchdog' } })).toBe(true);
    expect(costRestart({ status: 'failed', error: { code: 'DEVICE_LOST', message: 'an illegal memory access was encountered' } })).toBe(true);
    expect(costRestart({ status: 'failed', error: { code: 'INVALID_ARGUMENT', message: 'block' } })).toBe(false);
    expect(costRestart({ status: 'verified', error: null })).toBe(false);
  });

  it('warns when the grid launches fewer threads than elements', () => {
    expect(undercovered(0.5)).toBe(true);
    expect(undercovered(1)).toBe(false);
  });
});
