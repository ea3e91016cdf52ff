import type { Clock, Logger } from '@ipdata/common';
import type { VipBilling } from '../vip/vip.ports.js';
import { vipStatusView } from '../vip/vip-views.js';
import type { VipCheck } from './batch.ports.js';

/**
 * VIP as the VIP page shows it (vipStatusView: active or canceled until period_end). Billing
 * down counts as not VIP (logged): the visitor's limit still applies, the call does not fail.
 */
export function billingVipCheck(billing: VipBilling, clock: Clock, logger: Logger): VipCheck {
  return {
    async isVip(accountId) {
      try {
        return vipStatusView(await billing.currentVip(accountId), clock.now()).is_vip;
      } catch (error) {
        logger.warn({ err: error }, 'VIP state unavailable; batch limit of visitors applies');
        return false;
      }
    },
  };
}
