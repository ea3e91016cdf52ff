import { isDomainError } from '@ipdata/common';
import type { Clock } from '@ipdata/common';
import { CODE, FaceAError, badInput } from '../face-a/envelope.js';
import { defineCall, type CallContext, type FaceACall } from '../face-a/face-a-call.js';
import type { FieldSpec } from '../face-a/input-schema.js';
import { vipOrderView, vipPlanView, vipStatusView } from '../vip/vip-views.js';
import type { VipBilling } from '../vip/vip.ports.js';

export interface VipCallsDeps {
  billing: VipBilling;
  /** Where billing's checkout sends the buyer back: face A's VIP page (its origin must be on billing's CHECKOUT_RETURN_ORIGINS). */
  vipReturnUrl: string;
  clock: Clock;
}

const PLAN_ID = {
  kind: 'string',
  label: '套餐',
  required: true,
  maxLength: 64,
  pattern: /^[a-z0-9-]+$/,
  patternMsg: '请选择正确的套餐',
} as const satisfies FieldSpec;
const ORDER_ID = {
  kind: 'string',
  label: '订单号',
  required: true,
  maxLength: 64,
  pattern: /^[A-Za-z0-9_-]+$/,
  patternMsg: '请输入正确的订单号',
} as const satisfies FieldSpec;

const accountOf = (context: CallContext): string => context.accountId ?? '';

/**
 * Face A's VIP membership through billing (plans `vip-monthly`, `vip-yearly`; payment at the
 * provider's hosted checkout, the sandbox in development and tests). The spec names no VIP
 * calls; these four are ours (README "VIP").
 */
export function vipCalls(deps: VipCallsDeps): FaceACall[] {
  return [
    defineCall({
      name: 'vip_plan_list',
      path: '/v1/vip_plan_list',
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      input: {},
      handle: async () => ({ data: { plans: (await deps.billing.vipPlans()).map(vipPlanView) } }),
    }),
    defineCall({
      name: 'vip_info',
      path: '/v1/vip_info',
      methods: ['POST'],
      needsLogin: true,
      silent: true,
      input: {},
      handle: async (context) => ({
        data: vipStatusView(await deps.billing.currentVip(accountOf(context)), deps.clock.now()),
      }),
    }),
    defineCall({
      name: 'vip_order_add',
      path: '/v1/vip_order_add',
      methods: ['POST'],
      needsLogin: true,
      silent: false,
      input: { plan_id: PLAN_ID },
      handle: async (context, { plan_id }) => {
        const plans = await deps.billing.vipPlans();
        if (!plans.some((plan) => plan.id === plan_id)) throw badInput('请选择正确的套餐');
        try {
          const order = await deps.billing.subscribe(accountOf(context), plan_id, deps.vipReturnUrl);
          return { data: vipOrderView(order), msg: '订单已创建，请完成支付' };
        } catch (error) {
          throw subscribeFailure(error);
        }
      },
    }),
    defineCall({
      name: 'vip_order_get',
      path: '/v1/vip_order_get',
      methods: ['POST'],
      needsLogin: true,
      silent: true,
      input: { order_id: ORDER_ID },
      handle: async (context, { order_id }) => {
        const [order, current] = await Promise.all([
          deps.billing.getOrder(accountOf(context), order_id).catch((error: unknown) => {
            throw isDomainError(error) && error.kind === 'not_found' ? new FaceAError(CODE.notFound, '订单不存在') : error;
          }),
          deps.billing.currentVip(accountOf(context)),
        ]);
        return { data: { order: vipOrderView(order), vip: vipStatusView(current, deps.clock.now()) } };
      },
    }),
  ];
}

/** Billing's refusals of Subscribe in the words of the VIP page; anything else as the envelope maps it. */
function subscribeFailure(error: unknown): unknown {
  if (!isDomainError(error)) return error;
  switch (error.kind) {
    case 'conflict':
      return badInput('您已是该套餐的会员');
    case 'failed_precondition':
      return badInput('当前会员有效期内不能购买更低的套餐');
    case 'not_found':
      // Billing learns new accounts from auth's events: a purchase right after sign-up may come first.
      return error.reason === 'account_not_found'
        ? new FaceAError(CODE.unavailable, '账户信息同步中，请稍后再试')
        : badInput('请选择正确的套餐');
    default:
      return error;
  }
}
