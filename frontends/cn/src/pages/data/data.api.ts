import { faceAApi } from '../../api/face-a.api.js';
import type { CallData, CallForm } from '../../api/face-a.types.js';

/** The statistics and directory pages' calls, added to the one face A API. */
export const dataApi = faceAApi.injectEndpoints({
  endpoints: (build) => ({
    chinaProvinceCount: build.query<CallData<'china_province_count'>, void>({
      query: () => ({ url: '/v1/china_province_count' }),
    }),
    chinaProvinceUpdate: build.query<CallData<'china_province_update'>, void>({
      query: () => ({ url: '/v1/china_province_update' }),
    }),
    chinaProvinceTrend: build.query<CallData<'china_province_trend'>, { days?: number; province?: string }>({
      query: (fields) => ({ url: '/v1/china_province_trend', fields }),
    }),
    globalIpTotal: build.query<CallData<'global_ip_total'>, void>({
      query: () => ({ url: '/v1/global_ip_total' }),
    }),
    globalCountryCount: build.query<CallData<'global_country_count'>, { page?: number; page_size?: number }>({
      query: (fields) => ({ url: '/v1/global_country_count', fields }),
    }),
    globalCountryTrend: build.query<CallData<'global_country_trend'>, { days?: number; country?: string }>({
      query: (fields) => ({ url: '/v1/global_country_trend', fields }),
    }),
    idcProvinces: build.query<CallData<'idc_prov_list'>, void>({
      query: () => ({ url: '/v1/idc_prov_list' }),
    }),
    idcList: build.query<CallData<'idc_list'>, Partial<CallForm<'idc_list'>>>({
      query: (fields) => ({ url: '/v1/idc_list', fields }),
    }),
  }),
});

export const {
  useChinaProvinceCountQuery,
  useChinaProvinceUpdateQuery,
  useChinaProvinceTrendQuery,
  useGlobalIpTotalQuery,
  useGlobalCountryCountQuery,
  useGlobalCountryTrendQuery,
  useIdcProvincesQuery,
  useIdcListQuery,
} = dataApi;
