import { faceAApi } from '../../api/face-a.api.js';
import type { CallData, IpView } from '../../api/face-a.types.js';

/** The query, ASN, domain, news and VIP pages' calls, added to the one face A API. */
export const moreApi = faceAApi.injectEndpoints({
  endpoints: (build) => ({
    asnList: build.query<CallData<'asn_list_search'>, { keyword?: string; page: number; page_size: number }>({
      query: (fields) => ({ url: '/v1/asn_list_search', fields }),
    }),
    asnRelations: build.query<CallData<'asn_relation_search'>, { asn: string; page: number; page_size: number }>({
      query: (fields) => ({ url: '/v1/asn_relation_search', fields }),
    }),
    v2Query: build.query<IpView, { ip: string }>({
      query: (fields) => ({ url: '/v2/query', fields }),
    }),
    v2QueryDomain: build.query<CallData<'ip_search_domain'>, { domain: string }>({
      query: (fields) => ({ url: '/v2/queryDomain', fields }),
    }),
    domainQuery: build.query<CallData<'ip_search_domain'>, { domain: string }>({
      query: (fields) => ({ url: '/v1/ip_search_domain', fields }),
    }),
    newsList: build.query<CallData<'news_ip_list'>, { product: string; page: number; page_size: number }>({
      query: ({ product, ...fields }) => ({ url: `/v1/news_${product}_list`, fields }),
    }),
    newsDetail: build.query<CallData<'news_ip_detail'>, { product: string; id: string }>({
      query: ({ product, id }) => ({ url: `/v1/news_${product}_detail`, fields: { id } }),
    }),
    vipPlans: build.query<CallData<'vip_plan_list'>, void>({ query: () => ({ url: '/v1/vip_plan_list' }) }),
    vipInfo: build.query<CallData<'vip_info'>, void>({ query: () => ({ url: '/v1/vip_info' }), providesTags: ['User'] }),
    vipOrderAdd: build.mutation<CallData<'vip_order_add'>, { plan_id: string }>({
      query: (fields) => ({ url: '/v1/vip_order_add', fields }),
    }),
  }),
});

export const {
  useV2QueryQuery,
  useV2QueryDomainQuery,
  useAsnListQuery,
  useAsnRelationsQuery,
  useDomainQueryQuery,
  useNewsListQuery,
  useNewsDetailQuery,
  useVipPlansQuery,
  useVipInfoQuery,
  useVipOrderAddMutation,
} = moreApi;
