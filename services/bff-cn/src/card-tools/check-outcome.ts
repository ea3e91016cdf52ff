import { type CardProblem, type CheckOutcome } from './card-tools.types.js';

/** valid/reason/problems from the failed checks, so every checker phrases them the same way. */
export function checkOutcome(problems: readonly CardProblem[]): CheckOutcome {
  if (problems.length === 0) return { valid: true, problems };
  return { valid: false, reason: problems.map((problem) => problem.message).join('；'), problems };
}

/**
 * For logs: the first `keep` and last `keep` characters of a card, ID or phone number, the rest
 * starred, so a log line can be matched to a complaint without holding the number itself.
 */
export function maskNumber(text: string, keep = 3): string {
  const compact = text.replace(/[\s-]/g, '');
  if (compact.length <= keep * 2) return '*'.repeat(compact.length);
  return compact.slice(0, keep) + '*'.repeat(compact.length - keep * 2) + compact.slice(-keep);
}
