import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from '@grpc/grpc-js';
import { loadSync, type PackageDefinition } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { protoPath as healthProtoPath } from 'grpc-health-check';
// A CommonJS namespace object: Node's ESM loader sees no named exports in it.
import descriptor from 'protobufjs/ext/descriptor/index.js';

/**
 * The folder holding `ipdata/<area>/v1/*.proto`: the @ipdata/proto workspace package, found
 * by walking up from this file to its node_modules (the same from src/ under tsx and from
 * dist/), so a service image needs the package's gen/descriptors.binpb beside its generated code.
 */
function protoRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'node_modules', '@ipdata', 'proto');
    if (existsSync(join(candidate, 'ipdata'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The contracts as buf compiled them (`make proto` writes proto/gen/descriptors.binpb): every file
 * with its imports (google/protobuf/timestamp.proto, the events package) and fully qualified type
 * names. Descriptors rebuilt by proto-loader carry relative type names and no imports, which
 * grpcurl cannot resolve (grpc/grpc-node#2958), so they are used for grpc.health.v1 only.
 */
function contractDescriptors(root: string | undefined): Uint8Array[] {
  const file = root === undefined ? undefined : join(root, 'gen', 'descriptors.binpb');
  if (file === undefined || !existsSync(file)) return [];
  const set = descriptor.FileDescriptorSet.decode(readFileSync(file)) as unknown as { file: object[] };
  return set.file.map((proto) => descriptor.FileDescriptorProto.encode(proto).finish());
}

/**
 * Adds grpc.reflection (v1 and v1alpha) describing the given services and grpc.health.v1, so
 * `grpcurl ... list`, `describe` and calls work without proto files. Returns the services it could
 * describe (a service missing from the descriptor set is left out).
 */
export function addReflection(server: Pick<Server, 'addService'>, serviceNames: readonly string[]): string[] {
  const contracts = contractDescriptors(protoRoot());
  const health = loadSync('health/v1/health.proto', {
    includeDirs: [resolve(dirname(healthProtoPath), '../..')],
    keepCase: true,
  });
  const described = serviceNames.filter((name) => contracts.some((bytes) => fileDeclaresService(bytes, name)));
  // ReflectionService reads `fileDescriptorProtos` from every entry of the definition it is given.
  const definition = { ...health, 'ipdata.contracts': { fileDescriptorProtos: contracts } } as unknown as PackageDefinition;
  new ReflectionService(definition, { services: [...described, 'grpc.health.v1.Health'] }).addToServer(server);
  return described;
}

function fileDeclaresService(bytes: Uint8Array, serviceName: string): boolean {
  const file = descriptor.FileDescriptorProto.decode(bytes) as unknown as { package?: string; service?: { name?: string }[] };
  return (file.service ?? []).some((service) => `${file.package}.${service.name}` === serviceName);
}
