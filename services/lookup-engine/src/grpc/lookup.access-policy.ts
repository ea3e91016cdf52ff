import { defineAccessPolicy } from '@ipdata/common';
import { LookupServiceService } from '@ipdata/proto/lookup/v1/lookup';

/**
 * Who may call the lookup engine (identity = client certificate CN, see services/common/README.md
 * "gRPC"). The BFFs serve every lookup of both faces (root README, Architecture); operator gets
 * every method because all of them are read-only lookups and dataset info. Back-end services
 * react to events and have no entry here.
 */
const LOOKUP_CALLERS = ['bff-en', 'bff-cn', 'operator'] as const;

export const lookupAccessPolicy = defineAccessPolicy(LookupServiceService, {
  lookup: LOOKUP_CALLERS,
  batchLookup: LOOKUP_CALLERS,
  batchLookupCompact: LOOKUP_CALLERS,
  batchLookupCompactStream: LOOKUP_CALLERS,
  lookupAsn: LOOKUP_CALLERS,
  getDatasetInfo: LOOKUP_CALLERS,
  // Face A's statistics and IDC pages (bff-cn); bff-en may show the same figures.
  getDatasetStatistics: LOOKUP_CALLERS,
  listIdcOrganizations: LOOKUP_CALLERS,
  listDatasetStatistics: LOOKUP_CALLERS,
  // Face A's ASN pages and IP reports (bff-cn); bff-en may offer the same.
  searchAsns: LOOKUP_CALLERS,
  getAsnRelations: LOOKUP_CALLERS,
  explainAddress: LOOKUP_CALLERS,
});
