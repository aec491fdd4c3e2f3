// Serve mode: the built renderer over HTTP (or HTTPS) and the contract over one WebSocket (/api), for a browser on
// this machine or, through an SSH tunnel, on a GPU server without a display. Loopback only unless a host is named;
// every request needs a token a link carried (see access.ts for what each check stops): the one printed, or in a
// class (--classroom) the teacher's, a student's or the class link's, each giving its own API (gate.ts).
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Duplex } from 'node:stream';

import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';

import type { Classroom } from '../classroom/classroom.ts';
import type { GpuLabApi } from '../common/contract/index.ts';
import { hostAllowed, newToken, originAllowed } from './access.ts';
import type { HostPolicy } from './access.ts';
import { classroomGate } from './classroom-gate.ts';
import { soloGate } from './gate.ts';
import type { Gate, GateContext } from './gate.ts';
import type { JoinLimits } from './join-request.ts';
import { serveApiSocket } from './api-socket.ts';
import { DEFAULT_LIMITS, RunStartLimit } from './request-limits.ts';
import type { RequestLimits } from './request-limits.ts';
import { EncodedFiles } from './encoded-files.ts';
import { resolveStatic, securityHeaders, sendFile, sendText } from './static-files.ts';

export interface ServeOptions {
  api: GpuLabApi;
  // The built renderer (dist/web).
  staticDir: string;
  host?: string;
  // 0: any free port.
  port?: number;
  token?: string;
  log?: (line: string) => void;
  // Tests lower them; see request-limits.ts.
  limits?: Partial<RequestLimits>;
  // A class: the teacher, the students and the queue (main/classroom/); without one, `token` opens everything.
  classroom?: Classroom;
  joinLimits?: JoinLimits;
  // HTTPS with this certificate and key (PEM); plain HTTP without.
  tls?: { cert: string | Buffer; key: string | Buffer };
}

export interface RunningServer {
  url: string;
  // The address without the token, as a bookmark would hold it once the cookie is set.
  origin: string;
  port: number;
  token: string;
  // A class's link for its students (the teacher's is `url`); null without a class.
  classUrl: string | null;
  close(): Promise<void>;
}

// One request frame at most: a run request is a few hundred bytes; nothing the contract takes comes near this. A
// larger frame closes its WebSocket with 1009 (message too big) before it is read.
const MAX_FRAME_BYTES = 1024 * 1024;
// The app opens one WebSocket per tab; past this many, a page reconnecting in a loop is refused rather than served.
// A class has a tab or two per student.
const MAX_SOCKETS = 32;
const MAX_CLASS_SOCKETS = 1024;

