import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { kafkaEnv, mongoEnv, redisEnv } from '@ipdata/common';
import { authEnvSchema } from '../../services/auth/src/config.js';
import { billingEnv, DEVELOPMENT_VALUES } from '../../services/billing/src/config.js';

/**
 * infra/ports.json is the one list of local default ports (services/README.md, "Port registry").
 * Whatever else names a port is checked against it here: every service's config.ts defaults,
 * the common env groups, infra/local/lib.sh, services.sh's reader and the README tables.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(`${ROOT}/${path}`, 'utf8');

interface StackEntry {
  name: string;
  env: string;
  port: number;
  controllerPort?: number;
}
interface ServiceEntry {
  name: string;
  path: string;
  kind: string;
  ports: Record<string, number>;
  note?: string;
}
interface Registry {
  stack: StackEntry[];
  services: ServiceEntry[];
}

const registry = JSON.parse(read('infra/ports.json')) as Registry;
const byName = new Map(registry.services.map((service) => [service.name, service]));
const portsOf = (name: string) => byName.get(name)?.ports ?? {};
const stackPort = (name: string) => registry.stack.find((part) => part.name === name)?.port;
/** Service folders that listen on nothing: the shared library and the dataset job. */
const PORTLESS = new Set(['common', 'dataset']);

/** An env var of @ipdata/common's env helpers, as far as this test needs it. */
interface EnvVarLike {
  defaultValue: string | undefined;
  expected: string;
}
const isEnvVar = (value: unknown): value is EnvVarLike =>
  typeof value === 'object' && value !== null && 'expected' in value && 'defaultValue' in value && 'schema' in value;

/** The env schema a config module exports (the one export whose values are all env vars). */
function envSchemaOf(module: Record<string, unknown>): Record<string, EnvVarLike> {
  const schemas = Object.values(module).filter(
    (value): value is Record<string, EnvVarLike> =>
      typeof value === 'object' && value !== null && Object.values(value).length > 0 && Object.values(value).every(isEnvVar),
  );
  if (schemas.length !== 1) throw new Error(`expected one exported env schema, found ${schemas.length}`);
  return schemas[0] as Record<string, EnvVarLike>;
}

/** Every string a config module exports as a default (env defaults, development values). */
function defaultStrings(module: Record<string, unknown>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [exportName, value] of Object.entries(module)) {
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, entry] of Object.entries(value)) {
      if (isEnvVar(entry) && entry.defaultValue !== undefined) out.push([key, entry.defaultValue]);
      else if (typeof entry === 'string') out.push([`${exportName}.${key}`, entry]);
    }
  }
  return out;
}

const localPorts = (text: string) => [...text.matchAll(/(?:127\.0\.0\.1|localhost):(\d+)/g)].map((match) => Number(match[1]));

const serviceFolders = readdirSync(`${ROOT}/services`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(`${ROOT}/services/${entry.name}/src/config.ts`))
  .map((entry) => entry.name);

describe('port registry (infra/ports.json)', () => {
  it('gives every port to one place only', () => {
    const owners = new Map<number, string>();
    const claim = (port: number, owner: string) => {
      expect(owners.get(port), `port ${port} of ${owner}`).toBeUndefined();
      owners.set(port, owner);
    };
    for (const part of registry.stack) {
      claim(part.port, part.name);
      if (part.controllerPort !== undefined) claim(part.controllerPort, `${part.name} controller`);
    }
    for (const service of registry.services) {
      for (const [key, port] of Object.entries(service.ports)) claim(port, `${service.name} ${key}`);
    }
    expect(new Set(registry.services.map((service) => service.name)).size).toBe(registry.services.length);
  });

  it('lists every service folder that listens on a port', () => {
    const listed = new Set(registry.services.map((service) => service.path));
    for (const name of serviceFolders.filter((folder) => !PORTLESS.has(folder))) {
      expect(listed.has(`services/${name}`), `services/${name} needs an entry in infra/ports.json`).toBe(true);
    }
  });

  it('starts back-end services before the BFFs that call them', () => {
    const order = registry.services.map((service) => service.name);
    const lastBackEnd = Math.max(...registry.services.flatMap((s, i) => (s.kind === 'gRPC' ? [i] : [])));
    const firstBff = order.findIndex((name) => name.startsWith('bff-'));
    expect(lastBackEnd).toBeLessThan(firstBff);
    expect(order[0]).toBe('mail-sink');
  });
});

