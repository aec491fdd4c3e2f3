#!/usr/bin/env node
// The app's icons from one drawing, build-resources/icon.svg: the PNG sizes Linux desktops pick from
// (build-resources/icons/NxN.png), a Windows .ico and a macOS .icns. Both containers hold PNG images, so they are
// written here rather than with a converter that would need installing. The outputs are committed: packaging needs
// no step of its own for them. Run again after changing the drawing: node scripts/make-icons.mjs
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { createCanvas, loadImage } from '@napi-rs/canvas';

const resources = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'build-resources');

export const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
// Windows draws 16–48 in lists and the taskbar, 256 in large views; an entry of 256 is written as width 0.
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
// macOS's PNG icon types and the pixel size each holds (the @2x types are twice their point size).
export const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024],
  ['ic11', 32],
  ['ic12', 64],
  ['ic13', 256],
  ['ic14', 512],
];

// The drawing rendered at `size` pixels: the SVG is given that size itself, so each size is drawn from the
// vectors rather than scaled from another bitmap.
async function renderPng(svg, size) {
  const sized = svg.replace('<svg ', `<svg width="${size}" height="${size}" `);
  const image = await loadImage(Buffer.from(sized));
  const canvas = createCanvas(size, size);
  canvas.getContext('2d').drawImage(image, 0, 0, size, size);
  return canvas.encode('png');
}

// ICONDIR (6 bytes), one ICONDIRENTRY (16 bytes) per image, then the PNGs.
export function icoContainer(images) {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, i) => {
    const entry = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, entry);
    header.writeUInt8(size >= 256 ? 0 : size, entry + 1);
    header.writeUInt8(0, entry + 2);
    header.writeUInt8(0, entry + 3);
    header.writeUInt16LE(1, entry + 4);
    header.writeUInt16LE(32, entry + 6);
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map((i) => i.png)]);
}

// 'icns', the file's length, then chunks of type, length (header included) and PNG data; all big-endian.
export function icnsContainer(chunks) {
  const parts = chunks.map(({ type, png }) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + parts.reduce((n, p) => n + p.length, 0), 4);
  return Buffer.concat([head, ...parts]);
}

export async function makeIcons(outDir = resources) {
  const svg = readFileSync(join(resources, 'icon.svg'), 'utf8');
  const sizes = [...new Set([...LINUX_SIZES, ...ICO_SIZES, ...ICNS_TYPES.map(([, size]) => size)])];
  const pngs = new Map();
  for (const size of sizes) pngs.set(size, await renderPng(svg, size));
  const png = (size) => {
    const data = pngs.get(size);
    if (!data) throw new Error(`no ${size} px rendering`);
    return data;
  };
  mkdirSync(join(outDir, 'icons'), { recursive: true });
  for (const size of LINUX_SIZES) writeFileSync(join(outDir, 'icons', `${size}x${size}.png`), png(size));
  writeFileSync(join(outDir, 'icon.png'), png(1024));
  writeFileSync(join(outDir, 'icon.ico'), icoContainer(ICO_SIZES.map((size) => ({ size, png: png(size) }))));
  writeFileSync(join(outDir, 'icon.icns'), icnsContainer(ICNS_TYPES.map(([type, size]) => ({ type, png: png(size) }))));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await makeIcons();
  console.log(`icons written to ${resources}`);
}
