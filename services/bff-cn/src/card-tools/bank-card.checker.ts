import { InvalidArgumentError } from '@ipdata/common';

import { type BankCardCheck, type BankCardTypeCode, type CardProblem, type CardSchemeCode } from './card-tools.types.js';
import { type BinTable } from './bin-table.js';
import { checkOutcome } from './check-outcome.js';

/**
 * Bank card numbers: the Luhn check digit (ISO/IEC 7812-1), the card scheme from the schemes'
 * published prefix ranges (the table below), issuer and card type from bankcardinfo's BIN table.
 */
const MIN_LENGTH = 12;
const MAX_LENGTH = 19;
const MAX_INPUT_LENGTH = 64;

/** bankcardinfo's names for its card types (its cardTypeMap). */
const CARD_TYPE_NAMES: Readonly<Record<BankCardTypeCode, string>> = {
  DC: '储蓄卡',
  CC: '信用卡',
  SCC: '准贷记卡',
  PC: '预付费卡',
};

/**
 * Issuer identification number ranges of the international schemes (first digits, inclusive
 * ranges of equal length): UnionPay 62, Visa 4, Mastercard 51-55 and 2221-2720, JCB 3528-3589,
 * American Express 34 and 37. Other prefixes (domestic-only BINs such as 955100) have no scheme.
 */
const SCHEMES: readonly { code: CardSchemeCode; name: string; from: string; to: string }[] = [
  { code: 'unionpay', name: '银联', from: '62', to: '62' },
  { code: 'visa', name: 'Visa', from: '4', to: '4' },
  { code: 'mastercard', name: '万事达', from: '51', to: '55' },
  { code: 'mastercard', name: '万事达', from: '2221', to: '2720' },
  { code: 'jcb', name: 'JCB', from: '3528', to: '3589' },
  { code: 'amex', name: '美国运通', from: '34', to: '34' },
  { code: 'amex', name: '美国运通', from: '37', to: '37' },
];

/** True when the last digit is the Luhn check digit of the others. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i -= 1, double = !double) {
    let digit = digits.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function cardScheme(digits: string): { code: CardSchemeCode; name: string } | undefined {
  const scheme = SCHEMES.find((range) => {
    const head = digits.slice(0, range.from.length);
    return head.length === range.from.length && head >= range.from && head <= range.to;
  });
  return scheme === undefined ? undefined : { code: scheme.code, name: scheme.name };
}

export function checkBankCard(bins: BinTable, text: string): BankCardCheck {
  const number = normaliseInput(text);
  const luhn = luhnValid(number);
  const problems: CardProblem[] = luhn ? [] : [{ code: 'luhn_mismatch', message: '卡号校验位错误（Luhn校验未通过）' }];
  const scheme = cardScheme(number);
  // Reported also when the check digit is wrong: the issuer still tells where the typo is not.
  const bin = bins.lookup(number);
  return {
    ...checkOutcome(problems),
    number,
    length: number.length,
    bin: number.slice(0, 6),
    luhn,
    ...(scheme === undefined ? {} : { scheme }),
    ...(bin === undefined
      ? {}
      : {
          bank: { name: bin.bankName, code: bin.bankCode },
          cardType: { code: bin.cardType, name: CARD_TYPE_NAMES[bin.cardType] },
        }),
  };
}

/** Spaces and dashes removed; 12 to 19 digits, else it throws. */
function normaliseInput(text: string): string {
  if (text.length > MAX_INPUT_LENGTH) {
    throw new InvalidArgumentError('银行卡号长度应为12至19位', { reason: 'bank_card_length' });
  }
  const digits = text.replace(/[\s-]/g, '');
  if (digits.length === 0) throw new InvalidArgumentError('请输入银行卡号', { reason: 'bank_card_missing' });
  if (!/^\d+$/.test(digits)) {
    throw new InvalidArgumentError('银行卡号只能包含数字', { reason: 'bank_card_format' });
  }
  if (digits.length < MIN_LENGTH || digits.length > MAX_LENGTH) {
    throw new InvalidArgumentError('银行卡号长度应为12至19位', { reason: 'bank_card_length' });
  }
  return digits;
}
