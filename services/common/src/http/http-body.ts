import type { IncomingMessage, ServerResponse } from 'node:http';
import { InvalidArgumentError } from '../errors/domain-errors.js';

export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;

/** The limit of the HttpServer that received the request (set by the server for readBody's default). */
const bodyLimits = new WeakMap<IncomingMessage, number>();

export function setBodyLimit(request: IncomingMessage, limitBytes: number): void {
  bodyLimits.set(request, limitBytes);
}

/**
 * A body over the limit: an invalid argument for every other mapper, 413 Payload Too Large over
 * HTTP (HttpServer answers it and closes the connection instead of reading the rest).
 */
export class BodyTooLargeError extends InvalidArgumentError {
  constructor(readonly limitBytes: number) {
    super(`request body larger than ${limitBytes} bytes`, { reason: 'body_too_large' });
    this.name = 'BodyTooLargeError';
  }
}

/**
 * The raw body (signatures are computed over the exact bytes). Stops reading at the limit: the
 * server's `bodyLimitBytes` unless given, refused at once when Content-Length already says so.
 */
export async function readBody(request: IncomingMessage, limitBytes?: number): Promise<Buffer> {
  const limit = limitBytes ?? bodyLimits.get(request) ?? DEFAULT_BODY_LIMIT_BYTES;
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) throw new BodyTooLargeError(limit);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** The body parsed as JSON; malformed JSON is an InvalidArgumentError (400). */
export async function readJson(request: IncomingMessage, limitBytes?: number): Promise<unknown> {
  const body = await readBody(request, limitBytes);
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    throw new InvalidArgumentError('request body is not valid JSON', { reason: 'malformed_json' });
  }
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

export function sendHtml(response: ServerResponse, status: number, html: string): void {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  response.end(html);
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an HTML element or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}
