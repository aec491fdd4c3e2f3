// Who may talk to a serve-mode server: a browser that holds the token printed with the URL (in the query once, then
// in a cookie the server sets), on a page of this server's own origin, addressed by a host name this server answers
// to. The token stops other users of the machine; the Origin check stops other web pages open in the same browser;
// the Host check stops a DNS-rebinding page that resolves its own name to 127.0.0.1.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

// Digests compared in constant time: how long the comparison takes says nothing of how much of a guess was right,
// nor of the token's length.
export function sameToken(given: string | null | undefined, token: string): boolean {
  if (typeof given !== 'string') return false;
  return timingSafeEqual(digest(given), digest(token));
}

// Cookies are shared by every port of a host name, so the name carries the port: two servers side by side keep
// their own tokens. A class's server keeps three kinds apart (the teacher's, a student's, the class link's), so that
// one browser may hold the teacher's and a student's at once.
export type CookieKind = 'token' | 'teacher' | 'student' | 'class';

export function cookieName(port: number, kind: CookieKind = 'token'): string {
  return `gpulab_${kind}_${port}`;
}

export function cookieToken(req: IncomingMessage, port: number, kind: CookieKind = 'token'): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  const name = cookieName(port, kind);
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      // Not valid percent-encoding, so not a cookie this server set.
      return null;
    }
  }
  return null;
}

// Secure over HTTPS: the browser then never sends it over plain HTTP.
export function tokenCookie(token: string, port: number, secure = false, kind: CookieKind = 'token'): string {
  return `${cookieName(port, kind)}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

export function queryToken(url: URL): string | null {
  return url.searchParams.get('token');
}

export interface HostPolicy {
  port: number;
  // Host names the server answers to besides the loopback ones (the --host given); '*' for any, when listening on
  // every interface, where the names the machine is reached by cannot be known.
  extraHosts: string[];
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

export function hostAllowed(hostHeader: string | undefined, policy: HostPolicy): boolean {
  if (!hostHeader) return false;
  if (policy.extraHosts.includes('*')) return true;
  const names = [...LOOPBACK_NAMES, ...policy.extraHosts.map((h) => (h.includes(':') && !h.startsWith('[') ? `[${h}]` : h))];
  return names.some((name) => hostHeader.toLowerCase() === `${name}:${policy.port}`.toLowerCase());
}

// A WebSocket (or a class's join) must come from a page this server served: the Origin is http://<the Host the
// browser asked for>, https:// where the server speaks HTTPS.
export function originAllowed(origin: string | undefined, hostHeader: string | undefined, secure = false): boolean {
  return origin !== undefined && hostHeader !== undefined && origin.toLowerCase() === `${secure ? 'https' : 'http'}://${hostHeader}`.toLowerCase();
}
