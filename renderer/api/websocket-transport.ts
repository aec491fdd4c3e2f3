// The transport of serve mode: one WebSocket to /api on the page's own server (the token travels in the cookie the
// server set when the link was opened). Calls made while it is down wait for it; it reconnects with a growing delay,
// and calls in flight when it dropped fail as DISCONNECTED, since it cannot be known whether they ran.
import type { ApiEvent, ApiMethod } from '../../main/common/contract/index.ts';
import type { ApiAnswerFrame, ApiEventFrame, ApiResponse } from '../../main/common/contract/wire.ts';
import type { ConnectionState, Transport } from './transport.ts';

interface Pending {
  resolve: (response: ApiResponse) => void;
  frame: string;
  sent: boolean;
}

export interface WebSocketTransportOptions {
  url: string;
  // The WebSocket class (tests pass a fake).
  WebSocketImpl?: typeof WebSocket;
  retryDelaysMs?: number[];
}

export function websocketTransport(options: WebSocketTransportOptions): Transport {
  const Impl = options.WebSocketImpl ?? WebSocket;
  const delays = options.retryDelaysMs ?? [250, 500, 1000, 2000, 5000];
  const pending = new Map<number, Pending>();
  const listeners = new Map<ApiEvent, Set<(payload: unknown) => void>>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = 'connecting';
  let socket: WebSocket | null = null;
  let nextId = 1;
  let attempt = 0;

  const setState = (next: ConnectionState): void => {
    if (state === next) return;
    state = next;
    for (const l of stateListeners) l(next);
  };

  const flush = (): void => {
    for (const p of pending.values()) {
      if (!p.sent && socket?.readyState === Impl.OPEN) {
        socket.send(p.frame);
        p.sent = true;
      }
    }
  };

  const onFrame = (text: string): void => {
    let frame: ApiAnswerFrame | ApiEventFrame;
    try {
      frame = JSON.parse(text) as ApiAnswerFrame | ApiEventFrame;
    } catch {
      return;
    }
    if ('event' in frame) {
      for (const l of listeners.get(frame.event) ?? []) l(frame.payload);
      return;
    }
    if (frame.id === null) return;
    const p = pending.get(frame.id);
    if (!p) return;
    pending.delete(frame.id);
    const { id: _id, ...response } = frame;
    p.resolve(response as ApiResponse);
  };

  const connect = (): void => {
    setState('connecting');
    const ws = new Impl(options.url);
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      setState('open');
      flush();
    };
    ws.onmessage = (e: MessageEvent) => {
      if (typeof e.data === 'string') onFrame(e.data);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      for (const [id, p] of pending) {
        if (!p.sent) continue;
        pending.delete(id);
        p.resolve({ ok: false, error: { code: 'DISCONNECTED', message: 'The connection to GPU Lab dropped before it answered; try again' } });
      }
      setState('closed');
      const delay = delays[Math.min(attempt, delays.length - 1)] ?? 5000;
      attempt++;
      setTimeout(connect, delay);
    };
  };

  connect();
  return {
    call(method: ApiMethod, args: unknown[]) {
      const id = nextId++;
      return new Promise<ApiResponse>((resolve) => {
        pending.set(id, { resolve, frame: JSON.stringify({ id, method, args }), sent: false });
        flush();
      });
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => set.delete(listener);
    },
    get state() {
      return state;
    },
    onState(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
  };
}
