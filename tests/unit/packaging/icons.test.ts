// The icons made from build-resources/icon.svg by scripts/make-icons.mjs, read back as each system reads them: the
// Windows .ico's directory and the macOS .icns's chunks parse, every image in them is a PNG of the size its entry
// or type says, and they hold the sizes those systems ask for; Linux gets one PNG per size.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const resources = fileURLToPath(new URL('../../../build-resources/', import.meta.url));
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// Width and height from a PNG's IHDR, which always comes first.
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE), 'a PNG signature').toBe(true);
  expect(png.toString('ascii', 12, 16)).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

function icoImages(ico: Buffer): { size: number; png: Buffer }[] {
  expect(ico.readUInt16LE(0), 'reserved').toBe(0);
  expect(ico.readUInt16LE(2), 'type 1: icon').toBe(1);
  const count = ico.readUInt16LE(4);
  return Array.from({ length: count }, (_, i) => {
    const entry = 6 + 16 * i;
    const width = ico.readUInt8(entry) || 256;
    const height = ico.readUInt8(entry + 1) || 256;
    expect(height).toBe(width);
    expect(ico.readUInt16LE(entry + 6), 'bits per pixel').toBe(32);
    const length = ico.readUInt32LE(entry + 8);
    const offset = ico.readUInt32LE(entry + 12);
    expect(offset + length).toBeLessThanOrEqual(ico.length);
    return { size: width, png: ico.subarray(offset, offset + length) };
  });
}

function icnsChunks(icns: Buffer): { type: string; png: Buffer }[] {
  expect(icns.toString('ascii', 0, 4)).toBe('icns');
  expect(icns.readUInt32BE(4), 'the length the header states').toBe(icns.length);
  const chunks: { type: string; png: Buffer }[] = [];
  for (let at = 8; at < icns.length; ) {
    const length = icns.readUInt32BE(at + 4);
    expect(length).toBeGreaterThan(8);
    chunks.push({ type: icns.toString('ascii', at, at + 4), png: icns.subarray(at + 8, at + length) });
    at += length;
  }
  return chunks;
}

describe('app icons', () => {
  it('gives Windows an .ico of 16 to 256 px PNGs, each the size its entry states', () => {
    const images = icoImages(readFileSync(join(resources, 'icon.ico')));
    expect(images.map((i) => i.size)).toEqual([16, 24, 32, 48, 64, 128, 256]);
    for (const { size, png } of images) expect(pngSize(png), `${size} px`).toEqual({ width: size, height: size });
  });

  it('gives macOS an .icns of 16 to 1024 px PNGs, each the size its type stands for', () => {
    const pixels: Record<string, number> = { icp4: 16, icp5: 32, icp6: 64, ic07: 128, ic08: 256, ic09: 512, ic10: 1024, ic11: 32, ic12: 64, ic13: 256, ic14: 512 };
    const chunks = icnsChunks(readFileSync(join(resources, 'icon.icns')));
    expect(chunks.map((c) => c.type).sort()).toEqual(Object.keys(pixels).sort());
    for (const { type, png } of chunks) expect(pngSize(png), type).toEqual({ width: pixels[type], height: pixels[type] });
  });

  it('gives Linux one PNG per size, the same images as in the other containers', () => {
    const ico = new Map(icoImages(readFileSync(join(resources, 'icon.ico'))).map((i) => [i.size, i.png]));
    for (const size of [16, 24, 32, 48, 64, 128, 256, 512, 1024]) {
      const png = readFileSync(join(resources, 'icons', `${size}x${size}.png`));
      expect(pngSize(png), `${size} px`).toEqual({ width: size, height: size });
      const inIco = ico.get(size);
      if (inIco) expect(inIco.equals(png), `${size} px in the .ico`).toBe(true);
    }
  });

  it('is drawn from one SVG, on the 16-unit grid that keeps it sharp at 16 px', () => {
    const svg = readFileSync(join(resources, 'icon.svg'), 'utf8');
    expect(svg).toContain('viewBox="0 0 256 256"');
    const coordinates = [...svg.matchAll(/\b(?:x|y|width|height)="(\d+)"/g)].map((m) => Number(m[1]));
    expect(coordinates.length).toBeGreaterThan(10);
    expect(coordinates.filter((c) => c % 16 !== 0)).toEqual([]);
  });
});
