import { readFileSync } from 'node:fs';
import type { PeerCertificate } from 'node:tls';
import { credentials, ServerCredentials, type ChannelCredentials } from '@grpc/grpc-js';
import type { GrpcTls, GrpcTlsFiles } from './grpc-env.js';

interface TlsMaterial {
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
}

function readPem(what: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    // The path is config, not a secret; the reason (ENOENT, EACCES) is what an operator needs.
    const reason = error instanceof Error && 'code' in error ? String(error.code) : 'unreadable';
    throw new Error(`cannot read the gRPC TLS ${what} file ${path} (${reason}): see GRPC_TLS_* in services/common/README.md`, {
      cause: error,
    });
  }
}

function readTlsFiles(files: GrpcTlsFiles): TlsMaterial {
  return {
    ca: readPem('CA', files.caFile),
    cert: readPem('certificate', files.certFile),
    key: readPem('key', files.keyFile),
  };
}

/**
 * Server side of mutual TLS: the handshake fails for a caller without a certificate or with one
 * our CA did not sign, before any gRPC call exists. Files are read once at start; cert-manager
 * renews long before expiry and a rollout picks the new files up.
 */
export function serverCredentialsFor(tls: GrpcTls): ServerCredentials {
  if (tls === 'insecure') return ServerCredentials.createInsecure();
  const { ca, cert, key } = readTlsFiles(tls);
  return ServerCredentials.createSsl(ca, [{ cert_chain: cert, private_key: key }], true);
}

/** Client side: our certificate proves who we are; the server's must come from the same CA and name the host we dialled. */
export function channelCredentialsFor(tls: GrpcTls): ChannelCredentials {
  if (tls === 'insecure') return credentials.createInsecure();
  const { ca, cert, key } = readTlsFiles(tls);
  return credentials.createSsl(ca, key, cert);
}

/**
 * The caller's service name: the Subject CN of its client certificate (cert-manager:
 * `spec.commonName`; infra/local/pki.sh: CN=<service>). The CN, not a SAN, because SANs list
 * host names (localhost, 127.0.0.1) that several services share, while the CN is one name.
 */
export function callerIdentity(certificate: PeerCertificate | undefined): string | undefined {
  const cn: unknown = certificate?.subject?.CN;
  // A subject with two CNs is ambiguous: no identity rather than a guess.
  return typeof cn === 'string' && cn.length > 0 ? cn : undefined;
}