const NEEDS_TOKEN = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>GPU Lab — link needed</title></head>
<body style="font-family:sans-serif;max-width:40em;margin:4em auto;line-height:1.5">
<h1>GPU Lab needs its link</h1>
<p>This server only answers the link it printed when it started, which carries a one-time token:
<code>http://127.0.0.1:PORT/?token=…</code>. Copy that whole line from the terminal where <code>gpu-lab serve</code>
(or <code>npm start</code>) is running.</p></body></html>`;

function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1';
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

function reject(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? newToken();
  const log = options.log ?? (() => undefined);
  const policy: HostPolicy = { port: 0, extraHosts: isLoopback(host) ? [] : host === '0.0.0.0' || host === '::' ? ['*'] : [host] };
  const limits: RequestLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const runStarts = new RunStartLimit(options.api, limits);
  const files = new EncodedFiles();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const gate: Gate = options.classroom ? classroomGate(options.classroom, { joinLimits: options.joinLimits, log }) : soloGate(options.api, token);
  const ctx: GateContext = { port: 0, secure: options.tls !== undefined };
  const maxSockets = options.classroom ? MAX_CLASS_SOCKETS : MAX_SOCKETS;
  // The sockets of each token's holder, closed at once when the token stops working.
  const socketsOf = new Map<string, Set<WebSocket>>();
  const revoked = gate.onRevoked?.((key) => {
    for (const socket of socketsOf.get(key) ?? []) socket.close(4401, 'removed from the class');
    socketsOf.delete(key);
  });

  const onRequest = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    securityHeaders(res);
    if (!hostAllowed(req.headers.host, policy)) {
      sendText(res, 421, 'This server does not answer to that host name.\n');
      return;
    }
    if (await gate.handle?.(req, res, new URL(req.url ?? '/', 'http://placeholder'), ctx)) return;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      sendText(res, 405, 'Only GET and HEAD.\n');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://placeholder');
    const link = gate.fromLink(url, ctx);
    if (link) {
      // The token moves into a cookie and out of the address bar, the history and any link copied from it.
      res.setHeader('Set-Cookie', link.cookie);
      res.writeHead(303, { Location: link.location, 'Cache-Control': 'no-store' });
      res.end();
      return;
    }
    if (!gate.allowsPage(req, url, ctx)) {
      sendText(res, 401, NEEDS_TOKEN, 'text/html; charset=utf-8');
      return;
    }
    const elsewhere = gate.redirect?.(req, url, ctx);
    if (elsewhere) {
      res.writeHead(303, { Location: elsewhere, 'Cache-Control': 'no-store' });
      res.end();
      return;
    }
    const file = await resolveStatic(options.staticDir, url.pathname);
    if (!file) {
      sendText(res, 404, 'Not found.\n');
      return;
    }
    await sendFile(req, res, options.staticDir, file, files);
  };

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    onRequest(req, res).catch(() => {
      if (!res.headersSent) sendText(res, 500, 'Internal error.\n');
      else res.destroy();
    });
  };
  const server: Server = options.tls ? createTlsServer({ cert: options.tls.cert, key: options.tls.key }, handler) : createServer(handler);

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = new URL(req.url ?? '/', 'http://placeholder');
    if (url.pathname !== '/api') return reject(socket, 404, 'Not Found');
    if (!hostAllowed(req.headers.host, policy)) return reject(socket, 421, 'Misdirected Request');
    if (!originAllowed(req.headers.origin, req.headers.host, ctx.secure)) {
      log(`refused a WebSocket from origin ${JSON.stringify(req.headers.origin ?? null)}`);
      return reject(socket, 403, 'Forbidden');
    }
    const visitor = gate.visitor(req, url, ctx);
    if (!visitor) {
      log('refused a WebSocket without the token');
      return reject(socket, 401, 'Unauthorized');
    }
    if (wss.clients.size >= maxSockets) {
      log(`refused a WebSocket: ${maxSockets} are open`);
      return reject(socket, 503, 'Service Unavailable');
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const mine = socketsOf.get(visitor.key) ?? new Set<WebSocket>();
      socketsOf.set(visitor.key, mine.add(ws));
      ws.on('close', () => mine.delete(ws));
      serveApiSocket(ws, visitor.api, { limits, runStarts });
    });
  };
  // A throw in an 'upgrade' listener is uncaught and would stop the server: whatever a handshake carries, it gets an
  // answer instead.
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    try {
      onUpgrade(req, socket, head);
    } catch {
      reject(socket, 400, 'Bad Request');
    }
  });

  await new Promise<void>((resolvePromise, rejectPromise) => {
    server.once('error', rejectPromise);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', rejectPromise);
      resolvePromise();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  policy.port = port;
  ctx.port = port;
  const origin = `${ctx.secure ? 'https' : 'http'}://${urlHost(isLoopback(host) ? '127.0.0.1' : host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host)}:${port}`;
  const links = gate.links(origin);
  return {
    url: links.teacher,
    origin,
    port,
    token: options.classroom?.teacherToken ?? token,
    classUrl: links.class,
    async close() {
      runStarts.dispose();
      revoked?.dispose();
      gate.dispose?.();
      for (const client of wss.clients) client.terminate();
      wss.close();
      const closed = new Promise<void>((done) => server.close(() => done()));
      server.closeAllConnections();
      await closed;
    },
  };
}
