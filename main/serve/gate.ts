// Who gets in, and as whom: the server asks its gate. Alone (soloGate) one token, printed with the link, opens the
// app and its whole API; a class's gate (classroom-gate.ts) tells the teacher, each student and a browser that holds
// the class link apart, each with a cookie of their own, and gives each the API of their seat.
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { GpuLabApi } from '../common/contract/index.ts';
import type { Disposable } from '../common/contract/spec.ts';
import { cookieToken, queryToken, sameToken, tokenCookie } from './access.ts';

export interface GateContext {
  port: number;
  // Whether the server speaks HTTPS: its cookies are then Secure.
  secure: boolean;
}

export interface Visitor {
  api: GpuLabApi;
  // Whose token it is: the sockets of a key are closed when its token stops working.
  key: string;
}

export interface Gate {
  // Whether a page or a file may be served to this request.
  allowsPage(req: IncomingMessage, url: URL, ctx: GateContext): boolean;
  // The cookie a link's token (in the query) becomes, and where the browser goes next; null where the query holds no
  // token of this server.
  fromLink(url: URL, ctx: GateContext): { cookie: string; location: string } | null;
  // Where a page request is sent instead (a student's browser opening the teacher's pages); null to serve it.
  redirect?(req: IncomingMessage, url: URL, ctx: GateContext): string | null;
  // The WebSocket's visitor, or null: refused.
  visitor(req: IncomingMessage, url: URL, ctx: GateContext): Visitor | null;
  // Requests the gate answers itself (a class's join); false where the request is not one of them.
  handle?(req: IncomingMessage, res: ServerResponse, url: URL, ctx: GateContext): Promise<boolean>;
  // Told the key of a token that has stopped working (a student removed from the class).
  onRevoked?(listener: (key: string) => void): Disposable;
  // The links to print: the first is the one that opens everything.
  links(origin: string): { teacher: string; class: string | null };
  dispose?(): void;
}

export function soloGate(api: GpuLabApi, token: string): Gate {
  const holds = (req: IncomingMessage, url: URL, ctx: GateContext): boolean => sameToken(cookieToken(req, ctx.port), token) || sameToken(queryToken(url), token);
  return {
    allowsPage: holds,
    fromLink: (url, ctx) => (sameToken(queryToken(url), token) ? { cookie: tokenCookie(token, ctx.port, ctx.secure), location: url.pathname } : null),
    visitor: (req, url, ctx) => (holds(req, url, ctx) ? { api, key: 'solo' } : null),
    links: (origin) => ({ teacher: `${origin}/?token=${token}`, class: null }),
  };
}
