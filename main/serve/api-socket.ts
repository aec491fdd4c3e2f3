// The contract over one WebSocket: each text frame is a request {id, method, args}, answered by a frame with the
// same id and either the value or the error {code, message, details}; run events are pushed as {event, payload}.
// A frame that is not a request is answered with id null and an error naming what is wrong; a request past the
// limits (request-limits.ts) is answered RATE_LIMITED with its id. Every frame gets an answer; the socket stays open.
import type { WebSocket } from 'ws';

import { dispatch, subscribeEvents } from '../common/api-dispatch.ts';
import type { ApiEvent, GpuLabApi } from '../common/contract/index.ts';
import type { ApiAnswerFrame, ApiEventFrame, ApiResponse } from '../common/contract/wire.ts';
import { GpuLabError } from '../common/errors.ts';
import { MAX_ARGUMENT_NESTING, RequestRate, nestsDeeperThan, tooDeep } from './request-limits.ts';
import type { RequestLimits, RunStartLimit } from './request-limits.ts';

// A slow client must not make the server hold every event in memory: past this much unsent data, progress events
// (which the next one supersedes) are dropped; points and run ends are always sent.
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

function supersededByTheNext(event: ApiEvent, payload: unknown): boolean {
  return event === 'runs.onDidChangeRun' && (payload as { kind?: unknown }).kind === 'progress';
}

interface Request {
  id: number;
  method: unknown;
  args: unknown;
}

function parseRequest(data: string): Request {
  let frame: unknown;
  try {
    frame = JSON.parse(data);
  } catch {
    throw new GpuLabError('INVALID_ARGUMENT', 'A request must be JSON: {"id": <integer>, "method": "service.method", "args": [...]}');
  }
  if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) {
    throw new GpuLabError('INVALID_ARGUMENT', 'A request must be a JSON object {"id", "method", "args"}');
  }
  const { id, method, args } = frame as Record<string, unknown>;
  if (!Number.isSafeInteger(id) || (id as number) < 0) {
    throw new GpuLabError('INVALID_ARGUMENT', 'A request needs "id", a non-negative integer the answer repeats', { field: 'id' });
  }
  return { id: id as number, method, args: args ?? [] };
}

function send(socket: WebSocket, frame: ApiAnswerFrame | ApiEventFrame): void {
  if (socket.readyState !== socket.OPEN) return;
  let text: string;
  try {
    text = JSON.stringify(frame);
  } catch {
    // A value JSON cannot write (nested deeper than the stack, a cycle) must still leave an answer, not an
    // unhandled rejection that would stop the server. An event that cannot be written is dropped.
    if (!('id' in frame)) return;
    text = JSON.stringify({ id: frame.id, ok: false, error: { code: 'NATIVE_ERROR', message: 'The answer could not be written as JSON' } });
  }
  socket.send(text);
}

function refused(id: number, error: GpuLabError): ApiAnswerFrame {
  return { id, ok: false, error: error.toPayload() };
}

export interface ApiSocketOptions {
  limits: RequestLimits;
  // Shared by every socket of the server: runs are one queue, whoever starts them.
  runStarts: RunStartLimit;
}

async function answer(api: GpuLabApi, request: Request, runStarts: RunStartLimit): Promise<ApiResponse> {
  if (request.method !== 'runs.startRun') return dispatch(api, request.method, request.args);
  const refusal = runStarts.admit();
  if (refusal) return { ok: false, error: refusal.toPayload() };
  const started = await dispatch(api, request.method, request.args);
  const runId = started.ok ? (started.value as { runId?: unknown }).runId : null;
  runStarts.settle(typeof runId === 'string' ? runId : null);
  return started;
}

export function serveApiSocket(socket: WebSocket, api: GpuLabApi, options: ApiSocketOptions): void {
  const rate = new RequestRate(options.limits);
  let inFlight = 0;
  const subscription = subscribeEvents(api, (event, payload) => {
    if (supersededByTheNext(event, payload) && socket.bufferedAmount > MAX_BUFFERED_BYTES) return;
    send(socket, { event, payload });
  });
  socket.on('close', () => subscription.dispose());
  // A frame over the size limit is an error on which ws has already begun the closing handshake (1009): tearing the
  // socket down now would drop the close frame behind whatever answers are still queued, and the page would see 1006.
  // ws's own close timer ends a peer that never answers the handshake.
  socket.on('error', () => {
    if (socket.readyState !== socket.CLOSING) socket.terminate();
  });
  socket.on('message', (data, isBinary) => {
    if (isBinary) {
      send(socket, { id: null, ok: false, error: { code: 'INVALID_ARGUMENT', message: 'Requests are JSON text frames, not binary ones' } });
      return;
    }
    let request: Request;
    try {
      request = parseRequest(data.toString());
    } catch (err) {
      send(socket, { id: null, ok: false, error: GpuLabError.from(err).toPayload() });
      return;
    }
    if (!rate.take()) return send(socket, refused(request.id, rate.refusal()));
    // The method too: a name sent as a deeply nested list is quoted back in the refusal, by a walk that recursion
    // would run out of stack on.
    if (nestsDeeperThan([request.method, request.args], MAX_ARGUMENT_NESTING + 1)) return send(socket, refused(request.id, tooDeep(request.method)));
    if (inFlight >= options.limits.inFlight) {
      const error = new GpuLabError('RATE_LIMITED', `${options.limits.inFlight} requests of this connection are still being answered; this one was not run`, {
        limit: 'requests at once',
      });
      return send(socket, refused(request.id, error));
    }
    inFlight += 1;
    void answer(api, request, options.runStarts)
      // dispatch answers every failure itself; this keeps a bug of the limits from leaving a request unanswered.
      .catch((err: unknown) => ({ ok: false as const, error: GpuLabError.from(err).toPayload() }))
      .then((response) => {
        inFlight -= 1;
        send(socket, { id: request.id, ...response });
      });
  });
}
