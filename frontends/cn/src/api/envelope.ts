/** What a face A answer is read as (spec section 7): data, error (the code, or empty on 200), msg. */
export interface FaceAResult<T = unknown> {
  data: T;
  error: number | '';
  msg: string;
}

/** Reads `{code, msg, data}`; anything else is not a face A answer (null). */
export function readEnvelope(body: unknown): FaceAResult | null {
  if (typeof body !== 'object' || body === null || !('code' in body)) return null;
  const { code, msg, data } = body as { code: unknown; msg?: unknown; data?: unknown };
  const numeric = typeof code === 'number' ? code : Number(code);
  if (!Number.isInteger(numeric)) return null;
  return { data: data ?? null, error: numeric === 200 ? '' : numeric, msg: typeof msg === 'string' ? msg : '' };
}
