import { randomBytes } from 'node:crypto';

/** The header every edge answer carries its request id in. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

// Event ids are request ids and every consumer de-duplicates on them, so ids must never repeat
// across replicas or restarts: 60 random bits per process start, then a counter. A string and
// an increment per request: cheap enough for bff-en's hot path (no UUID's random bytes).
const prefix = randomBytes(8).toString('base64url').slice(0, 10);
let counter = 0;

/** A new request id, e.g. `r-Zk3v9QaB1c-1a`; also the usage event id of the request. */
export function newRequestId(): string {
  return `r-${prefix}-${(counter++).toString(36)}`;
}
