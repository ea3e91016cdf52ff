/**
 * One BatchLookup client of the gRPC benchmark, in its own process so every variant starts from
 * a clean heap and JIT state (and none pays for the benchmark's own address lists in its old
 * generation). VARIANT picks the client, PORT the server, CALLS the timed calls; prints
 * "RESULT <IPs per second> <client CPU µs per batch>" (CPU: user + system of this process).
 *
 *   ipdata          @ipdata/lookup-engine/client (BatchLookupCompact, decoded to BatchLookupResponse)
 *   ipdata_plain    the plain BatchLookup, decoded by our answer decoder
 *   generated       the plain BatchLookup, decoded by the generated ts-proto codec
 *   naive           a @grpc/proto-loader client (against the naive server)
 */
import { credentials, makeGenericClientConstructor, type ServiceError } from '@grpc/grpc-js';
import { callUnary } from '@ipdata/common';
import { LookupServiceClient, LookupServiceService, type BatchLookupResponse } from '@ipdata/proto/lookup/v1/lookup';
import { decodeBatchLookupResponse } from '../../services/lookup-engine/src/client/answer-decoder.js';
import { FastLookupServiceClient } from '../../services/lookup-engine/src/client/lookup-client.js';
import { BATCH_WARM_UP_CALLS, drive, protoLoaderLookupService, randomIpv4 } from './bench-support.js';

const variant = process.env['VARIANT'] ?? 'ipdata';
const port = Number(process.env['PORT']);
const calls = Number(process.env['CALLS'] ?? 1000);
/** Replay servers answer one fixed batch: send that one every time. */
const sameBatch = process.env['SAME_BATCH'] === 'true';
const inFlight = 4;

// The first 50,000 of the benchmark's seeded IPv4 addresses, in batches of 1,000.
const addresses = randomIpv4(50_000, 1);
const batches = Array.from({ length: 50 }, (_, b) => addresses.slice(b * 1000, b * 1000 + 1000));

// Every client gets the same channel settings (createGrpcClient's), so the servers are compared.
const target = `127.0.0.1:${port}`;
const channelOptions = { 'grpc.max_receive_message_length': 64 << 20, 'grpc-node.flow_control_window': 8 << 20 };

/** The plain BatchLookup (full IpInfo per item) decoded by our answer decoder. */
const PlainBatchClient = makeGenericClientConstructor(
  {
    ...LookupServiceService,
    batchLookup: { ...LookupServiceService.batchLookup, responseDeserialize: decodeBatchLookupResponse },
  },
  'ipdata.lookup.v1.LookupService',
) as unknown as typeof LookupServiceClient;

function batchCall(): (ips: string[]) => Promise<{ items: unknown[] }> {
  if (variant === 'naive') {
    const client = new (protoLoaderLookupService())(target, credentials.createInsecure(), channelOptions) as unknown as {
      BatchLookup(request: unknown, callback: (error: ServiceError | null, value: BatchLookupResponse) => void): void;
    };
    return (ips) => new Promise((resolve, reject) => client.BatchLookup({ ips }, (e, v) => (e ? reject(e) : resolve(v))));
  }
  const Client = { ipdata: FastLookupServiceClient, ipdata_plain: PlainBatchClient, generated: LookupServiceClient }[variant];
  if (Client === undefined) throw new Error(`unknown VARIANT ${variant}`);
  const client = new Client(target, credentials.createInsecure(), channelOptions);
  return (ips) => callUnary(client.batchLookup.bind(client), { ips });
}

/** Batches per second of `count` calls, 4 in flight, each answer checked. */
async function batchesPerSecond(count: number, call: (ips: string[]) => Promise<{ items: unknown[] }>): Promise<number> {
  const { seconds } = await drive(count, inFlight, async (b) => {
    const response = await call(batches[sameBatch ? 0 : b % batches.length] as string[]);
    if (response.items.length !== 1000) throw new Error(`${variant}: short batch`);
  });
  return (count * 1000) / seconds;
}

const call = batchCall();
await batchesPerSecond(BATCH_WARM_UP_CALLS, call); // untimed: JIT warm-up, the engine's lazily built records and parts
const cpuBefore = process.cpuUsage();
const ipsPerSecond = await batchesPerSecond(calls, call);
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(`RESULT ${Math.round(ipsPerSecond)} ${Math.round((cpu.user + cpu.system) / calls)}\n`);
process.exit(0);
