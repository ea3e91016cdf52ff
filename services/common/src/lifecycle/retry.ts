import { setTimeout as sleep } from 'node:timers/promises';

export interface RetryOptions {
  /** Total attempts including the first; Infinity retries until `signal` aborts. */
  attempts: number;
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Called before each wait, e.g. to log the failure. */
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
  /** Whether this error is worth another attempt; default: always. */
  retryable?: (error: unknown) => boolean;
  signal?: AbortSignal;
}

/** Exponential backoff with full jitter, capped at maxDelayMs. */
export function backoffDelay(attempt: number, initialDelayMs: number, maxDelayMs: number): number {
  const ceiling = Math.min(maxDelayMs, initialDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

export async function retry<T>(operation: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const initial = options.initialDelayMs ?? 200;
  const max = options.maxDelayMs ?? 5_000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation(attempt);
    } catch (error) {
      const lastAttempt = attempt >= options.attempts;
      if (lastAttempt || options.signal?.aborted || (options.retryable && !options.retryable(error))) throw error;
      const delay = backoffDelay(attempt, initial, max);
      options.onRetry?.(error, attempt, delay);
      await sleep(delay, undefined, options.signal ? { signal: options.signal } : undefined);
    }
  }
}
