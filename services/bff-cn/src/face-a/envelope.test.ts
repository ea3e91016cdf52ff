import {
  BodyTooLargeError,
  ConflictError,
  DeadlineExceededError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  ResourceExhaustedError,
  UnauthenticatedError,
  UnavailableError,
} from '@ipdata/common';
import { describe, expect, it } from 'vitest';
import { CODE, FaceAError, envelopeOfError, success } from './envelope.js';

describe('face A envelope', () => {
  it('wraps success data with code 200 and 成功, null when there is none', () => {
    expect(success({ a: 1 })).toEqual({ code: 200, msg: '成功', data: { a: 1 } });
    expect(success(undefined, '验证码已发送')).toEqual({ code: 200, msg: '验证码已发送', data: null });
  });

  it('answers a FaceAError with its own code and msg', () => {
    expect(envelopeOfError(new FaceAError(CODE.tooMany, '查询过于频繁，请稍后再试'))).toEqual({
      envelope: { code: 429, msg: '查询过于频繁，请稍后再试', data: null },
      fault: false,
    });
  });

  it('maps domain errors to codes, showing only Chinese messages', () => {
    const of = (error: unknown) => envelopeOfError(error).envelope;
    expect(of(new InvalidArgumentError('请输入正确的手机号'))).toEqual({ code: 400, msg: '请输入正确的手机号', data: null });
    // An English message (a back end's internals) never reaches the user.
    expect(of(new InvalidArgumentError('invalid IP address: x'))).toEqual({ code: 400, msg: '请求参数不正确', data: null });
    expect(of(new ConflictError('该手机号已注册', { reason: 'phone_taken' })).code).toBe(400);
    expect(of(new NotFoundError('no such thing'))).toMatchObject({ code: 404, msg: '未找到相关信息' });
    expect(of(new ResourceExhaustedError('发送过于频繁，请 60 秒后再试'))).toMatchObject({
      code: 429,
      msg: '发送过于频繁，请 60 秒后再试',
    });
    expect(of(new UnauthenticatedError('session expired', { reason: 'session_invalid' }))).toMatchObject({
      code: 506,
      msg: '登录已失效，请重新登录',
    });
    expect(of(new UnauthenticatedError('手机号或密码错误', { reason: 'login_failed' }))).toMatchObject({
      code: 400,
      msg: '手机号或密码错误',
    });
    expect(of(new PermissionDeniedError('caller "bff-cn" may not call x', { reason: 'caller_not_allowed' }))).toMatchObject({
      code: 500,
    });
  });

  it('answers unknown errors 500 "服务器繁忙，请稍后再试" and dependencies down 503, never with details', () => {
    const internal = envelopeOfError(new TypeError('Cannot read properties of undefined (reading "x")'));
    expect(internal).toEqual({ envelope: { code: 500, msg: '服务器繁忙，请稍后再试', data: null }, fault: true });
    const down = envelopeOfError(new UnavailableError('14 UNAVAILABLE: No connection established 127.0.0.1:50051'));
    expect(down).toEqual({ envelope: { code: 503, msg: '服务暂不可用，请稍后再试', data: null }, fault: true });
    // Even a Chinese message of a 5xx is replaced by the standard text.
    expect(envelopeOfError(new UnavailableError('内部细节')).envelope.msg).toBe('服务暂不可用，请稍后再试');
  });

  it('shows the Chinese text of a 503 our domain code exposed; never a transport failure or a refusal of our identity', () => {
    expect(envelopeOfError(new UnavailableError('暂无可用的探测节点，请稍后再试', { expose: true }))).toEqual({
      envelope: { code: 503, msg: '暂无可用的探测节点，请稍后再试', data: null },
      fault: true,
    });
    expect(
      envelopeOfError(new DeadlineExceededError('Deadline exceeded after 3.001s,remote_addr=127.0.0.1:50051')).envelope,
    ).toEqual({
      code: 503,
      msg: '服务暂不可用，请稍后再试',
      data: null,
    });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });
    expect(envelopeOfError(refused).envelope).toEqual({ code: 503, msg: '服务暂不可用，请稍后再试', data: null });
    // A certificate without a caller name is our deployment's fault, not the visitor's login (506).
    const uncertified = new UnauthenticatedError('the client certificate names no caller (Subject CN)', {
      reason: 'caller_unknown',
    });
    expect(envelopeOfError(uncertified)).toEqual({
      envelope: { code: 500, msg: '服务器繁忙，请稍后再试', data: null },
      fault: true,
    });
    expect(envelopeOfError(new BodyTooLargeError(1024)).envelope).toEqual({ code: 400, msg: '请求参数不正确', data: null });
  });
});
