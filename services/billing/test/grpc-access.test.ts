import { randomUUID } from 'node:crypto';
import { BillingServiceClient, ListPlansRequest } from '@ipdata/proto/billing/v1/billing';
import { SubscriptionKind } from '@ipdata/proto/events/v1/billing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermissionDeniedError, callUnary, createGrpcClient, type GrpcIdentity } from '@ipdata/common';
import { listServicesByReflection, testGrpcTls } from '@ipdata/common/testing';
import { BillingHarness, RETURN_URL } from './fixtures/billing-harness.js';

/**
 * Issue 10 "Internal gRPC trusts every caller": Subscribe and Cancel for a made-up account
 * were accepted from anyone who could reach the port. Now only the BFFs' certificates may.
 */
describe('billing gRPC access policy (mutual TLS)', () => {
  const harness = new BillingHarness();
  const clients: BillingServiceClient[] = [];
  const address = () => `127.0.0.1:${harness.service.ports().grpc}`;
  const clientAs = (identity: GrpcIdentity) => {
    const client = createGrpcClient(BillingServiceClient, { address: address(), tls: testGrpcTls(identity) });
    clients.push(client);
    return client;
  };

  beforeAll(() => harness.start(), 90_000);
  afterAll(async () => {
    for (const client of clients) client.close();
    await harness.stop();
  });

  it('lets operator list services by reflection and read the plan catalogue', async () => {
    expect(await listServicesByReflection(address(), testGrpcTls('operator'))).toEqual([
      'grpc.health.v1.Health',
      'ipdata.billing.v1.BillingService',
    ]);
    const operator = clientAs('operator');
    expect(
      (await callUnary(operator.listPlans.bind(operator), ListPlansRequest.fromPartial({}))).plans.map((plan) => plan.id),
    ).toContain('api-free');
  });

  it('refuses Subscribe and CancelSubscription to operator and to back-end services, and changes nothing', async () => {
    const accountId = randomUUID();
    for (const identity of ['operator', 'stats', 'auth'] as const) {
      const caller = clientAs(identity);
      const subscribe = callUnary(caller.subscribe.bind(caller), {
        accountId,
        planId: 'api-standard-monthly',
        returnUrl: RETURN_URL,
      });
      await expect(subscribe).rejects.toBeInstanceOf(PermissionDeniedError);
      await expect(subscribe).rejects.toThrow(`caller "${identity}" may not call /ipdata.billing.v1.BillingService/Subscribe`);
      await expect(
        callUnary(caller.cancelSubscription.bind(caller), { accountId, kind: SubscriptionKind.SUBSCRIPTION_KIND_API_ACCESS }),
      ).rejects.toThrow(`caller "${identity}" may not call /ipdata.billing.v1.BillingService/CancelSubscription`);
    }
    // Nothing reached the domain: the account still has no order.
    expect((await harness.api.listOrders({ accountId })).orders).toEqual([]);
  });

  it('answers the BFFs', async () => {
    for (const identity of ['bff-en', 'bff-cn'] as const) {
      const bff = clientAs(identity);
      expect((await callUnary(bff.listPlans.bind(bff), ListPlansRequest.fromPartial({}))).plans.length).toBeGreaterThan(0);
    }
  });
});
