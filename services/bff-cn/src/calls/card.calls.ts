import type { CardTools } from '../card-tools/index.js';
import { defineCall, type FaceACall } from '../face-a/face-a-call.js';

/**
 * Face A's card tools over the card-tools library (src/card-tools, its README section): malformed
 * input throws InvalidArgumentError with a Chinese message (code 400); a well-formed number that
 * fails a check is code 200 with `valid: false`. Keys are turned into face A's snake_case. These
 * answers look nothing up in the IP dataset, so they are neither rate-limited nor usage events.
 */
export function cardCalls(cards: CardTools): FaceACall[] {
  return [
    defineCall({
      name: 'v2/id_card',
      path: '/v2/id_card',
      methods: ['GET'],
      needsLogin: false,
      silent: false,
      input: { id: { kind: 'string', label: '身份证号', required: true, maxLength: 64 } },
      handle: async (_context, { id }) => ({ data: snakeCaseKeys(cards.checkIdCard(id)) }),
    }),
    defineCall({
      name: 'v2/phone',
      path: '/v2/phone',
      methods: ['GET'],
      needsLogin: false,
      silent: false,
      input: { phone: { kind: 'string', label: '手机号', required: true, maxLength: 64 } },
      handle: async (_context, { phone }) => ({ data: snakeCaseKeys(cards.checkPhone(phone)) }),
    }),
    defineCall({
      name: 'v2/card',
      path: '/v2/card',
      methods: ['GET'],
      needsLogin: false,
      silent: false,
      input: { card: { kind: 'string', label: '银行卡号', required: true, maxLength: 64 } },
      handle: async (_context, { card }) => ({ data: snakeCaseKeys(cards.checkBankCard(card)) }),
    }),
  ];
}

/** `sexName` → `sex_name`, `legacy15` stays, recursively through objects and arrays. */
export function snakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCaseKeys);
  if (typeof value !== 'object' || value === null || value instanceof Date) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeCaseKeys(inner)]),
  );
}
