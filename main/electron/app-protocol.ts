// app://gpu-lab/…: the renderer build served to the app's window, never file://. Only files under the renderer
// folder are answered (serve mode's resolveStatic confines the path), each with its content type and the same CSP as
// serve mode; anything else is 404. The renderer routes by hash, so every request names a real file.
import { readFile } from 'node:fs/promises';

import { CONTENT_SECURITY_POLICY, contentType, resolveStatic } from '../serve/static-files.ts';
import { APP_HOST } from './app-origin.ts';

const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
};

function notFound(): Response {
  return new Response('Not found', { status: 404, headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' } });
}

// The handler for protocol.handle('app', …), over the renderer build in `webRoot`.
export function appProtocolHandler(webRoot: string): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST || (request.method !== 'GET' && request.method !== 'HEAD')) return notFound();
    const file = await resolveStatic(webRoot, url.pathname);
    if (!file) return notFound();
    const headers = { ...SECURITY_HEADERS, 'Content-Type': contentType(file) };
    return new Response(request.method === 'HEAD' ? null : await readFile(file), { status: 200, headers });
  };
}
