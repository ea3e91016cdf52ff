/**
 * A small authoritative DNS server (UDP, dns-packet) for the test system's bff-en: tests cannot
 * depend on the Internet's resolvers, and /v1/domain needs names that resolve, names that do not
 * exist and a server that does not answer.
 */
import { createSocket, type Socket } from 'node:dgram';
import * as dnsPacket from 'dns-packet';

/** The zone every test may rely on. Any other name answers NXDOMAIN. */
export const TEST_ZONE: Readonly<Record<string, { A?: string[]; AAAA?: string[] }>> = {
  'dns.ipdata.test': { A: ['8.8.8.8', '1.1.1.1'], AAAA: ['2001:4860:4860::8888'] },
  'v4only.ipdata.test': { A: ['8.8.4.4'] },
  'private.ipdata.test': { A: ['10.0.0.1'] },
};
/** Queries for this name get no answer at all (a resolver timeout). */
export const SILENT_NAME = 'timeout.ipdata.test';

const NXDOMAIN = 3;

export class DnsStub {
  private constructor(private readonly socket: Socket) {}

  static async start(port: number): Promise<DnsStub> {
    const socket = createSocket('udp4');
    const stub = new DnsStub(socket);
    socket.on('message', (message, remote) => stub.answer(message, remote.port, remote.address));
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, '127.0.0.1', () => resolve());
    });
    return stub;
  }

  private answer(message: Buffer, port: number, address: string): void {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase().replace(/\.$/, '');
    if (name === SILENT_NAME) return;
    const records = TEST_ZONE[name];
    const type = question.type === 'A' || question.type === 'AAAA' ? question.type : undefined;
    const answers = records && type ? (records[type] ?? []).map((data) => ({ type, name: question.name, ttl: 60, data })) : [];
    const response = dnsPacket.encode({
      type: 'response',
      id: query.id ?? 0,
      // Authoritative answer, recursion available; rcode in the low 4 bits.
      flags: dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_AVAILABLE | (records ? 0 : NXDOMAIN),
      questions: [question],
      answers,
    });
    this.socket.send(response, port, address);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }
}

/** Whether a DNS stub answers on 127.0.0.1:`port` (readiness of its process, and "port in use"). */
export async function dnsStubAnswers(port: number, timeoutMs = 500): Promise<boolean> {
  const socket = createSocket('udp4');
  try {
    return await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      socket.once('message', () => {
        clearTimeout(timer);
        resolve(true);
      });
      // Nothing listening: Linux reports the ICMP "port unreachable" as an error on the socket.
      socket.once('error', () => {
        clearTimeout(timer);
        resolve(false);
      });
      const query = dnsPacket.encode({ type: 'query', id: 1, questions: [{ type: 'A', name: 'dns.ipdata.test' }] });
      socket.connect(port, '127.0.0.1', () => socket.send(query));
    });
  } finally {
    socket.close();
  }
}
