import { LookupAsnResponse } from '@ipdata/proto/lookup/v1/lookup';
import { describe, expect, it } from 'vitest';
import { ASN_FIELDS, asnView } from './asn.view.js';
import { compileFields } from './field-selector.js';

describe('asnView', () => {
  it('maps every field, snake_case, in ASN_FIELDS order', () => {
    const view = asnView(
      LookupAsnResponse.fromPartial({
        asn: 13335,
        name: 'CLOUDFLARENET',
        organization: 'Cloudflare, Inc.',
        countryCode: 'US',
        usageType: 'CDN',
        ipv4PrefixCount: 2,
        ipv6PrefixCount: 1,
        prefixes: ['1.1.1.0/24', '1.0.0.0/24', '2606:4700::/32'],
        page: 0,
        pageSize: 100,
        totalPrefixes: 3,
      }),
    );
    expect(view).toEqual({
      asn: 13335,
      name: 'CLOUDFLARENET',
      organization: 'Cloudflare, Inc.',
      country_code: 'US',
      usage_type: 'CDN',
      ipv4_prefix_count: 2,
      ipv6_prefix_count: 1,
      prefixes: ['1.1.1.0/24', '1.0.0.0/24', '2606:4700::/32'],
      page: 0,
      page_size: 100,
      total_prefixes: 3,
    });
    expect(Object.keys(view)).toEqual(ASN_FIELDS.map((field) => field.name));
  });

  it('answers null for missing names, never an empty string, and keeps zero counts', () => {
    const view = asnView(LookupAsnResponse.fromPartial({ asn: 64512, page: 2, pageSize: 10 }));
    expect(view).toMatchObject({
      asn: 64512,
      name: null,
      organization: null,
      country_code: null,
      usage_type: null,
      ipv4_prefix_count: 0,
      prefixes: [],
      page: 2,
      page_size: 10,
      total_prefixes: 0,
    });
  });

  it('works with fields= against ASN_FIELDS', () => {
    const view = asnView(LookupAsnResponse.fromPartial({ asn: 13335, name: 'CLOUDFLARENET', prefixes: ['1.1.1.0/24'] }));
    expect(compileFields('name,asn', ASN_FIELDS).apply(view)).toEqual({ asn: 13335, name: 'CLOUDFLARENET' });
    expect(Object.keys(compileFields('-prefixes', ASN_FIELDS).apply(view))).not.toContain('prefixes');
  });
});
