/**
 * Bounded benchmark of API-key resolution as a BFF sees it: p50/p99 of
 *   - client-cache hits (ApiKeyClientCache from @ipdata/auth/client), and
 *   - uncached gRPC ResolveApiKey calls (server answers from its Redis cache after the first),
 *   - gRPC ResolveSession calls (the per-request session hot path, Redis-cached).
 * Needs a running stack (KAFKA_BROKERS, MONGO_URL, REDIS_URL; defaults: the `make up` stack).
 * Run: cd services/auth && npm run bench   (prints one JSON line; BENCH_KEYS ≤ 20, the per-account key limit)
 */
import { callUnary, createGrpcClient, grpcTlsFromConfig } from '@ipdata/common';
import { AuthServiceClient, SmsPurpose } from '@ipdata/proto/auth/v1/auth';
import { pino } from 'pino';
import { buildAuthService } from '../src/app.js';
import { ApiKeyClientCache, grpcApiKeyResolver } from '../src/client/index.js';
import { loadAuthConfig } from '../src/config.js';
import type { SmsMessage } from '../src/sms/sms-gateway.js';

const KEYS = Number(process.env['BENCH_KEYS'] ?? 20);
const GRPC_CALLS = Number(process.env['BENCH_GRPC_CALLS'] ?? 5_000);
const CACHE_HITS = Number(process.env['BENCH_CACHE_HITS'] ?? 200_000);

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => Number((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(4));
  return { n: sorted.length, p50_ms: at(0.5), p99_ms: at(0.99), max_ms: at(1) };
}

const run = `bench${Date.now().toString(36)}`;
const config = loadAuthConfig({
  ...process.env,
  APP_ENV: 'test',
  NODE_ENV: 'test',
  GRPC_PORT: '0',
  HEALTH_PORT: '0',
  MONGO_URL: process.env['MONGO_URL'] ?? `mongodb://127.0.0.1:27017/ipdata_auth_${run}`,
  SMS_GATEWAY: 'log', // replaced below by an in-memory gateway
  SMS_GATEWAY_SECRET: 'bench-only-sms-gateway-secret-0123456789',
  SMS_CODE_SECRET: 'bench-only-sms-code-secret-0123456789abcd',
  // Cheap scrypt and the log gateway are test-harness-only relaxations (APP_ENV=test plus this flag).
  AUTH_TEST_HARNESS: 'true',
  EMAIL_LINK_SECRET: 'bench-only-email-link-secret-0123456789',
  SCRYPT_N: '1024',
  // A benchmark of the service, not of TLS: plaintext, which APP_ENV=test allows.
  GRPC_TRANSPORT: 'insecure',
});
const codes = new Map<string, string>();
const service = buildAuthService(config, pino({ level: 'warn' }), {
  smsGateway: { kind: 'bench', send: async (message: SmsMessage) => void codes.set(message.phone, message.code) },
  redisPrefix: `${run}:`,
  consumerGroupId: run,
});
await service.lifecycle.start();
const client = createGrpcClient(AuthServiceClient, { address: service.grpc.boundAddress, tls: grpcTlsFromConfig(config) });
try {
  const phone = `139${String(Date.now() % 100_000_000).padStart(8, '0')}`;
  await callUnary(client.sendSmsCode.bind(client), { phone, purpose: SmsPurpose.SMS_PURPOSE_REGISTER, clientIp: '127.0.0.1' });
  const registered = await callUnary(client.registerWithPhone.bind(client), {
    phone,
    code: codes.get(phone) ?? '',
    password: 'bench-password',
    clientIp: '127.0.0.1',
  });
  const token = registered.session?.token ?? '';
  const keys: string[] = [];
  for (let i = 0; i < KEYS; i++) {
    keys.push((await callUnary(client.createApiKey.bind(client), { token, name: `bench ${i}` })).secret);
  }
  const remote = grpcApiKeyResolver(client);
  for (const key of keys) await remote(key); // warm the server's Redis cache

  const grpc: number[] = [];
  for (let i = 0; i < GRPC_CALLS; i++) {
    const started = performance.now();
    await remote(keys[i % keys.length] ?? '');
    grpc.push(performance.now() - started);
  }

  const sessions: number[] = [];
  for (let i = 0; i < GRPC_CALLS; i++) {
    const started = performance.now();
    await callUnary(client.resolveSession.bind(client), { token });
    sessions.push(performance.now() - started);
  }

  const cache = new ApiKeyClientCache({ resolve: remote, maxAgeMs: 60_000 });
  for (const key of keys) await cache.resolve(key);
  const hits: number[] = [];
  for (let i = 0; i < CACHE_HITS; i++) {
    const started = performance.now();
    await cache.resolve(keys[i % keys.length] ?? '');
    hits.push(performance.now() - started);
  }
  process.stdout.write(
    `${JSON.stringify({
      benchmark: 'api-key-resolve',
      keys: KEYS,
      client_cache_hit: percentiles(hits),
      grpc_resolve_uncached_client: percentiles(grpc),
      grpc_resolve_session: percentiles(sessions),
      note: 'gRPC client and server share one process and event loop; server answers from Redis',
    })}\n`,
  );
} finally {
  client.close();
  await service.lifecycle.shutdown('benchmark done');
}
