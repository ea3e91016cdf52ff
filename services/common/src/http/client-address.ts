import type { IncomingMessage } from 'node:http';
import { canonicalIp, mappedIpv4, parseIpv4, parseIpv6 } from '../ip/index.js';

interface Block {
  family: 4 | 6;
  words: Uint32Array;
  bits: number;
}

const scratch = new Uint32Array(4);

function toWords(text: string): { family: 4 | 6; words: Uint32Array } | undefined {
  if (text.indexOf(':') < 0) {
    const v4 = parseIpv4(text);
    return v4 < 0 ? undefined : { family: 4, words: Uint32Array.of(v4, 0, 0, 0) };
  }
  if (!parseIpv6(text, scratch)) return undefined;
  const mapped = mappedIpv4(scratch);
  return mapped >= 0 ? { family: 4, words: Uint32Array.of(mapped, 0, 0, 0) } : { family: 6, words: Uint32Array.from(scratch) };
}

function inBlock(address: { family: 4 | 6; words: Uint32Array }, block: Block): boolean {
  if (address.family !== block.family) return false;
  let remaining = block.bits;
  for (let w = 0; w < 4 && remaining > 0; w++) {
    const bits = Math.min(32, remaining);
    const mask = bits === 32 ? 0xffffffff : ~(0xffffffff >>> bits) >>> 0;
    if (((address.words[w] as number) & mask) >>> 0 !== ((block.words[w] as number) & mask) >>> 0) return false;
    remaining -= bits;
  }
  return true;
}

/**
 * The caller's address: the socket's peer, unless the peer is one of the configured trusted
 * proxies (the ingress); then X-Forwarded-For is read from the right, skipping trusted hops, and
 * the first untrusted address is the client. Without trusted proxies the header is ignored: any
 * client could write it.
 */
export class ClientAddressResolver {
  private readonly blocks: Block[];

  constructor(trustedProxies: readonly string[]) {
    this.blocks = trustedProxies.map((entry) => {
      const [address = '', bitsText] = entry.split('/');
      const parsed = toWords(address.trim());
      const max = parsed?.family === 4 ? 32 : 128;
      const bits = bitsText === undefined ? max : Number(bitsText);
      if (!parsed || !Number.isInteger(bits) || bits < 0 || bits > max) {
        throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR block`);
      }
      return { family: parsed.family, words: parsed.words, bits };
    });
  }

  private trusted(text: string): boolean {
    const address = toWords(text);
    return address !== undefined && this.blocks.some((block) => inBlock(address, block));
  }

  /** Canonical client address, or '' when the peer's address is unknown (socket already gone). */
  clientIp(request: IncomingMessage): string {
    const peer = request.socket.remoteAddress ?? '';
    if (this.blocks.length === 0 || !this.trusted(peer)) return canonicalIp(peer)?.text ?? '';
    const header = request.headers['x-forwarded-for'];
    const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((hop) => hop.trim());
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = canonicalIp(hops[i] as string);
      if (hop === undefined) break;
      if (!this.trusted(hop.text)) return hop.text;
    }
    return canonicalIp(peer)?.text ?? '';
  }
}