describe('config.ts defaults agree with the port registry', () => {
  it.each(serviceFolders)('services/%s/src/config.ts', async (folder) => {
    const module = (await import(`../../services/${folder}/src/config.ts`)) as Record<string, unknown>;
    const schema = envSchemaOf(module);
    const ports = portsOf(folder);
    const portVars = Object.entries(schema).filter(([name]) => name.endsWith('_PORT'));
    if (PORTLESS.has(folder)) {
      expect(portVars.filter(([, v]) => v.defaultValue !== undefined)).toEqual([]);
    } else {
      expect(schema['HEALTH_PORT']?.defaultValue, 'HEALTH_PORT').toBe(String(ports['http']));
      if (ports['grpc'] !== undefined) expect(schema['GRPC_PORT']?.defaultValue, 'GRPC_PORT').toBe(String(ports['grpc']));
      // Every listening port the config names is registered for this service, and every
      // registered port has its variable: neither side can gain a port alone.
      const configured = portVars.map(([, v]) => Number(v.defaultValue)).sort((a, b) => a - b);
      expect(configured).toEqual(Object.values(ports).sort((a, b) => a - b));
    }
    // Addresses of other things (the stack, the mail sink, the BFFs' origins) use registered ports.
    const registered = new Set([
      ...registry.stack.map((part) => part.port),
      ...registry.services.flatMap((service) => Object.values(service.ports)),
    ]);
    for (const [name, value] of defaultStrings(module)) {
      for (const port of localPorts(value)) expect(registered.has(port), `${name} = ${value}`).toBe(true);
    }
  });

  it('the common env groups point at the stack ports', () => {
    expect(kafkaEnv.KAFKA_BROKERS.defaultValue).toBe(`127.0.0.1:${stackPort('kafka')}`);
    expect(localPorts(mongoEnv.MONGO_URL.defaultValue ?? '')).toEqual([stackPort('mongo')]);
    expect(localPorts(redisEnv.REDIS_URL.defaultValue ?? '')).toEqual([stackPort('redis')]);
  });

  it('billing and auth point at the right neighbours', () => {
    expect(localPorts(billingEnv.PAYMENT_WEBHOOK_URL.defaultValue ?? '')).toEqual([portsOf('billing')['webhook']]);
    expect(localPorts(billingEnv.SANDBOX_CHECKOUT_PUBLIC_URL.defaultValue ?? '')).toEqual([
      portsOf('billing')['sandboxCheckout'],
    ]);
    expect(localPorts(DEVELOPMENT_VALUES.CHECKOUT_RETURN_ORIGINS)).toEqual([
      portsOf('bff-cn')['http'],
      portsOf('bff-en')['http'],
    ]);
    expect(localPorts(authEnvSchema.SMTP_URL.defaultValue ?? '')).toEqual([portsOf('mail-sink')['smtp']]);
    expect(localPorts(authEnvSchema.PUBLIC_BASE_URL.defaultValue ?? '')).toEqual([portsOf('bff-en')['http']]);
  });
});

