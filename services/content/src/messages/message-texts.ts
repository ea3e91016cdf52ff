import type { MessageKind } from './messages.js';

/**
 * The texts of event-made messages (Chinese, shown as they are in the site's message centre).
 * Pure functions, so the consumers stay thin and the texts are tested without Kafka.
 */

export interface MessageText {
  kind: MessageKind;
  title: string;
  body: string;
}

export function welcomeMessage(): MessageText {
  return {
    kind: 'welcome',
    title: '欢迎注册',
    body: '感谢您注册成为我们的用户！您现在可以使用 IP 查询、ASN 查询、IP 报告等功能；开通 VIP 会员可获得更高的批量查询额度。',
  };
}

export type VipChange = 'created' | 'renewed' | 'canceled';

/** Dates as the site shows them: yyyy-mm-dd in China time (UTC+8, no daylight saving). */
export function chinaDate(date: Date): string {
  return new Date(date.getTime() + 8 * 3600_000).toISOString().slice(0, 10);
}

export function vipMessage(change: VipChange, periodEnd: Date | undefined): MessageText {
  const until = periodEnd === undefined ? '' : `，有效期至 ${chinaDate(periodEnd)}`;
  switch (change) {
    case 'created':
      return { kind: 'vip', title: 'VIP 会员已开通', body: `您的 VIP 会员已开通${until}。感谢您的支持！` };
    case 'renewed':
      return { kind: 'vip', title: 'VIP 会员已续费', body: `您的 VIP 会员已续费${until}。感谢您的支持！` };
    case 'canceled':
      return {
        kind: 'vip',
        title: 'VIP 会员已取消',
        body: '您的 VIP 会员已取消，会员权益已停止。如需继续使用，欢迎随时重新开通。',
      };
  }
}
