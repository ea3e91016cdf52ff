import { edgeErrorOf, type EdgeError } from '@ipdata/common/http-edge';

/**
 * Face A's answer codes (DESIGN-14 "Face A conventions"): the web client reads `code`, so every
 * call it understood is HTTP 200 with one of these in the body.
 */
export const CODE = {
  ok: 200,
  badInput: 400,
  forbidden: 403,
  notFound: 404,
  tooMany: 429,
  internal: 500,
  unavailable: 503,
  loginInvalid: 506,
} as const;

export type FaceACode = (typeof CODE)[keyof typeof CODE];

/** Every answer of a /v1 or /v2 call. `data` is null on failure. */
export interface Envelope {
  code: FaceACode;
  msg: string;
  data: unknown;
}

export const MSG = {
  ok: '成功',
  internal: '服务器繁忙，请稍后再试',
  unavailable: '服务暂不可用，请稍后再试',
  loginInvalid: '登录已失效，请重新登录',
  badInput: '请求参数不正确',
  notFound: '未找到相关信息',
  tooMany: '请求过于频繁，请稍后再试',
  forbidden: '无权访问',
} as const;

/**
 * A face A failure with its code and the Chinese text shown to the user. Thrown by calls and the
 * framework only: domain modules throw common DomainErrors (Chinese messages; `expose` for a 503
 * worded for the user), which `envelopeOfError` maps.
 */
export class FaceAError extends Error {
  constructor(
    readonly code: Exclude<FaceACode, 200>,
    readonly msg: string,
  ) {
    super(msg);
    this.name = 'FaceAError';
  }
}

export const badInput = (msg: string): FaceAError => new FaceAError(CODE.badInput, msg);

export function success(data: unknown, msg: string = MSG.ok): Envelope {
  return { code: CODE.ok, msg, data: data ?? null };
}

export function failure(code: Exclude<FaceACode, 200>, msg: string): Envelope {
  return { code, msg, data: null };
}

/** True when the text has a CJK character: only such messages reach the user as they are. */
const CHINESE = /[\u3400-\u9fff]/;

/**
 * The envelope of a thrown error, and whether it must be logged as a fault (500/503):
 * - FaceAError: its own code and msg (the framework and the calls).
 * - Anything else by common's edge classification (edgeErrorOf): a DomainError's kind decides
 *   the code (our domain modules', or a back end's gRPC answer mapped by callUnary). Its message
 *   is shown only when it may be (a 4xx, or a 5xx our domain code exposed) and is Chinese (auth's
 *   face A messages are), else the code's standard text, so no English internals leak. A session
 *   error of auth is 506. Transport failures (gRPC UNAVAILABLE, a refused connection) are 503;
 *   our own identity refused by a back end (`caller_*`) and anything that is not a DomainError
 *   500 "服务器繁忙，请稍后再试", details only in the log; never a stack trace.
 */
export function envelopeOfError(error: unknown): { envelope: Envelope; fault: boolean } {
  if (error instanceof FaceAError) return { envelope: failure(error.code, error.msg), fault: error.code >= 500 };
  const edge = edgeErrorOf(error);
  const [code, standard] = codeOf(edge);
  const text = edge.message;
  const shown = text !== undefined && code !== CODE.loginInvalid && CHINESE.test(text) ? text : standard;
  return { envelope: failure(code, shown), fault: code >= 500 };
}

function codeOf(error: EdgeError): [Exclude<FaceACode, 200>, string] {
  switch (error.kind) {
    case 'invalid_argument':
    case 'conflict':
    case 'failed_precondition':
      return [CODE.badInput, MSG.badInput];
    case 'not_found':
      return [CODE.notFound, MSG.notFound];
    case 'resource_exhausted':
      return [CODE.tooMany, MSG.tooMany];
    case 'unauthenticated':
      // auth answers a bad session "session_invalid" (→ 506, the client logs out silently) and a
      // wrong phone or password "login_failed", which is a user error on a login form.
      return error.reason === 'login_failed' ? [CODE.badInput, '手机号或密码错误'] : [CODE.loginInvalid, MSG.loginInvalid];
    case 'permission_denied':
      return [CODE.forbidden, MSG.forbidden];
    case 'unavailable':
    case 'deadline_exceeded':
      return [CODE.unavailable, MSG.unavailable];
    default:
      return [CODE.internal, MSG.internal];
  }
}
