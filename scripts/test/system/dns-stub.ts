/**
 * The zone of the test system's DNS stub (common's startLocalDnsServer in a process of its own,
 * dns-stub-server.ts) for bff-en: tests cannot depend on the Internet's resolvers, and /v1/domain
 * needs names that resolve, names that do not exist and a server that does not answer.
 */
import { createSocket } from 'node:dgram';
import type { LocalDnsEntry } from '@ipdata/common/testing';
import * as dnsPacket from 'dns-packet';

/** The zone every test may rely on. Any other name answers NXDOMAIN. */
export const TEST_ZONE: Readonly<Record<string, LocalDnsEntry>> = {
  'dns.ipdata.test': { A: ['8.8.8.8', '1.1.1.1'], AAAA: ['2001:4860:4860::8888'] },
  'v4only.ipdata.test': { A: ['8.8.4.4'] },
  'private.ipdata.test': { A: ['10.0.0.1'] },
};
/** Queries for this name get no answer at all (a resolver timeout). */
export const SILENT_NAME = 'timeout.ipdata.test';

/** The stub's whole zone: TEST_ZONE and the silent name; anything else answers NXDOMAIN. */
export const STUB_ZONE: Readonly<Record<string, LocalDnsEntry>> = { ...TEST_ZONE, [SILENT_NAME]: { silent: true } };

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
