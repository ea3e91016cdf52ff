/**
 * Where the shared test system lives: its ports, folders and the environment each service gets.
 * The start (start-system.ts) and the test helpers (index.ts) both read it, so a second bff-en
 * started by a test has exactly the dependencies of the first.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** The services of the system, in start order (the port registry's order). */
export const SYSTEM_SERVICES = [
  'mail-sink',
  'lookup-engine',
  'auth',
  'billing',
  'stats',
  'downloads',
  'content',
  'probe',
  'bff-en',
  'bff-cn',
] as const;
export type SystemService = (typeof SYSTEM_SERVICES)[number];

/**
 * Fixed test ports (TEST_SYSTEM_PORT_BASE, default 19050): far from the registry's defaults
 * (infra/ports.json), so a `make up` stack and a test run coexist. Two test runs on one machine
 * need two bases.
 */
export function systemPorts(base = Number(process.env['TEST_SYSTEM_PORT_BASE'] ?? 19050)) {
  return {
    lookupGrpc: base + 1,
    lookupHttp: base + 11,
    authGrpc: base + 2,
    authHttp: base + 12,
    billingGrpc: base + 3,
    billingHttp: base + 13,
    billingWebhook: base + 14,
    billingCheckout: base + 15,
    smsGateway: base + 16,
    statsGrpc: base + 4,
    statsHttp: base + 24,
    downloadsGrpc: base + 7,
    downloadsHttp: base + 27,
    mailSmtp: base + 5,
    dns: base + 6,
    contentGrpc: base + 8,
    contentHttp: base + 28,
    probeHttp: base + 29,
    bffEnHttp: base + 32,
    bffCnHttp: base + 31,
  };
}
export type SystemPorts = ReturnType<typeof systemPorts>;

export function systemDir(): string {
  return process.env['TEST_SYSTEM_DIR'] ?? join(repoRoot, 'var/test-system');
}

/** The dataset the system's lookup engine and downloads serve: the real one `make dataset` built. */
export function systemDatasetsDir(): string {
  return process.env['TEST_DATASETS_DIR'] ?? join(repoRoot, 'var/datasets');
}

/** Databases of the system's services: names no per-file harness uses (those are uniqueName()s). */
export const SYSTEM_DATABASES = {
  auth: 'ipdata_system_auth',
  billing: 'ipdata_system_billing',
  stats: 'ipdata_system_stats',
  downloads: 'ipdata_system_downloads',
  bffEn: 'ipdata_system_bff_en',
  content: 'ipdata_system_content',
  bffCn: 'ipdata_system_bff_cn',
};

/**
 * The Kafka consumer groups of the system's services (their group ids in serviceEnv and each
 * service's defaults): start-system.ts commits the log end for them before starting anything
 * (consumer-groups.ts). A group missing here reads the backlog earlier tests left.
 */
export const SYSTEM_CONSUMER_GROUPS = [
  'auth-test-system',
  'auth-test-system.contact',
  'billing-test-system',
  'billing-test-system.users',
  'stats-test-system',
  'stats-test-system.visits',
  'stats-test-system.plans',
  'downloads-test-system.datasets',
  'downloads-test-system.subscriptions',
  'bff-en-cache-test-system',
  'lookup-engine.test-system',
  'content-test-system.users',
  'content-test-system.subscriptions',
  'probe.test-system',
  'bff-cn-test-system.probe-results',
] as const;

/** What auth signs SMS requests with and the system's SMS sink checks. */
export const SMS_GATEWAY_SECRET = 'test-system-sms-gateway-secret-0123456789';

/** Where the system's SMS sink stores each message a phone received (one JSON file each). */
export function smsDir(): string {
  return join(systemDir(), 'sms');
}

/** The sandbox payment secret of the system's billing (tests sign nothing with it; ≥ 32 characters). */
const PAYMENT_SANDBOX_SECRET = 'test-system-sandbox-secret-0123456789';

export interface StackEnv {
  KAFKA_BROKERS: string;
  MONGO_URL: string;
  REDIS_URL: string;
  TEST_PKI_DIR: string;
}

