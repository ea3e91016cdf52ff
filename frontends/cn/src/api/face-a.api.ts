import { createApi } from '@reduxjs/toolkit/query/react';
import { createFaceABaseQuery, type DownloadedFile } from './base-query.js';
import type { IpView, Notice, SignedIn, SmsSent, UserInfo, WebInit } from './face-a.types.js';

/** Batch files can take longer than an ordinary call's 10 s to be computed and sent. */
const DOWNLOAD_TIMEOUT_MS = 120_000;

export type SmsCodeType = 'register' | 'login' | 'reset_password' | 'cooperation';

/**
 * The one RTK Query API of face A: every `/v1` and `/v2` call of bff-cn
 * (services/bff-cn/openapi/face-a.yaml). Pages add their calls with injectEndpoints.
 */
export const faceAApi = createApi({
  reducerPath: 'faceAApi',
  baseQuery: createFaceABaseQuery(),
  tagTypes: ['User', 'Notice'],
  endpoints: (build) => ({
    webInit: build.query<WebInit, void>({ query: () => ({ url: '/v1/web_init' }) }),
    ipSelfSearch: build.query<IpView, void>({ query: () => ({ url: '/v1/ip_self_search' }) }),
    userInfo: build.query<UserInfo, void>({ query: () => ({ url: '/v1/user_info' }), providesTags: ['User'] }),
    ipSearchZone: build.query<IpView, { ip: string }>({ query: (fields) => ({ url: '/v1/ip_search_zone', fields }) }),
    getNotice: build.query<Notice[], { page_size?: number }>({
      query: (fields) => ({ url: '/v1/get_notice', fields }),
      providesTags: ['Notice'],
    }),
    sendSmsCode: build.mutation<SmsSent, { phone: string; type: SmsCodeType }>({
      query: (fields) => ({ url: '/v1/send_sms_code', fields }),
    }),
    phoneLogin: build.mutation<SignedIn, { phone: string; password: string; remember?: boolean }>({
      query: ({ remember, ...fields }) => ({ url: '/v1/phone_login', fields: { ...fields, remember: remember ? 1 : 0 } }),
      invalidatesTags: ['User'],
    }),
    userLoginPhoneCode: build.mutation<SignedIn, { phone: string; code: string; remember?: boolean }>({
      query: ({ remember, ...fields }) => ({
        url: '/v1/user_login_phone_code',
        fields: { ...fields, remember: remember ? 1 : 0 },
      }),
      invalidatesTags: ['User'],
    }),
    userRegis: build.mutation<SignedIn, { phone: string; code: string; password: string }>({
      query: (fields) => ({ url: '/v1/user_regis', fields }),
      invalidatesTags: ['User'],
    }),
    queryIpBatchZone: build.mutation<DownloadedFile, { ips: string }>({
      query: (fields) => ({ url: '/v1/query_ip_batch_zone', fields, timeoutMs: DOWNLOAD_TIMEOUT_MS }),
    }),
    uploadIpXlsx: build.mutation<DownloadedFile, { file: File }>({
      query: (fields) => ({ url: '/v1/upload_ip_xlsx', fields, timeoutMs: DOWNLOAD_TIMEOUT_MS }),
    }),
  }),
});

export const {
  useWebInitQuery,
  useIpSelfSearchQuery,
  useUserInfoQuery,
  useIpSearchZoneQuery,
  useLazyIpSearchZoneQuery,
  useGetNoticeQuery,
  useSendSmsCodeMutation,
  usePhoneLoginMutation,
  useUserLoginPhoneCodeMutation,
  useUserRegisMutation,
  useQueryIpBatchZoneMutation,
  useUploadIpXlsxMutation,
} = faceAApi;
