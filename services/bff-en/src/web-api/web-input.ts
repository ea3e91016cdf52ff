import { z } from 'zod';

/**
 * Input pieces of the web routes. The account rules themselves (email format, password policy,
 * the spec's messages) live in auth: a missing field arrives there as '' and auth answers with the
 * spec's text, so one place words every rule. Here only types and sanity bounds.
 */
export const text = (max: number) =>
  z.string({ error: 'Expected text' }).max(max, { error: 'This value is too long' }).default('');

export const flag = z.boolean({ error: 'Expected true or false' }).default(false);

/** Ids and tokens in paths and bodies: printable, bounded (auth answers not found for the rest). */
export const identifier = z
  .string({ error: 'Expected an id' })
  .min(1, { error: 'Expected an id' })
  .max(200, { error: 'This value is too long' });

export const noInput = z.object({});

/** The token of an emailed link (a signed payload: longer than an id). */
export const linkToken = z
  .string({ error: 'This link is invalid or has expired' })
  .min(1, { error: 'This link is invalid or has expired' })
  .max(4096, { error: 'This link is invalid or has expired' });
