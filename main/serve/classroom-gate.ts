// The gate of a class's server. Three cookies, each set from a link and never readable by a page: the teacher's (the
// teacher's link), a student's (after joining) and the class link's (before joining). One browser may hold the
// teacher's and a student's at once; a page says which it is: a student's pages are at /?as=student (the class link
// leads there), and so is its WebSocket (/api?as=student). Anything else is the teacher's. The WebSocket also takes
// a token in the query, as the link's, for scripts and tests.
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Classroom, Seat } from '../classroom/classroom.ts';
import type { Disposable } from '../common/contract/spec.ts';
import { GpuLabError } from '../common/errors.ts';
import { cookieToken, originAllowed, queryToken, tokenCookie } from './access.ts';
import type { Gate, GateContext, Visitor } from './gate.ts';
import { JoinRate, readJoinName, sendError, sendJson } from './join-request.ts';
import type { JoinLimits } from './join-request.ts';

export const STUDENT_PAGE = '/?as=student';

function keyOf(seat: Seat): string {
  return seat.role === 'student' ? `student:${seat.id}` : seat.role;
}

export function classroomGate(classroom: Classroom, options: { joinLimits?: JoinLimits; log?: (line: string) => void } = {}): Gate {
  const joins = new JoinRate(options.joinLimits);
  const log = options.log ?? (() => undefined);
  const fromCookie = (req: IncomingMessage, ctx: GateContext, as: 'teacher' | 'student' | 'class'): Seat | null => classroom.seatOf(cookieToken(req, ctx.port, as), as);
  const fromQuery = (url: URL): Seat | null => {
    const token = queryToken(url);
    return classroom.seatOf(token, 'teacher') ?? classroom.seatOf(token, 'student') ?? classroom.seatOf(token, 'class');
  };
  const isStudentPage = (url: URL): boolean => url.searchParams.get('as') === 'student';

  const join = async (req: IncomingMessage, res: ServerResponse, ctx: GateContext): Promise<void> => {
    if (!originAllowed(req.headers.origin, req.headers.host, ctx.secure)) {
      sendError(res, 403, { code: 'FORBIDDEN', message: 'A join must come from the class page of this server' });
      return;
    }
    if (!fromCookie(req, ctx, 'class')) {
      sendError(res, 401, { code: 'FORBIDDEN', message: 'Open the class link the teacher gave first: it is what lets you join' });
      return;
    }
    const address = req.socket.remoteAddress ?? '?';
    if (!joins.take(address)) {
      log(`refused a join from ${address}: too many joins from it`);
      sendError(res, 429, { code: 'RATE_LIMITED', message: `Too many joins from this address; try again in ${joins.retryAfterSeconds} s`, details: { limit: 'joins per address' } }, {
        'Retry-After': String(joins.retryAfterSeconds),
      });
      return;
    }
    try {
      const joined = await classroom.join(await readJoinName(req));
      res.setHeader('Set-Cookie', tokenCookie(joined.token, ctx.port, ctx.secure, 'student'));
      sendJson(res, 200, { name: joined.name });
    } catch (err) {
      const e = GpuLabError.from(err);
      const status = typeof e.details?.status === 'number' ? e.details.status : e.code === 'RATE_LIMITED' ? 429 : e.code === 'INVALID_ARGUMENT' ? 400 : 500;
      const { status: _status, ...details } = e.details ?? {};
      sendError(res, status, { code: e.code, message: e.message, details });
    }
  };

  const revokedListeners = new Set<(key: string) => void>();
  const removal = classroom.onDidRemoveStudent((id) => {
    for (const l of revokedListeners) l(`student:${id}`);
  });

  return {
    allowsPage: (req, url, ctx) => Boolean(fromCookie(req, ctx, 'teacher') ?? fromCookie(req, ctx, 'student') ?? fromCookie(req, ctx, 'class') ?? fromQuery(url)),

    fromLink(url, ctx) {
      const token = queryToken(url);
      if (classroom.seatOf(token, 'teacher') && token) return { cookie: tokenCookie(token, ctx.port, ctx.secure, 'teacher'), location: url.pathname };
      if (classroom.seatOf(token, 'student') && token) return { cookie: tokenCookie(token, ctx.port, ctx.secure, 'student'), location: STUDENT_PAGE };
      const classLink = url.searchParams.get('class');
      if (classroom.seatOf(classLink, 'class') && classLink) return { cookie: tokenCookie(classLink, ctx.port, ctx.secure, 'class'), location: STUDENT_PAGE };
      return null;
    },

    // The app's address without ?as=student, opened by a browser that is a student's (or holds the class link) and
    // not the teacher's: the student's pages.
    redirect(req, url, ctx) {
      if (url.pathname !== '/' || isStudentPage(url) || fromCookie(req, ctx, 'teacher')) return null;
      return fromCookie(req, ctx, 'student') || fromCookie(req, ctx, 'class') ? STUDENT_PAGE : null;
    },

    visitor(req, url, ctx): Visitor | null {
      const seat = fromQuery(url) ?? (isStudentPage(url) ? (fromCookie(req, ctx, 'student') ?? fromCookie(req, ctx, 'class')) : fromCookie(req, ctx, 'teacher'));
      return seat ? { api: classroom.apiFor(seat), key: keyOf(seat) } : null;
    },

    async handle(req, res, url, ctx) {
      if (url.pathname !== '/join') return false;
      if (req.method !== 'POST') {
        res.setHeader('Allow', 'POST');
        sendError(res, 405, { code: 'INVALID_ARGUMENT', message: 'A join is a POST' });
        return true;
      }
      await join(req, res, ctx);
      return true;
    },

    onRevoked(listener): Disposable {
      revokedListeners.add(listener);
      return { dispose: () => revokedListeners.delete(listener) };
    },

    links: (origin) => ({ teacher: `${origin}/?token=${classroom.teacherToken}`, class: `${origin}/?class=${classroom.classToken}` }),

    dispose: () => removal.dispose(),
  };
}
