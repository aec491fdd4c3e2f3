// Serve mode's transport over a stand-in WebSocket: calls made before the link is up wait for it; answers find their
// call by id; events reach their listeners; when the link drops, a call that was sent fails as DISCONNECTED (it may or
// may not have run) while one not yet sent waits for the reconnect; the state is reported at each change.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { ConnectionState } from '../../../../renderer/api/transport.ts';
import { websocketTransport } from '../../../../renderer/api/websocket-transport.ts';

class FakeSocket {
  static readonly OPEN = 1;
  static sockets: FakeSocket[] = [];
  readonly OPEN = 1;
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  readonly url: string;
  constructor(url: string) {
    this.url = url;
    FakeSocket.sockets.push(this);
  }
  send(text: string): void {
    this.sent.push(text);
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(frame: unknown): void {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  drop(): void {
    this.readyState = 3;
    this.onclose?.();
  }
}

beforeEach(() => {
  FakeSocket.sockets = [];
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

function start() {
  const states: ConnectionState[] = [];
  const transport = websocketTransport({ url: 'ws://127.0.0.1:1/api', WebSocketImpl: FakeSocket as unknown as typeof WebSocket, retryDelaysMs: [100] });
  transport.onState((s) => states.push(s));
  const socket = (): FakeSocket => {
    const s = FakeSocket.sockets.at(-1);
    if (!s) throw new Error('no socket');
    return s;
  };
  return { transport, states, socket };
}

describe('the WebSocket transport', () => {
  it('sends calls made before the link is up once it opens, and matches answers by id', async () => {
    const { transport, socket } = start();
    const first = transport.call('labs.listLabs', []);
    const second = transport.call('runs.getRun', ['r1']);
    expect(socket().sent).toEqual([]);
    socket().open();
    const frames = socket().sent.map((t) => JSON.parse(t) as { id: number; method: string; args: unknown[] });
    expect(frames.map((f) => [f.method, f.args])).toEqual([['labs.listLabs', []], ['runs.getRun', ['r1']]]);
    // Answered out of order.
    socket().receive({ id: frames[1]?.id, ok: false, error: { code: 'NOT_FOUND', message: 'No run r1' } });
    socket().receive({ id: frames[0]?.id, ok: true, value: ['lab'] });
    expect(await first).toEqual({ ok: true, value: ['lab'] });
    expect(await second).toEqual({ ok: false, error: { code: 'NOT_FOUND', message: 'No run r1' } });
  });

  it('delivers events to their listeners', () => {
    const { transport, socket } = start();
    const seen: unknown[] = [];
    const stop = transport.on('runs.onDidChangeRun', (p) => seen.push(p));
    socket().open();
    socket().receive({ event: 'runs.onDidChangeRun', payload: { kind: 'progress' } });
    stop();
    socket().receive({ event: 'runs.onDidChangeRun', payload: { kind: 'point' } });
    expect(seen).toEqual([{ kind: 'progress' }]);
  });

  it('fails a sent call as DISCONNECTED when the link drops, keeps an unsent one for the reconnect, and reports each state', async () => {
    const { transport, states, socket } = start();
    socket().open();
    const inFlight = transport.call('runs.startRun', [{ lab: 'matmul' }]);
    const dropped = socket();
    dropped.drop();
    expect(await inFlight).toMatchObject({ ok: false, error: { code: 'DISCONNECTED' } });
    const later = transport.call('labs.listLabs', []);
    expect(transport.state).toBe('closed');
    await vi.advanceTimersByTimeAsync(100);
    const fresh = socket();
    expect(fresh).not.toBe(dropped);
    fresh.open();
    const frame = JSON.parse(fresh.sent[0] ?? '{}') as { id: number; method: string };
    expect(frame.method).toBe('labs.listLabs');
    fresh.receive({ id: frame.id, ok: true, value: [] });
    expect(await later).toEqual({ ok: true, value: [] });
    expect(states).toEqual(['open', 'closed', 'connecting', 'open']);
  });
});
