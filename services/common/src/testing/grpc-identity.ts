/**
 * mTLS identities for integration tests. The test harness (scripts/test/global-setup.ts) makes a
 * PKI with infra/local/pki.sh (the one `make up` uses) and exports its folder as TEST_PKI_DIR,
 * so tests run every gRPC server and client over mutual TLS, as production does.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { loadPackageDefinition, type ChannelCredentials, type Client, type ClientDuplexStream } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import type { GrpcTlsFiles } from '../grpc/grpc-env.js';
import { channelCredentialsFor } from '../grpc/grpc-tls.js';

/** The folder of the test PKI (ca.crt, <identity>.crt/.key). */
export function testPkiDir(): string {
  const dir = process.env['TEST_PKI_DIR'];
  if (!dir)
    throw new Error(
      'TEST_PKI_DIR is not set: run integration tests through vitest (scripts/test/global-setup.ts makes the test PKI)',
    );
  return dir;
}

/**
 * The TLS files of one identity (`'lookup-engine'`, `'bff-en'`, `'operator'`, ...): pass them as
 * `tls` to GrpcServer.fromConfig (the server's own identity) or createGrpcClient (the caller's).
 */
export function testGrpcTls(identity: string, dir: string = testPkiDir()): GrpcTlsFiles {
  return { caFile: join(dir, 'ca.crt'), certFile: join(dir, `${identity}.crt`), keyFile: join(dir, `${identity}.key`) };
}

/** The same files as the GRPC_TLS_* variables a service's config reads (spread into its config source). */
export function testGrpcEnv(identity: string, dir: string = testPkiDir()): Record<string, string> {
  const tls = testGrpcTls(identity, dir);
  return {
    GRPC_TRANSPORT: 'mtls',
    GRPC_TLS_CA_FILE: tls.caFile,
    GRPC_TLS_CERT_FILE: tls.certFile,
    GRPC_TLS_KEY_FILE: tls.keyFile,
  };
}

type ReflectionStream = ClientDuplexStream<
  { list_services: string },
  { list_services_response?: { service: { name: string }[] } }
>;

/**
 * What `grpcurl -cacert ca.crt -cert <identity>.crt -key <identity>.key <address> list` prints:
 * the services a server describes through grpc.reflection.v1, asked with our own client (grpcurl
 * is not installed everywhere).
 */
export async function listServicesByReflection(address: string, tls: GrpcTlsFiles): Promise<string[]> {
  const reflectionProto = join(dirname(createRequire(import.meta.url).resolve('@grpc/reflection')), '../proto');
  const definition = loadSync('grpc/reflection/v1/reflection.proto', { includeDirs: [reflectionProto], keepCase: true });
  const grpcPackage = loadPackageDefinition(definition) as unknown as {
    grpc: { reflection: { v1: { ServerReflection: new (address: string, credentials: ChannelCredentials) => Client } } };
  };
  const credentials = channelCredentialsFor(tls);
  const client = new grpcPackage.grpc.reflection.v1.ServerReflection(address, credentials) as Client & {
    serverReflectionInfo(): ReflectionStream;
  };
  try {
    const stream = client.serverReflectionInfo();
    const answer = new Promise<string[]>((resolve, reject) => {
      stream.once('data', (response: { list_services_response?: { service: { name: string }[] } }) =>
        resolve((response.list_services_response?.service ?? []).map((service) => service.name).sort()),
      );
      stream.once('error', reject);
    });
    stream.write({ list_services: '' });
    const names = await answer;
    stream.end();
    return names;
  } finally {
    client.close();
  }
}
