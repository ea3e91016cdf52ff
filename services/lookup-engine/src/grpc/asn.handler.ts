import { unary, type Logger } from '@ipdata/common';
import type {
  GetAsnRelationsRequest,
  GetAsnRelationsResponse,
  SearchAsnsRequest,
  SearchAsnsResponse,
} from '@ipdata/proto/lookup/v1/lookup';
import { asnRelations, searchAsns } from '../asn/asn-queries.js';
import type { DatasetStore } from '../dataset/dataset-store.js';

/** gRPC handlers of the ASN search and relations (src/asn): thin over the dataset in service. */
export function asnHandlers(store: DatasetStore, logger: Logger) {
  return {
    searchAsns: unary<SearchAsnsRequest, SearchAsnsResponse>(logger, 'SearchAsns', async (request) =>
      searchAsns(store.current().dataset.view, request),
    ),
    getAsnRelations: unary<GetAsnRelationsRequest, GetAsnRelationsResponse>(logger, 'GetAsnRelations', async (request) =>
      asnRelations(store.current().dataset.view, request),
    ),
  };
}
