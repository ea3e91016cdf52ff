import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/load-config.js';
import { assertGrpcTransportAllowed, grpcServerConfigFrom, grpcServerEnv, grpcTransportProblems } from './grpc-env.js';

describe('gRPC env', () => {
  it('defaults to mutual TLS on loopback with the service certificate and a 1 MiB limit', () => {
    const config = loadConfig(grpcServerEnv('billing'), {});
    expect(config.GRPC_TRANSPORT).toBe('mtls');
    expect(grpcServerConfigFrom({ ...config, GRPC_PORT: 50053 })).toEqual({
      host: '127.0.0.1',
      port: 50053,
      tls: { caFile: 'var/stack/pki/ca.crt', certFile: 'var/stack/pki/billing.crt', keyFile: 'var/stack/pki/billing.key' },
      maxReceiveMessageBytes: 1024 * 1024,
    });
  });

  it('takes the files, interface and limit from the environment (Kubernetes: cert-manager secrets, 0.0.0.0)', () => {
    const config = loadConfig(grpcServerEnv('auth'), {
      GRPC_HOST: '0.0.0.0',
      GRPC_TLS_CA_FILE: '/etc/grpc-tls/ca.crt',
      GRPC_TLS_CERT_FILE: '/etc/grpc-tls/tls.crt',
      GRPC_TLS_KEY_FILE: '/etc/grpc-tls/tls.key',
      GRPC_MAX_RECEIVE_MESSAGE_BYTES: '65536',
    });
    expect(grpcServerConfigFrom({ ...config, GRPC_PORT: 50052 })).toMatchObject({
      host: '0.0.0.0',
      tls: { caFile: '/etc/grpc-tls/ca.crt', certFile: '/etc/grpc-tls/tls.crt', keyFile: '/etc/grpc-tls/tls.key' },
      maxReceiveMessageBytes: 65536,
    });
  });

  it('allows the insecure transport only when APP_ENV is development or test', () => {
    const insecure = { GRPC_TRANSPORT: 'insecure' as const };
    expect(grpcTransportProblems(insecure, { APP_ENV: 'test' })).toEqual([]);
    expect(grpcTransportProblems(insecure, { APP_ENV: 'development' })).toEqual([]);
    expect(grpcTransportProblems(insecure, { APP_ENV: 'production' })).toHaveLength(1);
    expect(grpcTransportProblems(insecure, {})).toEqual([
      'GRPC_TRANSPORT: "insecure" (no TLS, no caller check) is refused unless APP_ENV is development or test (got unset)',
    ]);
    expect(grpcTransportProblems(insecure, { APP_ENV: 'test', NODE_ENV: 'production' })).toHaveLength(1);
    expect(grpcTransportProblems({ GRPC_TRANSPORT: 'mtls' }, {})).toEqual([]);
    expect(() => assertGrpcTransportAllowed(insecure, { APP_ENV: 'production' })).toThrow(ConfigError);
  });
});
