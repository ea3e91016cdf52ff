/**
 * mTLS identities for integration tests. The test harness (scripts/test/global-setup.ts) makes a
 * PKI with infra/local/pki.sh (the one `make up` uses) and exports its folder as TEST_PKI_DIR,
 * so tests run every gRPC server and client over mutual TLS, as production does.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { loadPackageDefinition, type ChannelCredentials, type Client, type ClientDuplexStream } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
// A CommonJS namespace object: Node's ESM loader sees no named exports in it.
import descriptor from 'protobufjs/ext/descriptor/index.js';
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

interface ReflectionRequest {
  list_services?: string;
  file_containing_symbol?: string;
}

interface ReflectionResponse {
  list_services_response?: { service: { name: string }[] };
  file_descriptor_response?: { file_descriptor_proto: Buffer[] };
  error_response?: { error_code: number; error_message: string };
}

/** One request on a grpc.reflection.v1 stream, asked with our own client (grpcurl is not installed everywhere). */
async function askReflection(address: string, tls: GrpcTlsFiles, request: ReflectionRequest): Promise<ReflectionResponse> {
  const reflectionProto = join(dirname(createRequire(import.meta.url).resolve('@grpc/reflection')), '../proto');
  const definition = loadSync('grpc/reflection/v1/reflection.proto', { includeDirs: [reflectionProto], keepCase: true });
  const grpcPackage = loadPackageDefinition(definition) as unknown as {
    grpc: { reflection: { v1: { ServerReflection: new (address: string, credentials: ChannelCredentials) => Client } } };
  };
  const client = new grpcPackage.grpc.reflection.v1.ServerReflection(address, channelCredentialsFor(tls)) as Client & {
    serverReflectionInfo(): ClientDuplexStream<ReflectionRequest, ReflectionResponse>;
  };
  try {
    const stream = client.serverReflectionInfo();
    const answer = new Promise<ReflectionResponse>((resolve, reject) => {
      stream.once('data', resolve);
      stream.once('error', reject);
    });
    stream.write(request);
    const response = await answer;
    stream.end();
    return response;
  } finally {
    client.close();
  }
}

/**
 * What `grpcurl -cacert ca.crt -cert <identity>.crt -key <identity>.key <address> list` prints:
 * the services a server describes through grpc.reflection.v1.
 */
export async function listServicesByReflection(address: string, tls: GrpcTlsFiles): Promise<string[]> {
  const response = await askReflection(address, tls, { list_services: '' });
  return (response.list_services_response?.service ?? []).map((service) => service.name).sort();
}

/** A descriptor file as reflection serves it, reduced to what `grpcurl describe` needs to resolve types. */
export interface ReflectedFile {
  name: string;
  dependency: string[];
  /** Every message field's type name, e.g. `.google.protobuf.Timestamp` (absolute names resolve). */
  fieldTypeNames: string[];
}

/** The files reflection answers for `file_containing_symbol` (the first step of `grpcurl describe <symbol>`). */
export async function filesContainingSymbol(address: string, tls: GrpcTlsFiles, symbol: string): Promise<ReflectedFile[]> {
  const response = await askReflection(address, tls, { file_containing_symbol: symbol });
  if (response.error_response) throw new Error(`reflection: ${response.error_response.error_message}`);
  return (response.file_descriptor_response?.file_descriptor_proto ?? []).map((bytes) => {
    const file = descriptor.FileDescriptorProto.decode(bytes) as unknown as {
      name: string;
      dependency?: string[];
      messageType?: { field?: { typeName?: string }[] }[];
    };
    return {
      name: file.name,
      dependency: file.dependency ?? [],
      fieldTypeNames: (file.messageType ?? []).flatMap((message) =>
        (message.field ?? []).flatMap((field) => (field.typeName ? [field.typeName] : [])),
      ),
    };
  });
}
