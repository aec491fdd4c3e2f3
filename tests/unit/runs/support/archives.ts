// Archives written byte by byte, as an attacker would write them: tar headers with any name, type, link target or
// size, and zips with any name, Unix mode, method and declared size (a liar's included), central directory entries
// that point at one local file again and again. No archiver would make most of these; the import must survive them.
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';

export interface TarEntry {
  name: string;
  // '0' file, '1' hard link, '2' symbolic link, '3' character device, '4' block device, '5' folder, '6' FIFO.
  type?: '0' | '1' | '2' | '3' | '4' | '5' | '6';
  body?: Buffer;
  link?: string;
  // The size the header declares, where it is not the body's.
  size?: number;
}

function field(block: Buffer, at: number, width: number, text: string): void {
  block.write(text.slice(0, width), at, 'latin1');
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

export function tarHeader(entry: TarEntry): Buffer {
  const block = Buffer.alloc(512);
  field(block, 0, 100, entry.name);
  field(block, 100, 8, octal(0o644, 8));
  field(block, 108, 8, octal(0, 8));
  field(block, 116, 8, octal(0, 8));
  field(block, 124, 12, octal(entry.size ?? entry.body?.length ?? 0, 12));
  field(block, 136, 12, octal(1_700_000_000, 12));
  field(block, 148, 8, '        ');
  field(block, 156, 1, entry.type ?? '0');
  field(block, 157, 100, entry.link ?? '');
  field(block, 257, 6, 'ustar\0');
  field(block, 263, 2, '00');
  let sum = 0;
  for (const byte of block) sum += byte;
  field(block, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

function padded(body: Buffer): Buffer {
  const rest = body.length % 512;
  return rest === 0 ? body : Buffer.concat([body, Buffer.alloc(512 - rest)]);
}

export function tar(entries: readonly TarEntry[], end = true): Buffer {
  const parts = entries.flatMap((e) => [tarHeader(e), padded(e.body ?? Buffer.alloc(0))]);
  return Buffer.concat([...parts, ...(end ? [Buffer.alloc(1024)] : [])]);
}

export function tarGz(entries: readonly TarEntry[]): Buffer {
  return gzipSync(tar(entries));
}

export interface ZipEntry {
  name: string;
  body?: Buffer;
  // The Unix mode, type bits included (0o120777: a symbolic link); written by "Unix" (version made by 3).
  mode?: number;
  method?: 0 | 8;
  // The uncompressed size both headers declare, where it is not the body's.
  declaredSize?: number;
  encrypted?: boolean;
}

interface Written {
  entry: ZipEntry;
  offset: number;
  compressed: Buffer;
  crc: number;
}

function localHeader(w: Written, name: Buffer): Buffer {
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(0x800 | (w.entry.encrypted ? 1 : 0), 6);
  h.writeUInt16LE(w.entry.method ?? 8, 8);
  h.writeUInt16LE(0, 10);
  h.writeUInt16LE(0x21, 12);
  h.writeUInt32LE(w.crc, 14);
  h.writeUInt32LE(w.compressed.length, 18);
  h.writeUInt32LE(w.entry.declaredSize ?? w.entry.body?.length ?? 0, 22);
  h.writeUInt16LE(name.length, 26);
  h.writeUInt16LE(0, 28);
  return Buffer.concat([h, name]);
}

function centralHeader(w: Written, name: Buffer): Buffer {
  const h = Buffer.alloc(46);
  h.writeUInt32LE(0x02014b50, 0);
  h.writeUInt16LE((3 << 8) | 20, 4);
  h.writeUInt16LE(20, 6);
  h.writeUInt16LE(0x800 | (w.entry.encrypted ? 1 : 0), 8);
  h.writeUInt16LE(w.entry.method ?? 8, 10);
  h.writeUInt16LE(0, 12);
  h.writeUInt16LE(0x21, 14);
  h.writeUInt32LE(w.crc, 16);
  h.writeUInt32LE(w.compressed.length, 20);
  h.writeUInt32LE(w.entry.declaredSize ?? w.entry.body?.length ?? 0, 24);
  h.writeUInt16LE(name.length, 28);
  h.writeUInt32LE(((w.entry.mode ?? 0o100644) << 16) >>> 0, 38);
  h.writeUInt32LE(w.offset, 42);
  return Buffer.concat([h, name]);
}

function endOfDirectory(count: number, size: number, offset: number): Buffer {
  const e = Buffer.alloc(22);
  e.writeUInt32LE(0x06054b50, 0);
  e.writeUInt16LE(count, 8);
  e.writeUInt16LE(count, 10);
  e.writeUInt32LE(size, 12);
  e.writeUInt32LE(offset, 16);
  return e;
}

// `repeat`: the central directory lists the last entry that many times more, each pointing at its one local file
// (the overlapping zip bomb: a few kilobytes that inflate without end).
export function zip(entries: readonly ZipEntry[], repeat = 0): Buffer {
  const locals: Buffer[] = [];
  const written: Written[] = [];
  let offset = 0;
  for (const entry of entries) {
    const body = entry.body ?? Buffer.alloc(0);
    const compressed = (entry.method ?? 8) === 8 ? deflateRawSync(body) : body;
    const w = { entry, offset, compressed, crc: crc32(body) };
    const local = Buffer.concat([localHeader(w, Buffer.from(entry.name, 'utf8')), compressed]);
    locals.push(local);
    written.push(w);
    offset += local.length;
  }
  const last = written.at(-1);
  const listed = last ? [...written, ...Array.from({ length: repeat }, () => last)] : written;
  const central = Buffer.concat(listed.map((w, i) => centralHeader(w, Buffer.from(i < written.length ? w.entry.name : `copy-${i}-${w.entry.name}`, 'utf8'))));
  return Buffer.concat([...locals, central, endOfDirectory(listed.length, central.length, offset)]);
}
