import type { ExplainAddressResponse } from '@ipdata/proto/lookup/v1/lookup';

/** The lookup engine's ExplainAddress (adapters/grpc/explain.adapter.ts). */
export interface AddressExplainer {
  /** One canonical, non-reserved address; rejects with a DomainError (UnavailableError when down). */
  explain(ip: string): Promise<ExplainAddressResponse>;
}

/** Reverse DNS (PTR) names of an address (services/common's resolver once wired). */
export interface ReverseDns {
  /** The PTR names, [] when there are none; rejects when the lookup itself failed (timeout, server failure). */
  reverse(ip: string): Promise<string[]>;
}
