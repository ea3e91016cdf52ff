// Shapes of face A's answers and forms, generated from bff-cn's OpenAPI document
// (services/bff-cn/openapi/face-a.yaml → generated/face-a.openapi.ts): the app and the server
// share one contract. Pages take what they need as `Schema<'Name'>` or a named alias below.
import type { components, operations } from './generated/face-a.openapi.js';

export type Schemas = components['schemas'];
export type Schema<Name extends keyof Schemas> = Schemas[Name];

export type User = Schema<'User'>;
export type SignedIn = Schema<'SignedIn'>;
export type UserInfo = Schema<'UserInfo'>;
export type SmsSent = Schema<'SmsSent'>;
export type Notice = Schema<'Notice'>;
export type WebInit = Schema<'WebInit'>;
export type IpView = Schema<'IpView'>;
export type Contacts = Schema<'Contacts'>;
export type ContactItem = Schema<'ContactList'>[number];

export const CONTACT_KINDS = ['phone', 'email', 'qq', 'qq_code', 'wx_code'] as const satisfies readonly (keyof Contacts)[];
export type ContactKind = (typeof CONTACT_KINDS)[number];

type Operations = operations;
type SuccessBody<Op> = Op extends { responses: { 200: { content: { 'application/json': infer Body } } } }
  ? Exclude<Body, Schema<'ErrorEnvelope'>>
  : never;

/** What a call answers in `data`, by its operation name (the path without /v1/): `CallData<'china_province_count'>`. */
export type CallData<Name extends keyof Operations> = SuccessBody<Operations[Name]> extends { data?: infer Data } ? Data : never;

/** The form fields a call takes, by operation name. */
export type CallForm<Name extends keyof Operations> = Operations[Name] extends {
  requestBody?: { content: { 'multipart/form-data': infer Form } };
}
  ? Form
  : Record<string, never>;
