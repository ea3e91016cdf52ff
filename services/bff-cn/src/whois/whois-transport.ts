import { connect } from 'node:net';

/** Why one WHOIS exchange gave no answer; the service words it in Chinese. */
export type WhoisFailure = 'timeout' | 'unreachable' | 'too_large';

export class WhoisExchangeError extends Error {
  constructor(
    readonly failure: WhoisFailure,
    readonly server: string,
  ) {
    super(`whois ${failure} at ${server}`);
    this.name = 'WhoisExchangeError';
  }
}

export interface WhoisExchangeOptions {
  /** Connect plus the whole answer, in milliseconds: a server that trickles bytes is cut off too. */
  readonly timeoutMs: number;
  /** Larger answers are refused (the socket is destroyed once the cap is passed, nothing more is read). */
  readonly maxBytes: number;
}

/**
 * One RFC 3912 exchange: connect, send the query and CRLF, read until the server closes. Plain
 * node:net (no shell, no whois binary); the query is sent as given, so callers pass only
 * validated text (an ASCII domain name or a canonical address).
 */
export function whoisExchange(host: string, port: number, query: string, options: WhoisExchangeOptions): Promise<string> {
  const server = `${host}:${port}`;
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const socket = connect({ host, port });
    const finish = (outcome: { text: string } | { failure: WhoisFailure }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if ('text' in outcome) resolve(outcome.text);
      else reject(new WhoisExchangeError(outcome.failure, server));
    };
    const timer = setTimeout(() => finish({ failure: 'timeout' }), options.timeoutMs);
    socket.on('connect', () => socket.end(`${query}\r\n`));
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > options.maxBytes) {
        finish({ failure: 'too_large' });
        return;
      }
      chunks.push(chunk);
    });
    socket.on('end', () => finish({ text: Buffer.concat(chunks).toString('utf8') }));
    socket.on('close', () => finish({ text: Buffer.concat(chunks).toString('utf8') }));
    socket.on('error', () => finish({ failure: 'unreachable' }));
  });
}
