// A student joining a class: POST /join from the class's own page, with the class link's cookie and a JSON body
// {"name": "…"}; answered with the student's own cookie (never a token the page can read) and {"name"} as kept, or an
// error {code, message, details} naming the field. Joins are counted per address: a page or a script that floods
// them is answered 429 with the seconds to wait, and the class itself takes at most its number of students.
import type { IncomingMessage, ServerResponse } from 'node:http';

import { GpuLabError } from '../common/errors.ts';
import type { ErrorPayload } from '../common/errors.ts';
import { RequestRate } from './request-limits.ts';

// A name is 60 characters at most, 240 bytes in UTF-8; the rest of the JSON is a few bytes.
export const MAX_JOIN_BYTES = 4096;

export interface JoinLimits {
  // Joins one address may make at once, then per minute. A classroom behind one NAT address joins through it all
  // at once: the burst is a class's size, not one person's.
  burst: number;
  perMinute: number;
}

export const DEFAULT_JOIN_LIMITS: JoinLimits = { burst: 40, perMinute: 20 };
// Addresses remembered at most; past it, the fullest buckets (those idle longest) are forgotten first.
const MAX_ADDRESSES = 10_000;

export class JoinRate {
  private readonly buckets = new Map<string, RequestRate>();
  private readonly limits: JoinLimits;

  constructor(limits: JoinLimits = DEFAULT_JOIN_LIMITS) {
    this.limits = limits;
  }

  take(address: string): boolean {
    let bucket = this.buckets.get(address);
    if (!bucket) {
      if (this.buckets.size >= MAX_ADDRESSES) this.buckets.delete(this.buckets.keys().next().value ?? '');
      bucket = new RequestRate({ burst: this.limits.burst, perSecond: this.limits.perMinute / 60 });
      this.buckets.set(address, bucket);
    }
    return bucket.take();
  }

  // Seconds until the next join from an address that has none left.
  get retryAfterSeconds(): number {
    return Math.ceil(60 / this.limits.perMinute);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store', ...headers });
  res.end(text);
}

export function sendError(res: ServerResponse, status: number, error: ErrorPayload, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error }, headers);
}

// The name the body gives, or a GpuLabError (with the HTTP status in details.status) saying what is wrong with it.
export async function readJoinName(req: IncomingMessage): Promise<string> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new GpuLabError('INVALID_ARGUMENT', `A join is JSON {"name": "…"} sent as application/json, not ${JSON.stringify(type.slice(0, 80))}`, { field: 'body', status: 415 });
  }
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > MAX_JOIN_BYTES) throw tooLarge(declared);
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of req) {
    bytes += (chunk as Buffer).length;
    if (bytes > MAX_JOIN_BYTES) throw tooLarge(bytes);
    chunks.push(chunk as Buffer);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new GpuLabError('INVALID_ARGUMENT', 'A join is JSON {"name": "…"}; this body is not JSON', { field: 'body', status: 400 });
  }
  const name = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>).name : undefined;
  if (typeof name !== 'string') throw new GpuLabError('INVALID_ARGUMENT', '`name` is missing: a join is JSON {"name": "your name"}', { field: 'name', status: 400 });
  return name;
}

function tooLarge(bytes: number): GpuLabError {
  return new GpuLabError('INVALID_ARGUMENT', `A join holds a name of at most 60 characters; this request holds ${bytes} bytes or more (at most ${MAX_JOIN_BYTES})`, {
    field: 'name',
    bytes,
    status: 413,
  });
}
