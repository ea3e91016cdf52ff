/**
 * What one round trip costs on this machine with nothing else running: one request at a time,
 * each awaited before the next, so the figure is latency, not throughput. It explains the
 * public API's latency floor (public-api.bench.ts, `get_ip_open_loop_*`): every GET waits for a
 * lookup-engine call (gRPC) and a Redis call, and a gRPC hop here costs many times a Redis one.
 *
 *   make dataset && make stack-up
 *   node --conditions=source --import tsx scripts/bench/hop-latency.bench.ts [--calls 500]
 *
 * Hops, client in this process, server in another: Redis PING; a node:http echo; a bare grpc-js
 * echo without TLS, with mutual TLS, and with mutual TLS plus common's access-policy interceptor
 * (what every internal server runs); the lookup engine's GetDatasetInfo and a one-address
 * BatchLookup through the tuned client (as bff-en calls it); bff-en's GET /v1/ip/{ip} with
 * accounting on and off. Prints one JSON line per hop (p50/p90/p99 in ms) and a summary with each
 * p50 as a multiple of Redis PING's. Never asserts; bounded by the number of calls.
 */
import { fork } from 'node:child_process';
import { readFileSync, mkdtempSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { callUnary } from '@ipdata/common';
import { testGrpcTls } from '@ipdata/common/testing';
import { createLookupClient } from '@ipdata/lookup-engine/client';
// Not exported by common (its servers install it themselves): the bench builds a bare server with it.
import { accessPolicyInterceptor } from '../../services/common/src/grpc/grpc-access.js';
import { createTestAccount } from '../test/system/index.js';
import { emit, percentile, repoRoot } from './bench-support.js';
import { BenchPlatform } from './public-api-platform.js';
import { randomPublicIpv4 } from './public-api-support.js';

const ECHO_PATH = '/bench.Echo/Echo';
const identity = (bytes: Buffer) => bytes;
const ECHO = {
  echo: {
    path: ECHO_PATH,
    requestStream: false,
    responseStream: false,
    requestSerialize: identity,
    requestDeserialize: identity,
    responseSerialize: identity,
    responseDeserialize: identity,
  },
} satisfies grpc.ServiceDefinition;

const pkiDir = () => join(process.env['IPDATA_STACK_DIR'] ?? join(repoRoot, 'var/stack'), 'pki');
const pki = (file: string) => readFileSync(join(pkiDir(), file));

/** The child: echo servers (node:http, gRPC insecure / mTLS / mTLS + interceptor); sends their ports. */
async function serveEchoes(): Promise<void> {
  const http = createServer((req, res) => req.pipe(res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const mtls = () =>
    grpc.ServerCredentials.createSsl(
      pki('ca.crt'),
      [{ cert_chain: pki('lookup-engine.crt'), private_key: pki('lookup-engine.key') }],
      true,
    );
  const policy = new Map([[ECHO_PATH, new Set(['bff-en'])]]);
  const grpcServer = async (credentials: grpc.ServerCredentials, options: grpc.ServerOptions = {}) => {
    const server = new grpc.Server(options);
    server.addService(ECHO, {
      echo: (call: grpc.ServerUnaryCall<Buffer, Buffer>, done: grpc.sendUnaryData<Buffer>) => done(null, call.request),
    });
    return new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', credentials, (error, port) => (error ? reject(error) : resolve(port))),
    );
  };
  process.send?.({
    http: (http.address() as AddressInfo).port,
    insecure: await grpcServer(grpc.ServerCredentials.createInsecure()),
    mtls: await grpcServer(mtls()),
    policy: await grpcServer(mtls(), { interceptors: [accessPolicyInterceptor(policy, pino({ level: 'silent' }))] }),
  });
}

if (process.argv[2] === 'echo-servers') {
  await serveEchoes();
} else {
  const at = process.argv.indexOf('--calls');
  const calls = Math.max(10, Number(at >= 0 ? process.argv[at + 1] : 500) || 500);
  const rows: Record<string, number> = {};

  async function hop(name: string, call: (i: number) => Promise<unknown>): Promise<void> {
    for (let i = 0; i < 50; i++) await call(i);
    const times: number[] = [];
    for (let i = 0; i < calls; i++) {
      const started = performance.now();
      await call(i);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const ms = (p: number) => Math.round(percentile(times, p) * 1000) / 1000;
    const row = { p50_ms: ms(50), p90_ms: ms(90), p99_ms: ms(99) };
    rows[name] = row.p50_ms;
    emit({ bench: 'hop_latency', hop: name, calls, ...row });
  }

  const work = mkdtempSync(join(tmpdir(), 'ipdata-bench-hops-'));
  const platform = await BenchPlatform.start(join(work, 'system'), Number(process.env['BENCH_PORT_BASE'] ?? 19750));
  const echoes = fork(process.argv[1] as string, ['echo-servers'], { execArgv: process.execArgv, stdio: 'inherit' });
  try {
    const ports = await new Promise<Record<'http' | 'insecure' | 'mtls' | 'policy', number>>((resolve) =>
      echoes.once('message', (message) => resolve(message as Record<'http' | 'insecure' | 'mtls' | 'policy', number>)),
    );
    const [on, off] = await Promise.all([
      platform.startBffEn('hops-on'),
      platform.startBffEn('hops-off', { PUBLIC_API_ACCOUNTING: 'off' }),
    ]);
    const { apiKey } = await createTestAccount({ plan: 'api-bench', keyName: 'bench' });
    const addresses = randomPublicIpv4(10_000, 21);

    const redis = new Redis(process.env['REDIS_URL'] as string);
    await hop('redis_ping', () => redis.ping());
    redis.disconnect();

    const agent = new (await import('node:http')).Agent({ keepAlive: true, maxSockets: 1 });
    await hop(
      'node_http_echo',
      () =>
        new Promise<void>((resolve, reject) => {
          const req = request({ host: '127.0.0.1', port: ports.http, method: 'POST', agent }, (res) => {
            res.resume();
            res.on('end', resolve);
          });
          req.on('error', reject);
          req.end('hello');
        }),
    );
    agent.destroy();

    const Echo = grpc.makeGenericClientConstructor(ECHO, 'Echo');
    const mtlsClient = () => grpc.credentials.createSsl(pki('ca.crt'), pki('bff-en.key'), pki('bff-en.crt'));
    const override = { 'grpc.ssl_target_name_override': 'lookup-engine' };
    for (const [name, port, credentials, options] of [
      ['grpc_echo_insecure', ports.insecure, grpc.credentials.createInsecure(), {}],
      ['grpc_echo_mtls', ports.mtls, mtlsClient(), override],
      ['grpc_echo_mtls_access_policy', ports.policy, mtlsClient(), override],
    ] as const) {
      const client = new Echo(`127.0.0.1:${port}`, credentials, options);
      const echo = client['echo'] as (body: Buffer, done: (error: Error | null) => void) => void;
      await hop(
        name,
        () =>
          new Promise<void>((resolve, reject) =>
            echo.call(client, Buffer.from('hello'), (error) => (error ? reject(error) : resolve())),
          ),
      );
      client.close();
    }

    const engine = createLookupClient({ address: process.env['TEST_LOOKUP_GRPC'] as string, tls: testGrpcTls('bff-en') });
    await hop('lookup_engine_info', () => callUnary(engine.getDatasetInfo.bind(engine), {}));
    await hop('lookup_engine_batch_1', (i) =>
      callUnary(engine.batchLookup.bind(engine), { ips: [addresses[i % addresses.length] as string] }),
    );
    engine.close();

    const headers = { authorization: `Bearer ${apiKey}` };
    for (const [name, origin] of [
      ['bff_en_get_ip', on.origin],
      ['bff_en_off_get_ip', off.origin],
    ] as const) {
      await hop(name, async (i) => (await fetch(`${origin}/v1/ip/${addresses[i % addresses.length]}`, { headers })).text());
    }

    const floor = rows['redis_ping'] ?? 1;
    emit({
      bench: 'summary',
      calls,
      p50_ms: rows,
      p50_vs_redis_ping: Object.fromEntries(
        Object.entries(rows).map(([name, p50]) => [name, Math.round((p50 / floor) * 10) / 10]),
      ),
    });
  } finally {
    echoes.kill();
    await platform.stop();
  }
}
