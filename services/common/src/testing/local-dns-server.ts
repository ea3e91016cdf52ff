import { type Socket, createSocket } from 'node:dgram';
import * as dnsPacket from 'dns-packet';

export const DNS_RCODE = { SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;

/** One name of a LocalDnsServer's zone. A name absent from the zone is NXDOMAIN. */
export interface LocalDnsEntry {
  readonly A?: readonly string[];
  readonly AAAA?: readonly string[];
  /** PTR names, for `<reversed>.in-addr.arpa` / `.ip6.arpa` entries (`reverseName` of '@ipdata/common/dns'). */
  readonly PTR?: readonly string[];
  /** Answer this rcode (no records). */
  readonly rcode?: number;
  /** Never answer (a timeout); `silentAaaa` only the AAAA question. */
  readonly silent?: boolean;
  readonly silentAaaa?: boolean;
}

export interface LocalDnsServer {
  /** `127.0.0.1:<port>`, for a resolver's servers. */
  readonly address: string;
  /** Questions received, as `<TYPE> <name>`. */
  readonly queried: string[];
  close(): Promise<void>;
}

/**
 * A real DNS server on 127.0.0.1 (UDP), decoding and encoding with dns-packet: resolvers are
 * tested against the wire, not a mock of node:dns. Names are matched case-insensitively.
 */
export async function startLocalDnsServer(
  zone: Readonly<Record<string, LocalDnsEntry>>,
  options: { port?: number } = {},
): Promise<LocalDnsServer> {
  const entries = new Map(Object.entries(zone).map(([name, entry]) => [name.toLowerCase(), entry]));
  const queried: string[] = [];
  const server: Socket = createSocket('udp4');
  server.on('message', (message, remote) => {
    let query: dnsPacket.DecodedPacket;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (question === undefined) return;
    queried.push(`${question.type} ${question.name}`);
    const entry = entries.get(question.name.toLowerCase());
    if (entry?.silent === true || (entry?.silentAaaa === true && question.type === 'AAAA')) return;
    const rcode = entry === undefined ? DNS_RCODE.NXDOMAIN : (entry.rcode ?? 0);
    const data =
      rcode !== 0
        ? []
        : question.type === 'A'
          ? (entry?.A ?? [])
          : question.type === 'AAAA'
            ? (entry?.AAAA ?? [])
            : question.type === 'PTR'
              ? (entry?.PTR ?? [])
              : [];
    const reply = dnsPacket.encode({
      type: 'response',
      id: query.id,
      flags: dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | rcode,
      questions: [question],
      answers: data.map((value) => ({ type: question.type as 'A', name: question.name, ttl: 60, data: value })),
    });
    server.send(reply, remote.port, remote.address);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.bind(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  return {
    address: `127.0.0.1:${server.address().port}`,
    queried,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
