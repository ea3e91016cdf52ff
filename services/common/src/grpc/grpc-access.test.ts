import { readFileSync } from 'node:fs';
import { status } from '@grpc/grpc-js';
import { LookupServiceService } from '@ipdata/proto/lookup/v1/lookup';
import { describe, expect, it } from 'vitest';
import { GRPC_IDENTITIES, accessDecision, defineAccessPolicy, mergeAccessPolicies } from './grpc-access.js';

describe('access policy', () => {
  const policy = defineAccessPolicy(LookupServiceService, {
    lookup: ['bff-en', 'operator'],
    batchLookup: ['bff-en'],
    batchLookupCompact: ['bff-en'],
    batchLookupCompactStream: ['bff-en'],
    lookupAsn: [],
    getDatasetInfo: ['operator'],
    getDatasetStatistics: [],
    listIdcOrganizations: [],
    listDatasetStatistics: [],
    searchAsns: [],
    getAsnRelations: [],
    explainAddress: [],
  });

  it('allows listed callers and refuses every other known or unknown name, naming the method', () => {
    expect(accessDecision(policy, '/ipdata.lookup.v1.LookupService/Lookup', 'operator')).toBeUndefined();
    expect(accessDecision(policy, '/ipdata.lookup.v1.LookupService/BatchLookup', 'operator')).toEqual({
      code: status.PERMISSION_DENIED,
      details: 'caller "operator" may not call /ipdata.lookup.v1.LookupService/BatchLookup',
    });
    expect(accessDecision(policy, '/ipdata.lookup.v1.LookupService/LookupAsn', 'bff-en')?.code).toBe(status.PERMISSION_DENIED);
    expect(accessDecision(policy, '/ipdata.lookup.v1.LookupService/Lookup', 'mallory')?.code).toBe(status.PERMISSION_DENIED);
  });

  it('refuses methods the policy does not name (default deny)', () => {
    expect(accessDecision(policy, '/ipdata.billing.v1.BillingService/Subscribe', 'bff-en')?.code).toBe(status.PERMISSION_DENIED);
  });

  it('opens health and reflection to any authenticated caller, and nothing to a certificate without a name', () => {
    expect(accessDecision(policy, '/grpc.health.v1.Health/Check', 'stats')).toBeUndefined();
    expect(accessDecision(policy, '/grpc.reflection.v1.ServerReflection/ServerReflectionInfo', 'operator')).toBeUndefined();
    expect(accessDecision(policy, '/grpc.health.v1.Health/Check', undefined)?.code).toBe(status.UNAUTHENTICATED);
  });

  it('merges the policies of several services on one server', () => {
    const other = new Map([['/x.v1.Other/Do', new Set(['stats'])]]);
    const merged = mergeAccessPolicies(policy, other);
    expect(accessDecision(merged, '/x.v1.Other/Do', 'stats')).toBeUndefined();
    expect(accessDecision(merged, '/ipdata.lookup.v1.LookupService/Lookup', 'bff-en')).toBeUndefined();
  });

  it('knows exactly the identities infra/local/pki.sh issues', () => {
    const script = readFileSync(new URL('../../../../infra/local/pki.sh', import.meta.url), 'utf8');
    const issued = /^IDENTITIES=\(([^)]*)\)/m.exec(script)?.[1]?.split(/\s+/).filter(Boolean);
    expect(issued).toEqual([...GRPC_IDENTITIES]);
  });
});
