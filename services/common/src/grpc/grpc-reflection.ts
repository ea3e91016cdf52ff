import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { protoPath as healthProtoPath } from 'grpc-health-check';

/**
 * The folder holding `ipdata/<area>/v1/*.proto`: the @ipdata/proto workspace package, found
 * by walking up from this file to its node_modules (the same from src/ under tsx and from
 * dist/), so a service image needs the package's .proto files beside its generated code.
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

/** `ipdata.lookup.v1.LookupService` → the .proto files of package ipdata.lookup.v1 (relative to the root). */
function packageFiles(root: string, serviceName: string): string[] {
  const packagePath = serviceName.split('.').slice(0, -1).join('/');
  const folder = join(root, packagePath);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith('.proto'))
    .map((name) => `${packagePath}/${name}`);
}

/**
 * Adds grpc.reflection (v1 and v1alpha) describing the given services and grpc.health.v1, so
 * `grpcurl ... list` and `describe` work without proto files. Returns the services it could
 * describe (a service whose package has no .proto under @ipdata/proto is left out).
 */
export function addReflection(server: Pick<Server, 'addService'>, serviceNames: readonly string[]): string[] {
  const root = protoRoot();
  const healthRoot = resolve(dirname(healthProtoPath), '../..');
  const files = root === undefined ? [] : [...new Set(serviceNames.flatMap((name) => packageFiles(root, name)))];
  const definition = loadSync([...files, 'health/v1/health.proto'], {
    includeDirs: [...(root === undefined ? [] : [root]), healthRoot],
    keepCase: true,
  });
  const described = serviceNames.filter((name) => name in definition);
  new ReflectionService(definition, { services: [...described, 'grpc.health.v1.Health'] }).addToServer(server);
  return described;
}
