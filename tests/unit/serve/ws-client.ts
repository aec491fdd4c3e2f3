// A WebSocket client of a serve-mode server as the app's page is one: the token in the query, the server's own
// origin. Frames are queued as they arrive; the close code is kept.
import WebSocket from 'ws';

export interface ApiClient {
  ws: WebSocket;
  // The next frame, or null once the socket has closed without one.
  next(): Promise<Record<string, unknown> | null>;
  // The close code once the socket has closed.
  closed: Promise<number>;
}

export async function openApiSocket(port: number, token: string): Promise<ApiClient> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api?token=${token}`, { origin: `http://127.0.0.1:${port}` });
  const frames: (Record<string, unknown> | null)[] = [];
  const waiting: ((frame: Record<string, unknown> | null) => void)[] = [];
  const deliver = (frame: Record<string, unknown> | null): void => {
    const waiter = waiting.shift();
    if (waiter) waiter(frame);
    else frames.push(frame);
  };
  ws.on('message', (data) => deliver(JSON.parse(String(data)) as Record<string, unknown>));
  const closed = new Promise<number>((resolve) =>
    ws.on('close', (code) => {
      resolve(code);
      // Whoever waits for a frame learns there will be none.
      for (const waiter of waiting.splice(0)) waiter(null);
      frames.push(null);
    }),
  );
  ws.on('error', () => undefined);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`WebSocket refused: ${res.statusCode ?? 0}`)));
  });
  const next = (): Promise<Record<string, unknown> | null> => {
    if (frames.length > 0) {
      const frame = frames[0] ?? null;
      // The close marker stays for every later call.
      if (frame !== null) frames.shift();
      return Promise.resolve(frame);
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  return { ws, next, closed };
}

let lastId = 0;
// One request and its answer, matched by id; a request past the server's rate limit is sent again a moment later.
export async function call(client: ApiClient, method: string, args: unknown[]): Promise<Record<string, unknown>> {
  for (;;) {
    const id = ++lastId;
    client.ws.send(JSON.stringify({ id, method, args }));
    let frame: Record<string, unknown> | null;
    do {
      frame = await client.next();
      if (frame === null) throw new Error('the server closed the socket');
    } while (frame.id !== id);
    if ((frame.error as { code?: string } | undefined)?.code !== 'RATE_LIMITED') return frame;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
