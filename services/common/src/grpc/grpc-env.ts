import { env } from '../config/env-vars.js';
import { ConfigError } from '../config/load-config.js';

/** The files of one mutual-TLS identity (PEM): the CA that signs every peer, our certificate and key. */
export interface GrpcTlsFiles {
  caFile: string;
  certFile: string;
  keyFile: string;
}

/**
 * How a gRPC server or client secures its connections: mutual TLS from files, or `'insecure'`
 * (plaintext, no caller identity, no access policy), which only APP_ENV=development or test
 * may choose (`assertGrpcTransportAllowed`).
 */
export type GrpcTls = GrpcTlsFiles | 'insecure';

/** Default receive limit of every server and client: gRPC's own 4 MiB (and our old 16 MiB) invite memory abuse. */
export const DEFAULT_MAX_RECEIVE_MESSAGE_BYTES = 1024 * 1024;

/**
 * Variables of a service that calls or serves gRPC. The files default to the local stack's PKI
 * (`infra/local/pki.sh`, var/stack/pki/<service>.crt); `make up` and Kubernetes (cert-manager
 * secrets) set them explicitly. GRPC_TRANSPORT=insecure must be asked for by name.
 */
export function grpcTlsEnv(service: string) {
  return {
    GRPC_TRANSPORT: env.oneOf(['mtls', 'insecure'], 'mtls'),
    GRPC_TLS_CA_FILE: env.string({ default: 'var/stack/pki/ca.crt', expected: 'a PEM file path' }),
    GRPC_TLS_CERT_FILE: env.string({ default: `var/stack/pki/${service}.crt`, expected: 'a PEM file path' }),
    GRPC_TLS_KEY_FILE: env.string({ default: `var/stack/pki/${service}.key`, expected: 'a PEM file path' }),
  };
}

/** grpcTlsEnv plus what a server needs: the interface to bind (loopback unless told) and its receive limit. */
export function grpcServerEnv(service: string) {
  return {
    ...grpcTlsEnv(service),
    /** 127.0.0.1 keeps a local stack off the network; Kubernetes sets 0.0.0.0 (the pod's interfaces). */
    GRPC_HOST: env.string({ default: '127.0.0.1', expected: 'an interface address (127.0.0.1, 0.0.0.0, ::)' }),
    GRPC_MAX_RECEIVE_MESSAGE_BYTES: env.int({ min: 4096, max: 64 * 1024 * 1024, default: DEFAULT_MAX_RECEIVE_MESSAGE_BYTES }),
  };
}

interface GrpcTlsVars {
  readonly GRPC_TRANSPORT: 'mtls' | 'insecure';
  readonly GRPC_TLS_CA_FILE: string;
  readonly GRPC_TLS_CERT_FILE: string;
  readonly GRPC_TLS_KEY_FILE: string;
}

interface GrpcServerVars extends GrpcTlsVars {
  readonly GRPC_HOST: string;
  readonly GRPC_PORT: number;
  readonly GRPC_MAX_RECEIVE_MESSAGE_BYTES: number;
}

/**
 * Plaintext gRPC is for benchmarks and throwaway setups only: allowed when APP_ENV is
 * explicitly development or test (unset counts as production, as in auth's config), and never
 * with NODE_ENV=production.
 */
export function grpcTransportProblems(
  config: Pick<GrpcTlsVars, 'GRPC_TRANSPORT'>,
  source: NodeJS.ProcessEnv = process.env,
): string[] {
  if (config.GRPC_TRANSPORT !== 'insecure') return [];
  const appEnv = source['APP_ENV'];
  if ((appEnv === 'development' || appEnv === 'test') && source['NODE_ENV'] !== 'production') return [];
  return [
    `GRPC_TRANSPORT: "insecure" (no TLS, no caller check) is refused unless APP_ENV is development or test (got ${appEnv ?? 'unset'})`,
  ];
}

/** Throws the ConfigError of grpcTransportProblems; for a service's load*Config after loadConfig. */
export function assertGrpcTransportAllowed(
  config: Pick<GrpcTlsVars, 'GRPC_TRANSPORT'>,
  source: NodeJS.ProcessEnv = process.env,
): void {
  const problems = grpcTransportProblems(config, source);
  if (problems.length > 0) throw new ConfigError(problems);
}

/** The `tls` option of createGrpcClient / GrpcServer.fromConfig from the parsed variables. */
export function grpcTlsFromConfig(config: GrpcTlsVars): GrpcTls {
  if (config.GRPC_TRANSPORT === 'insecure') return 'insecure';
  return { caFile: config.GRPC_TLS_CA_FILE, certFile: config.GRPC_TLS_CERT_FILE, keyFile: config.GRPC_TLS_KEY_FILE };
}

/** host, port, tls and receive limit for GrpcServer.fromConfig; the service adds its policy. */
export function grpcServerConfigFrom(config: GrpcServerVars) {
  return {
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    tls: grpcTlsFromConfig(config),
    maxReceiveMessageBytes: config.GRPC_MAX_RECEIVE_MESSAGE_BYTES,
  };
}
