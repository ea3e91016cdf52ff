/**
 * The servers the gRPC benchmark compares, one per process: `SERVER=naive` is a plain
 * @grpc/proto-loader server building message objects per call (what one writes first);
 * `SERVER=echo` answers every call with a fixed small message (the transport's ceiling);
 * `SERVER=replay` answers every BatchLookupCompact with the bytes in REPLAY_FILE, doing no work at all
 * (the ceiling of a client that receives and decodes answers of that size).
 * Each prints "READY <port>".
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { IpInfo, LookupServiceService } from '@ipdata/proto/lookup/v1/lookup';
import { newestDatasetFile } from '../../services/lookup-engine/src/dataset/dataset-store.js';
import { LoadedDataset } from '../../services/lookup-engine/src/dataset/loaded-dataset.js';
import { fastLookupServiceDefinition } from '../../services/lookup-engine/src/grpc/lookup-service.definition.js';
import { toIpInfo } from '../../services/lookup-engine/src/lookup/ip-info.js';
import { protoLoaderLookupService, repoRoot } from './bench-support.js';

const server = new Server();
if (process.env['SERVER'] === 'naive') {
  const LookupService = protoLoaderLookupService();
  const file = newestDatasetFile(process.env['DATASETS_DIR'] ?? join(repoRoot, 'var/datasets'));
  if (file === undefined) throw new Error('no dataset: run make dataset');
  const dataset = LoadedDataset.fromBytes(readFileSync(file));
  server.addService(LookupService.service, {
    BatchLookup: (call: { request: { ips: string[] } }, callback: (error: null, response: unknown) => void) => {
      const now = Date.now();
      callback(null, {
        items: call.request.ips.map((ip) => ({ query: ip, info: toIpInfo(dataset, ip, dataset.resolve(ip), now) })),
      });
    },
  });
} else if (process.env['SERVER'] === 'replay') {
  const answer = readFileSync(process.env['REPLAY_FILE'] ?? '');
  server.addService(fastLookupServiceDefinition, {
    batchLookupCompact: (_call: unknown, callback: (error: null, response: Buffer) => void) => callback(null, answer),
  });
} else {
  const fixed = {
    info: IpInfo.fromPartial({ ip: '192.0.2.1', startIp: '192.0.2.0', endIp: '192.0.2.255', networks: ['192.0.2.0/24'] }),
  };
  server.addService(LookupServiceService, {
    lookup: (_call: unknown, callback: (error: null, response: unknown) => void) => callback(null, fixed),
  });
}
server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, port) => {
  if (error) throw error;
  process.stdout.write(`READY ${port}\n`);
});
process.once('SIGTERM', () => server.forceShutdown());
