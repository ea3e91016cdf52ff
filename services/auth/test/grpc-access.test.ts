import { AuthServiceClient } from '@ipdata/proto/auth/v1/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermissionDeniedError, callUnary, createGrpcClient, type GrpcIdentity } from '@ipdata/common';
import { listServicesByReflection, testGrpcTls } from '@ipdata/common/testing';
import { AuthHarness } from './fixtures/auth-harness.js';

/** Internal gRPC trusts no caller: issue 10 "Internal gRPC trusts every caller". */
describe('auth gRPC access policy (mutual TLS)', () => {
  const auth = new AuthHarness();
  const clients: AuthServiceClient[] = [];
  const clientAs = (identity: GrpcIdentity) => {
    const client = createGrpcClient(AuthServiceClient, { address: auth.service.grpc.boundAddress, tls: testGrpcTls(identity) });
    clients.push(client);
    return client;
  };

  beforeAll(() => auth.start(), 60_000);
  afterAll(async () => {
    for (const client of clients) client.close();
    await auth.stop();
  });

  it('listens on loopback by default', () => {
    expect(auth.service.grpc.boundAddress).toBe(`127.0.0.1:${auth.service.grpc.boundPort}`);
  });

  it('lets operator list services by reflection but not create an API key', async () => {
    expect(await listServicesByReflection(auth.service.grpc.boundAddress, testGrpcTls('operator'))).toEqual([
      'grpc.health.v1.Health',
      'ipdata.auth.v1.AuthService',
    ]);
    const operator = clientAs('operator');
    const call = callUnary(operator.createApiKey.bind(operator), { token: 'whatever', name: 'x' });
    await expect(call).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(call).rejects.toThrow('caller "operator" may not call /ipdata.auth.v1.AuthService/CreateApiKey');
  });

  it('keeps each BFF to its face and back-end services out', async () => {
    const faceA = clientAs('bff-cn');
    await expect(callUnary(faceA.resolveApiKey.bind(faceA), { key: 'k' })).rejects.toThrow(
      'caller "bff-cn" may not call /ipdata.auth.v1.AuthService/ResolveApiKey',
    );
    const billing = clientAs('billing');
    await expect(callUnary(billing.getUser.bind(billing), { token: 't' })).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it('answers an allowed BFF', async () => {
    const faceB = clientAs('bff-en');
    // Reaches the handler: an unknown session is the domain's answer, not the policy's.
    await expect(callUnary(faceB.resolveSession.bind(faceB), { token: 'no-such-token' })).rejects.toMatchObject({
      kind: 'unauthenticated',
      reason: 'session_invalid',
    });
  });
});
