import type { components, operations } from './generated/web-api.openapi.js';

type SuccessStatus<O> = O extends { responses: infer R } ? Extract<keyof R, 200 | 201> : never;
type SuccessBody<O> = O extends { responses: infer R }
  ? R[SuccessStatus<O> & keyof R] extends { content: { 'application/json': infer B } }
    ? B
    : never
  : never;

/** The `data` of an operation's success answer, from bff-en's web API document. */
export type WebData<Op extends keyof operations> = NonNullable<
  SuccessBody<operations[Op]> extends { data?: infer D } ? D : never
>;

/** The JSON body an operation takes. */
export type WebBody<Op extends keyof operations> = operations[Op] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

export type Profile = components['schemas']['Profile'];
export type Plan = components['schemas']['Plan'];
export type ApiKey = components['schemas']['ApiKey'];
export type IpInfo = components['schemas']['IpInfo'];
export type Subscription = components['schemas']['Subscription'];
export type Invoice = components['schemas']['Invoice'];
/** The dashboard's usage, with the time it arrived (ms since the epoch). */
export type UsageAnswer = WebData<'getUsage'> & { answeredAt: number };
export type UsagePoint = WebData<'getUsage'>['series'][number];
export type DatabaseFile = WebData<'listDatabases'>['databases'][number];
export type DownloadRecord = WebData<'listDownloadHistory'>['downloads'][number];
