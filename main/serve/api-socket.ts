// The contract over one WebSocket: each text frame is a request {id, method, args}, answered by a frame with the
// same id and either the value or the error {code, message, details}; run events are pushed as {event, payload}.
// A frame that is not a request is answered with id null and an error naming what is wrong; the socket stays open.
import type { WebSocket } from 'ws';

import { dispatch } from '../common/api-dispatch.ts';
import type { ApiAnswerFrame, ApiEventFrame } from '../common/api-methods.ts';
import type { GpuLabApi } from '../common/contract.ts';
import { GpuLabError } from '../common/errors.ts';

// A slow client must not make the server hold every event in memory: past this much unsent data, progress events
// (which the next one supersedes) are dropped; points and run ends are always sent.
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

function parseRequest(data: string): { id: number; method: unknown; args: unknown } {
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
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
}

export function serveApiSocket(socket: WebSocket, api: GpuLabApi): void {
  const subscription = api.runs.onDidChangeRun((event) => {
    if (event.kind === 'progress' && socket.bufferedAmount > MAX_BUFFERED_BYTES) return;
    send(socket, { event: 'runs.onDidChangeRun', payload: event });
  });
  socket.on('close', () => subscription.dispose());
  socket.on('error', () => socket.terminate());
  socket.on('message', (data, isBinary) => {
    if (isBinary) {
      send(socket, { id: null, ok: false, error: { code: 'INVALID_ARGUMENT', message: 'Requests are JSON text frames, not binary ones' } });
      return;
    }
    let request: { id: number; method: unknown; args: unknown };
    try {
      request = parseRequest(data.toString());
    } catch (err) {
      send(socket, { id: null, ok: false, error: (err as GpuLabError).toPayload() });
      return;
    }
    void dispatch(api, request.method, request.args).then((answer) => send(socket, { id: request.id, ...answer }));
  });
}
