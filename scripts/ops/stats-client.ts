/**
 * A StatsService client as the `operator` identity, for the operations commands in this folder
 * (`make usage-reconcile`, `make usage-replay`). The certificates are the stack's PKI
 * (infra/local/pki.sh): GRPC_PKI_DIR, default <IPDATA_STACK_DIR or var/stack>/pki; the address
 * STATS_GRPC_ADDR, default stats' port in infra/ports.json on 127.0.0.1.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGrpcClient } from '@ipdata/common';
import { grpcCaller, type GrpcCaller } from '@ipdata/common/testing';
import * as statsApi from '@ipdata/proto/stats/v1/stats';
import { StatsServiceClient, StatsServiceService } from '@ipdata/proto/stats/v1/stats';

export type StatsCaller = GrpcCaller<typeof StatsServiceService>;

export function statsOperatorClient(env: NodeJS.ProcessEnv = process.env): {
  stats: StatsCaller;
  address: string;
  close(): void;
} {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const pkiDir = env['GRPC_PKI_DIR'] ?? join(env['IPDATA_STACK_DIR'] ?? join(root, 'var/stack'), 'pki');
  const registry = JSON.parse(readFileSync(join(root, 'infra/ports.json'), 'utf8')) as {
    services: { name: string; ports: Record<string, number> }[];
  };
  const port = registry.services.find((entry) => entry.name === 'stats')?.ports['grpc'] ?? 50054;
  const address = env['STATS_GRPC_ADDR'] ?? `127.0.0.1:${port}`;
  const client = createGrpcClient(StatsServiceClient, {
    address,
    tls: { caFile: join(pkiDir, 'ca.crt'), certFile: join(pkiDir, 'operator.crt'), keyFile: join(pkiDir, 'operator.key') },
    defaultDeadlineMs: 120_000,
  });
  return { stats: grpcCaller(client, StatsServiceService, { codecs: statsApi }), address, close: () => client.close() };
}

/** Prints one JSON line (the commands' output, for people and scripts alike). */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}
