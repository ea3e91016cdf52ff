// The spec's generic client behaviour (sections 7 and 9), shared by both web apps: a request
// times out after 10 seconds, and only idempotent requests are retried, only on these statuses.

export const REQUEST_TIMEOUT_MS = 10_000;
export const RETRY_STATUSES: ReadonlySet<number> = new Set([408, 409, 425, 429, 500, 502, 503, 504]);
export const MAX_RETRIES = 2;
const RETRY_BASE_MS = 300;
/** Methods a retry cannot repeat a side effect of. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The wait before retry `attempt` (0-based): Retry-After when the server sent one (≤ 2 s), else 300 ms doubling. */
export function retryDelayMs(attempt: number, retryAfter: string | null): number {
  const seconds = Number(retryAfter);
  if (retryAfter !== null && Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, 2_000);
  return RETRY_BASE_MS * 2 ** attempt;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('aborted'))), { once: true });
  });
}

export type FetchOutcome = { response: Response } | { failure: 'TIMEOUT' | 'ABORTED' | 'NETWORK' };

/**
 * One request under the policy: the timeout covers every attempt; a retryable status of an
 * idempotent method is tried again (at most MAX_RETRIES times); `signal` is the caller's own
 * abort (RTK Query's unsubscribe). Never throws: what went wrong before an answer is a failure.
 */
export async function fetchWithPolicy(
  fetchFn: typeof fetch,
  url: string,
  init: RequestInit,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<FetchOutcome> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort);
  const method = (init.method ?? 'GET').toUpperCase();
  try {
    const request = { ...init, signal: controller.signal };
    let response = await fetchFn(url, request);
    for (let attempt = 0; IDEMPOTENT.has(method) && RETRY_STATUSES.has(response.status) && attempt < MAX_RETRIES; attempt++) {
      await pause(retryDelayMs(attempt, response.headers.get('retry-after')), controller.signal);
      response = await fetchFn(url, request);
    }
    return { response };
  } catch {
    if (timedOut) return { failure: 'TIMEOUT' };
    if (options.signal?.aborted) return { failure: 'ABORTED' };
    return { failure: 'NETWORK' };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
