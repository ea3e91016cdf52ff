import type { CallContext } from '../face-a/face-a-call.js';
import type { SessionResolver } from '../face-a/face-a.dispatcher.js';

/**
 * The account of a call that works without login but records who sent it (visits, feedback,
 * reports): resolved only when a `token` was sent; an invalid token or auth being down counts
 * as anonymous (never 506: these calls must not log the visitor out or fail for it).
 */
export async function optionalAccount(context: CallContext, sessions: SessionResolver): Promise<string> {
  if (context.accountId !== undefined) return context.accountId;
  if (context.token === undefined || context.token.length > 200) return '';
  try {
    return (await sessions.resolve(context.token)).accountId;
  } catch {
    return '';
  }
}