export function stackEnvFromProcess(): StackEnv {
  const names = ['KAFKA_BROKERS', 'MONGO_URL', 'REDIS_URL', 'TEST_PKI_DIR'] as const;
  const missing = names.filter((name) => !process.env[name]);
  if (missing.length > 0) throw new Error(`${missing.join(', ')} not set: the test system needs the test stack (global setup)`);
  return Object.fromEntries(names.map((name) => [name, process.env[name]!])) as unknown as StackEnv;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

function tlsEnv(stack: StackEnv, identity: string): Record<string, string> {
  return {
    GRPC_TRANSPORT: 'mtls',
    GRPC_TLS_CA_FILE: join(stack.TEST_PKI_DIR, 'ca.crt'),
    GRPC_TLS_CERT_FILE: join(stack.TEST_PKI_DIR, `${identity}.crt`),
    GRPC_TLS_KEY_FILE: join(stack.TEST_PKI_DIR, `${identity}.key`),
  };
}

/** The test plan catalogue: the default one plus the small plans tests need (see the file). */
export const TEST_PLAN_CATALOGUE = join(repoRoot, 'services/bff-en/test/fixtures/plans.yaml');

/** Origin the sandbox checkout may send buyers back to (CHECKOUT_RETURN_ORIGINS). */
export function checkoutReturnUrl(ports: SystemPorts): string {
  return `${faceBOrigin(ports)}/billing/return`;
}

/** Face A's site as the browser tests open it: bff-cn serving the built app (frontends/cn/dist). */
export function faceAOrigin(ports: SystemPorts): string {
  return `http://127.0.0.1:${ports.bffCnHttp}`;
}

/**
 * Face B's site as the browser tests open it: bff-en serving the built app (frontends/en/dist) beside
 * its public API and web API. Auth's mail links and the checkout's way back point here.
 */
export function faceBOrigin(ports: SystemPorts): string {
  return `http://127.0.0.1:${ports.bffEnHttp}`;
}

/** The environment of one service of the system (besides PATH/HOME). */
export function serviceEnv(service: SystemService, stack: StackEnv, ports: SystemPorts): Record<string, string> {
  const common = {
    APP_ENV: 'test',
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    HEALTH_HOST: '127.0.0.1',
    KAFKA_BROKERS: stack.KAFKA_BROKERS,
  };
  switch (service) {
    case 'mail-sink':
      return { MAIL_SINK_PORT: String(ports.mailSmtp), MAIL_SINK_DIR: join(systemDir(), 'mail') };
    case 'lookup-engine':
      return {
        ...common,
        ...tlsEnv(stack, 'lookup-engine'),
        HEALTH_PORT: String(ports.lookupHttp),
        GRPC_PORT: String(ports.lookupGrpc),
        DATASETS_DIR: systemDatasetsDir(),
        // Other test files publish dataset.published.v1 for their own throw-away datasets: the
        // system's engine keeps the real dataset it started with.
        DATASET_EVENTS_ENABLED: 'false',
        INSTANCE_ID: 'test-system',
      };
    case 'auth':
      return {
        ...common,
        ...tlsEnv(stack, 'auth'),
        HEALTH_PORT: String(ports.authHttp),
        GRPC_PORT: String(ports.authGrpc),
        MONGO_URL: withDatabase(stack.MONGO_URL, SYSTEM_DATABASES.auth),
        REDIS_URL: stack.REDIS_URL,
        // Not "auth": a benchmark's system beside `make up` shares its broker, and one group
        // would split billing.subscription.v1 between the two auths.
        KAFKA_GROUP_ID: 'auth-test-system',
        // The test harness flag allows the log SMS gateway and cheap scrypt (APP_ENV=test only).
        AUTH_TEST_HARNESS: 'true',
        SCRYPT_N: '1024',
        // The real provider protocol, to the development SMS gateway (scripts/dev/sms-sink.ts).
        SMS_GATEWAY: 'http',
        SMS_GATEWAY_URL: `http://127.0.0.1:${ports.smsGateway}/sms`,
        SMS_GATEWAY_SECRET,
        // A browser test registers and then logs in by code with one phone within seconds.
        SMS_RESEND_SECONDS: '1',
        SMS_PER_IP_PER_HOUR: '10000',
        SMS_CODE_SECRET: 'test-system-sms-code-secret-0123456789',
        EMAIL_LINK_SECRET: 'test-system-email-link-secret-0123456789',
        SMTP_URL: `smtp://127.0.0.1:${ports.mailSmtp}`,
        MAIL_RELAY_INTERVAL_SECONDS: '1',
        // Confirmation and reset links open face B's app (its /confirm-email and /reset-password routes).
        PUBLIC_BASE_URL: faceBOrigin(ports),
        // Many test accounts come from one loopback client address.
        SIGNUPS_PER_IP_PER_HOUR: '100000',
        LOGINS_PER_IP_PER_15_MIN: '100000',
        MAIL_PER_ADDRESS_PER_HOUR: '1000',
      };
    case 'billing':
      return {
        ...common,
        ...tlsEnv(stack, 'billing'),
        HEALTH_PORT: String(ports.billingHttp),
        GRPC_PORT: String(ports.billingGrpc),
        WEBHOOK_PORT: String(ports.billingWebhook),
        SANDBOX_CHECKOUT_PORT: String(ports.billingCheckout),
        SANDBOX_CHECKOUT_PUBLIC_URL: `http://127.0.0.1:${ports.billingCheckout}`,
        PAYMENT_WEBHOOK_URL: `http://127.0.0.1:${ports.billingWebhook}/webhooks/payments/sandbox`,
        PAYMENT_SANDBOX_SECRET,
        CHECKOUT_RETURN_ORIGINS: `${new URL(checkoutReturnUrl(ports)).origin},${faceAOrigin(ports)}`,
        MONGO_URL: withDatabase(stack.MONGO_URL, SYSTEM_DATABASES.billing),
        // Not "billing": per-file billing harnesses use uniqueName() groups, the system its own.
        KAFKA_GROUP_ID: 'billing-test-system',
        PLAN_CATALOGUE_FILE: TEST_PLAN_CATALOGUE,
      };
    case 'stats':
      return {
        ...common,
        ...tlsEnv(stack, 'stats'),
        HEALTH_PORT: String(ports.statsHttp),
        GRPC_PORT: String(ports.statsGrpc),
        MONGO_URL: withDatabase(stack.MONGO_URL, SYSTEM_DATABASES.stats),
        REDIS_URL: stack.REDIS_URL,
        // Apart from the per-file stats of the integration tests on the same Kafka and Redis.
        KAFKA_GROUP_ID: 'stats-test-system',
        REDIS_KEY_PREFIX: 'stats-test-system:',
        // Billing's upcoming invoice follows the running month total within a second.
        LIVE_ROLLUP_INTERVAL_MS: '300',
      };
    case 'downloads':
      return {
        ...common,
        ...tlsEnv(stack, 'downloads'),
        HEALTH_PORT: String(ports.downloadsHttp),
        GRPC_PORT: String(ports.downloadsGrpc),
        MONGO_URL: withDatabase(stack.MONGO_URL, SYSTEM_DATABASES.downloads),
        KAFKA_GROUP_ID: 'downloads-test-system',
        DATASETS_DIR: systemDatasetsDir(),
        PUBLIC_BASE_URL: `http://127.0.0.1:${ports.downloadsHttp}`,
        DOWNLOAD_LINK_SECRET: 'test-system-download-link-secret-0123456789',
        // The real datasets folder is a cache other clones share: the system never prunes it.
        KEEP_VERSIONS: '100',
      };
    case 'content':
      return {
        ...common,
        ...tlsEnv(stack, 'content'),
        HEALTH_PORT: String(ports.contentHttp),
        GRPC_PORT: String(ports.contentGrpc),
        MONGO_URL: withDatabase(stack.MONGO_URL, SYSTEM_DATABASES.content),
        KAFKA_GROUP_ID: 'content-test-system',
        OUTBOX_INTERVAL_MS: '500',
      };
    case 'probe':
      return {
        ...common,
        HEALTH_PORT: String(ports.probeHttp),
        PROBE_SITE: 'test-system',
        // Browser tests trace loopback addresses only.
        PROBE_ALLOW_PRIVATE: 'true',
        PROBE_WAIT_MS: '500',
      };
    case 'bff-en':
      return {
        ...bffEnEnv(stack, ports, { port: ports.bffEnHttp, instance: 'test-system' }),
        // The system's bff-en serves face B's built app (the browser tests open faceBOrigin).
        WEB_APP_ENABLED: 'true',
        WEB_DIST_DIR: join(repoRoot, 'frontends/en/dist'),
      };
    case 'bff-cn':
      return {
        ...common,
        ...tlsEnv(stack, 'bff-cn'),
        HEALTH_PORT: String(ports.bffCnHttp),
        LOOKUP_GRPC_ADDR: `127.0.0.1:${ports.lookupGrpc}`,
        AUTH_GRPC_ADDR: `127.0.0.1:${ports.authGrpc}`,
        BILLING_GRPC_ADDR: `127.0.0.1:${ports.billingGrpc}`,
        STATS_GRPC_ADDR: `127.0.0.1:${ports.statsGrpc}`,
        CONTENT_GRPC_ADDR: `127.0.0.1:${ports.contentGrpc}`,
        SITE_ORIGIN: faceAOrigin(ports),
        MONGO_URL: withDatabase(stack.MONGO_URL, SYSTEM_DATABASES.bffCn),
        REDIS_URL: stack.REDIS_URL,
        VISITOR_ID_SECRET: 'test-system-visitor-id-secret-0123456789',
        PROBE_ALLOW_PRIVATE: 'true',
        PROBE_RESULTS_GROUP_ID: 'bff-cn-test-system.probe-results',
        DNS_SERVERS: `127.0.0.1:${ports.dns}`,
        DNS_TIMEOUT_MS: '500',
        BATCH_DIR: join(systemDir(), 'bff-cn-batch'),
        // Every browser test comes from 127.0.0.1: the per-visitor limits must not be what they test.
        LOOKUP_RATE_LIMIT: '100000',
        BATCH_RATE_LIMIT: '10000',
        PROBE_TASK_LIMIT: '10000',
        DOMAIN_TOOLS_RATE_LIMIT: '10000',
        WEB_APP_ENABLED: 'true',
        WEB_DIST_DIR: join(repoRoot, 'frontends/cn/dist'),
      };
  }
}

/**
 * One bff-en of the system: the first, or another one a test starts (own port, instance and data
 * dir). Only the system's own bff-en serves face B's app (serviceEnv): the others are API tests'.
 */
export function bffEnEnv(
  stack: StackEnv,
  ports: SystemPorts,
  options: { port: number; instance: string },
): Record<string, string> {
  return {
    APP_ENV: 'test',
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    HEALTH_HOST: '127.0.0.1',
    HEALTH_PORT: String(options.port),
    ...tlsEnv(stack, 'bff-en'),
    LOOKUP_GRPC_ADDR: `127.0.0.1:${ports.lookupGrpc}`,
    AUTH_GRPC_ADDR: `127.0.0.1:${ports.authGrpc}`,
    BILLING_GRPC_ADDR: `127.0.0.1:${ports.billingGrpc}`,
    STATS_GRPC_ADDR: `127.0.0.1:${ports.statsGrpc}`,
    DOWNLOADS_GRPC_ADDR: `127.0.0.1:${ports.downloadsGrpc}`,
    KAFKA_BROKERS: stack.KAFKA_BROKERS,
    // Per process: its cache-invalidation consumers must each see every event.
    INSTANCE_ID: options.instance,
    MONGO_URL: withDatabase(stack.MONGO_URL, SYSTEM_DATABASES.bffEn),
    REDIS_URL: stack.REDIS_URL,
    DNS_SERVERS: `127.0.0.1:${ports.dns}`,
    DNS_TIMEOUT_MS: '500',
    // Small enough that a test can send a body over it (413) in a second.
    BULK_MAX_BYTES: String(1024 * 1024),
    DATA_DIR: join(systemDir(), options.instance),
    CONTENT_GRPC_ADDR: `127.0.0.1:${ports.contentGrpc}`,
    SITE_ORIGIN: `http://127.0.0.1:${options.port}`,
    VISITOR_ID_SECRET: 'test-system-visitor-id-secret-0123456789',
    // Every browser test comes from 127.0.0.1: the per-visitor limit must not be what they test.
    WEB_LOOKUP_RATE_LIMIT: '100000',
    WEB_CONTACT_RATE_LIMIT: '100000',
    WEB_APP_ENABLED: 'false',
  };
}
