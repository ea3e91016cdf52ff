/** The message of anything thrown, for one-line logs and wrapped error messages. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