describe('scripts agree with the port registry', () => {
  it('infra/local/lib.sh defaults the stack ports to the registry', () => {
    const lib = read('infra/local/lib.sh');
    const shellDefault = (name: string) => Number(new RegExp(`: "\\$\\{${name}:=(\\d+)\\}"`).exec(lib)?.[1]);
    for (const part of registry.stack) expect(shellDefault(part.env), part.env).toBe(part.port);
    expect(shellDefault('KAFKA_CONTROLLER_PORT')).toBe(registry.stack.find((p) => p.name === 'kafka')?.controllerPort);
  });

  it('services.sh reads its start order and health ports from the registry', () => {
    const rows = execFileSync('node', [`${ROOT}/infra/local/port-registry.mjs`, 'services'], { encoding: 'utf8' });
    expect(rows.trim().split('\n')).toEqual(
      registry.services
        .filter((s) => s.name === 'mail-sink' || (s.path.startsWith('services/') && s.ports['http'] !== undefined))
        .map((s) => `${s.name}|${s.ports['http'] ?? s.ports['smtp']}`),
    );
    expect(read('infra/local/services.sh')).toContain('port-registry.mjs" services');
  });

  it('`make up` prints the registry addresses (services.sh urls)', () => {
    const env = { ...process.env, KAFKA_PORT: '', MONGO_PORT: '', REDIS_PORT: '' };
    const urls = execFileSync('node', [`${ROOT}/infra/local/port-registry.mjs`, 'urls', 'billing', 'bff-en'], {
      encoding: 'utf8',
      env,
    });
    expect(urls).toContain(`127.0.0.1:${stackPort('kafka')}`);
    expect(urls).toContain(`mongodb://127.0.0.1:${stackPort('mongo')}`);
    expect(urls).toContain(`gRPC 127.0.0.1:${portsOf('billing')['grpc']}`);
    expect(urls).toContain(`sandbox checkout http://127.0.0.1:${portsOf('billing')['sandboxCheckout']}`);
    expect(urls).toContain(`http://127.0.0.1:${portsOf('bff-en')['http']}/readyz`);
    expect(read('Makefile')).toMatch(/\$\(SERVICES\) urls/);
  });
});

/** The rows of the first markdown table after `heading`, as trimmed cells. */
function tableAfter(markdown: string, heading: string): string[][] {
  const start = markdown.indexOf(heading);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const lines = markdown.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows.slice(2); // header and separator
}

const byValue = (a: number, b: number) => a - b;
const numbers = (text: string) => [...text.matchAll(/\d{4,5}/g)].map((match) => Number(match[0])).sort(byValue);

describe('README tables agree with the port registry', () => {
  const readme = read('README.md');

  it('the service table lists each entry with its kind and exactly its ports', () => {
    const rows = tableAfter(readme, '## Services');
    const seen = new Set<string>();
    for (const [pkg = '', kind = '', ports = ''] of rows) {
      const entries = registry.services.filter((service) => pkg.includes(`\`${service.path}\``));
      for (const entry of entries) {
        seen.add(entry.name);
        expect(kind.startsWith(entry.kind), `${pkg} kind "${kind}"`).toBe(true);
      }
      expect(numbers(ports), pkg).toEqual(entries.flatMap((entry) => Object.values(entry.ports)).sort(byValue));
    }
    const tabled = registry.services.filter((s) => s.path.startsWith('services/') || s.path.startsWith('frontends/'));
    expect([...seen].sort()).toEqual(tabled.map((s) => s.name).sort());
  });

  it('the local stack table gives the stack ports', () => {
    const rows = tableAfter(readme, '## Local stack');
    const addresses = rows.map((row) => row[2] ?? '').join(' ');
    expect(numbers(addresses)).toEqual(registry.stack.map((part) => part.port).sort(byValue));
  });

  it('the start order line follows the registry', () => {
    const line = readme.split('\n').find((text) => text.startsWith('**Start order**'));
    const named = [...(line ?? '').matchAll(/`([a-z-]+)`/g)].map((match) => match[1]);
    expect(named).toEqual(registry.services.map((service) => service.name));
  });

  it('the mail sink address in the README is the registry one', () => {
    expect(readme).toContain(`smtp://127.0.0.1:${portsOf('mail-sink')['smtp']}`);
  });
});
