/**
 * The DNS stub of the test system as a process of its own (DNS_STUB_PORT): the system outlives
 * the test worker that starts it, so the stub cannot live in that worker.
 */
import { startLocalDnsServer } from '@ipdata/common/testing';
import { STUB_ZONE } from './dns-stub.js';

const port = Number(process.env['DNS_STUB_PORT']);
if (!Number.isInteger(port) || port <= 0) throw new Error(`DNS_STUB_PORT: got "${process.env['DNS_STUB_PORT']}"`);
const stub = await startLocalDnsServer(STUB_ZONE, { port });
console.log(JSON.stringify({ level: 'info', service: 'dns-stub', msg: `answering on 127.0.0.1:${port} (udp)` }));
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => void stub.close().then(() => process.exit(0)));
}
