import type { FileAnswer } from './file-answer.js';
import type { InputOf, InputSchema } from './input-schema.js';
import type { Plat } from './plat.js';

/** What a call knows about the request besides its input. */
export interface CallContext {
  /** Unique per request: the usage event id and the log correlation key. */
  requestId: string;
  /** The caller's canonical address (trusted proxies only); '' when unknown. */
  clientIp: string;
  visitorId: string;
  plat: Plat;
  /** The `token` header, when sent. */
  token: string | undefined;
  /** The logged-in account: always set on calls with `needsLogin`, never resolved on others. */
  accountId: string | undefined;
  /** performance.now() when the request arrived (latency of usage events). */
  startedAt: number;
}

export interface CallAnswer {
  data: unknown;
  /** Default "成功". */
  msg?: string;
  /** When set, the answer is this file (HTTP 200 with its Content-Type) instead of the envelope. */
  file?: FileAnswer;
}

/**
 * One face A call as plain data, like bff-en's route modules: the dispatcher parses the body,
 * checks login, validates `input` and renders the `{code, msg, data}` envelope; `handle` only
 * does the call's own work and throws FaceAError or DomainError for failures.
 */
export interface FaceACall<S extends InputSchema = InputSchema> {
  /** The spec's call name, also the usage event's endpoint: 'ip_search_zone', 'v2/query'. */
  name: string;
  path: string;
  methods: readonly ('GET' | 'POST')[];
  /** Without a valid `token` the call answers 506 before its input is read. */
  needsLogin: boolean;
  /** The spec's "silent" calls: the client shows no toast on failure (documentation only). */
  silent: boolean;
  /** Largest text field of this call when it needs more than FORM_MAX_FIELD_BYTES (query_ip_batch_zone's `ips`). */
  maxFieldBytes?: number;
  input: S;
  handle(context: CallContext, input: InputOf<S>): Promise<CallAnswer>;
}

/** Keeps the input type of `handle` tied to `input` where the call is written, then erases it for the table. */
export function defineCall<S extends InputSchema>(call: FaceACall<S>): FaceACall {
  return call;
}
