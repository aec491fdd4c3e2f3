// The built renderer over HTTP: files under one folder only (a path that leaves it is 404, never read), with the
// content types a browser needs, compressed where the browser takes it, cached by the browser as long as their names
// allow, and with the security headers every answer carries.
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, extname, join, relative, resolve, sep } from 'node:path';

import { negotiateEncoding } from './encoded-files.ts';
import type { ContentEncoding, EncodedFiles } from './encoded-files.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

// The page's policy as an HTTP header (the <meta> in index.html cannot say frame-ancestors). connect-src 'self'
// covers the page's own WebSocket.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

// The type of a file Vite writes into dist/web, for serve mode and the app:// protocol alike.
export function contentType(file: string): string {
  return CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
}

export function securityHeaders(res: ServerResponse): void {
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

export function sendText(res: ServerResponse, status: number, text: string, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store' });
  res.end(text);
}

// The file under `root` that a URL path names, or null when it names none (or tries to leave the folder).
export async function resolveStatic(root: string, urlPath: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const base = resolve(root);
  const file = resolve(join(base, decoded === '/' ? 'index.html' : decoded));
  if (file !== base && !file.startsWith(base + sep)) return null;
  try {
    return (await stat(file)).isFile() ? file : null;
  } catch {
    return null;
  }
}

// Text is worth compressing; images and fonts other than SVG come compressed already (PNG, WOFF2).
function compressible(type: string): boolean {
  return type.startsWith('text/') || type.startsWith('application/json') || type === 'image/svg+xml';
}

// Vite names what it emits into assets/ by a hash of the content (`index-SQwB9H2v.js`): under such a name the bytes
// never change, and a browser may keep them a year without asking again. Anything else, the page first, is asked
// for again on every load, so that a new build is seen at once.
function cacheControl(root: string, file: string): string {
  const path = relative(resolve(root), file).split(sep);
  const hashed = path.length === 2 && path[0] === 'assets' && /-[\w-]{8}\.[a-z0-9]+$/i.test(basename(file));
  return hashed ? 'public, max-age=31536000, immutable' : 'no-cache';
}

// `file`, found under `root` by resolveStatic, in the encoding the request accepts.
export async function sendFile(req: IncomingMessage, res: ServerResponse, root: string, file: string, files: EncodedFiles): Promise<void> {
  const type = contentType(file);
  const headers: Record<string, string | number> = { 'Content-Type': type, 'Cache-Control': cacheControl(root, file) };
  let wanted: ContentEncoding = 'identity';
  if (compressible(type)) {
    // The answer depends on the request's Accept-Encoding: a cache between the two must keep one copy per value.
    headers.Vary = 'Accept-Encoding';
    wanted = negotiateEncoding(req.headers['accept-encoding']);
  }
  const { bytes, encoding } = await files.read(file, wanted);
  if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
  headers['Content-Length'] = bytes.length;
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}
