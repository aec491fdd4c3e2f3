// The renderer's files as serve mode sends them: in the encoding the browser takes (brotli, else gzip, else as they
// are), each file read and compressed once and kept in memory. The build does not change while it is served, and the
// whole of it is about 1 MB; a file that does change on disk (a rebuild under a running server) is read again.
import { stat, readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export type ContentEncoding = 'br' | 'gzip' | 'identity';

// Brotli before gzip where the browser likes both the same: the smaller for the same work.
const OFFERED: readonly Exclude<ContentEncoding, 'identity'>[] = ['br', 'gzip'];

// Quality 5: 32 % of the build's size in 40 ms of CPU, where the default 11 takes 2 s for 30 % (measured on the
// built renderer). The first page load waits for it, and a GPU server may be measuring on its cores meanwhile.
const BROTLI_QUALITY = 5;

const compress: Record<Exclude<ContentEncoding, 'identity'>, (bytes: Buffer) => Promise<Buffer>> = {
  br: (bytes) => promisify(brotliCompress)(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
  gzip: (bytes) => promisify(gzip)(bytes),
};

// The q of each coding the Accept-Encoding header names (RFC 9110, 12.5.3); `*` stands for any coding not named.
function qualities(header: string): Map<string, number> {
  const named = new Map<string, number>();
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!coding) continue;
    const q = params.find((p) => p.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    named.set(coding, Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 0);
  }
  return named;
}

// The encoding a response takes: of brotli and gzip, the one the client weighs highest (q > 0); else the bytes as
// they are, which every client takes.
export function negotiateEncoding(acceptEncoding: string | undefined): ContentEncoding {
  if (!acceptEncoding) return 'identity';
  const named = qualities(acceptEncoding);
  let best: ContentEncoding = 'identity';
  let bestQ = 0;
  for (const coding of OFFERED) {
    const q = named.get(coding) ?? named.get('*') ?? 0;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best;
}

interface CachedFile {
  // The size and modification time it was read at: another means the file changed.
  version: string;
  raw: Promise<Buffer>;
  encoded: Map<Exclude<ContentEncoding, 'identity'>, Promise<Buffer>>;
}

export class EncodedFiles {
  private readonly files = new Map<string, CachedFile>();

  // `file` in `encoding`, or as it is where compressing it would not make it smaller (a tiny file, or one already
  // compressed), with the encoding it is in.
  async read(file: string, encoding: ContentEncoding): Promise<{ bytes: Buffer; encoding: ContentEncoding }> {
    const info = await stat(file);
    const version = `${info.size}:${info.mtimeMs}`;
    let cached = this.files.get(file);
    if (cached?.version !== version) {
      cached = { version, raw: readFile(file), encoded: new Map() };
      this.files.set(file, cached);
    }
    const entry = cached;
    const raw = await entry.raw.catch((err: unknown) => {
      // Not kept: a file that could not be read is tried again on the next request.
      if (this.files.get(file) === entry) this.files.delete(file);
      throw err;
    });
    if (encoding === 'identity') return { bytes: raw, encoding };
    let encoded = entry.encoded.get(encoding);
    if (!encoded) {
      encoded = compress[encoding](raw);
      entry.encoded.set(encoding, encoded);
    }
    const bytes = await encoded;
    return bytes.length < raw.length ? { bytes, encoding } : { bytes: raw, encoding: 'identity' };
  }
}
