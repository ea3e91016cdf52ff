import { canonicalIp } from '@ipdata/common/ip';

/** One TTL of a trace as traceroute printed it. */
export interface TraceHop {
  /** 1-based TTL. */
  ttl: number;
  /** The first address that answered; empty when every probe was lost ("*"). */
  ip: string;
  /** Further addresses that answered probes of this TTL (load-balanced paths), in the order seen. */
  otherIps: string[];
  /** Round-trip times of the answered probes, in milliseconds. */
  rttMs: number[];
  sent: number;
  lost: number;
  /** ICMP error annotations ("!H", "!N", "!X", "!F-1500", ...), each once, in the order seen. */
  annotations: string[];
}

/** TTLs traceroute can print (its -m limit is 255). */
const MAX_TTL = 255;
const TTL = /^\d{1,3}$/;
// "0.412" then "ms": traceroute prints `  %.3f ms` per answered probe.
const RTT = /^\d{1,7}(?:\.\d{1,6})?$/;
// "!H", "!N", "!P", "!S", "!X", "!V", "!C", "!F-1500", "!<code>": traceroute's err_str values.
const ANNOTATION = /^![A-Z0-9][A-Z0-9-]{0,9}$/;

/**
 * Parses one line of Debian's traceroute (the "modern traceroute for Linux") printed with `-n`:
 * `%2u ` TTL, then per probe ` *` when it was lost, or ` <address>` when the address differs from
 * the previous answer of the line, `  <rtt> ms`, and ` !X` when an ICMP error came back. The
 * header ("traceroute to ...") and anything that is not a hop line answer undefined. Addresses
 * go through the project's IP module (canonical text); a token that is no address, RTT, `*`,
 * `ms` or annotation (e.g. `<MPLS:...>` with -e, which the worker never passes) is skipped.
 */
export function parseHopLine(line: string): TraceHop | undefined {
  const tokens = line.trim().split(/\s+/);
  const first = tokens[0];
  if (first === undefined || !TTL.test(first)) return undefined;
  const ttl = Number(first);
  if (ttl < 1 || ttl > MAX_TTL || tokens.length < 2) return undefined;

  const hop: TraceHop = { ttl, ip: '', otherIps: [], rttMs: [], sent: 0, lost: 0, annotations: [] };
  let current = '';
  for (let i = 1; i < tokens.length; i++) {
    const token = tokens[i] as string;
    if (token === '*') {
      hop.sent++;
      hop.lost++;
    } else if (RTT.test(token) && tokens[i + 1] === 'ms') {
      hop.sent++;
      hop.rttMs.push(Number(token));
      if (current !== '') answeredBy(hop, current);
      i++;
    } else if (ANNOTATION.test(token)) {
      if (!hop.annotations.includes(token)) hop.annotations.push(token);
    } else {
      // Without -n traceroute prints "name (address)": accept the parenthesised form as well.
      const address = canonicalIp(token.startsWith('(') && token.endsWith(')') ? token.slice(1, -1) : token);
      if (address !== undefined) current = address.text;
    }
  }
  return hop.sent > 0 ? hop : undefined;
}

function answeredBy(hop: TraceHop, address: string): void {
  if (hop.ip === '') hop.ip = address;
  else if (hop.ip !== address && !hop.otherIps.includes(address)) hop.otherIps.push(address);
}

/**
 * Cuts a byte stream into lines as it arrives (traceroute flushes after every probe, so a hop
 * line is complete when its newline came). A line longer than `maxLineLength` is dropped rather
 * than buffered without bound.
 */
export class LineSplitter {
  private pending = '';
  private overlong = false;

  constructor(private readonly maxLineLength = 4096) {}

  /** The lines completed by this chunk. */
  push(chunk: string): string[] {
    const parts = (this.pending + chunk).split('\n');
    this.pending = parts.pop() as string;
    const lines: string[] = [];
    for (const part of parts) {
      if (!this.overlong) lines.push(part.endsWith('\r') ? part.slice(0, -1) : part);
      this.overlong = false;
    }
    if (this.pending.length > this.maxLineLength) {
      this.pending = '';
      this.overlong = true;
    }
    return lines;
  }

  /** The last line when the stream ended without a newline. */
  end(): string[] {
    const rest = this.overlong ? '' : this.pending;
    this.pending = '';
    this.overlong = false;
    return rest === '' ? [] : [rest];
  }
}
