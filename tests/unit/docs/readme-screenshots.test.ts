// README's screenshots are the ones the end-to-end spec makes: each listed in tests/e2e/support/readme-shots.ts is
// shown in README with its caption and exists in docs/screenshots/ as a real PNG of the spec's window, and no other
// image lies there unlisted (an old one the spec no longer makes would go stale).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { README_SHOTS, README_SHOTS_DIR } from '../../e2e/support/readme-shots.ts';

const readme = readFileSync('README.md', 'utf8');

describe("README's screenshots", () => {
  it.each(README_SHOTS.map((s) => [s.file, s]))('%s is shown with its caption and is a 1440×900 PNG', (_file, shot) => {
    expect(readme).toContain(`![${shot.caption}](${README_SHOTS_DIR}/${shot.file})`);
    const png = readFileSync(join(README_SHOTS_DIR, shot.file));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    // IHDR: width and height, big-endian, at bytes 16 and 20.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1440, 900]);
  });

  it('holds no image the spec does not make', () => {
    const listed = new Set(README_SHOTS.map((s) => s.file));
    expect(readdirSync(README_SHOTS_DIR).filter((f) => !listed.has(f))).toEqual([]);
  });
});
