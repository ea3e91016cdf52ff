import { z } from 'zod';
import type { VisitorIds } from '@ipdata/common';
import type { VisitorLimit } from '@ipdata/common/http-edge';
import { text } from '../web-input.js';
import type { ContactForm } from '../web-api.ports.js';
import { defineWebRoute, type WebRoute } from '../web-route.js';

export interface ContactRoutesDeps {
  contact: ContactForm;
  visitorIds: VisitorIds;
  /** Messages per visitor (an IPv4 address, an IPv6 /64) per window. */
  visitorLimit: VisitorLimit;
}

/** The spec's message after a sent form, word for word. */
export const CONTACT_SUBMITTED = 'Information submitted successfully, we will give you feedback as soon as possible';
export const TOO_MANY_MESSAGES = 'Too many messages from your address, please try again later';

/**
 * Face B's contact form, for anonymous visitors and logged-in users alike (the account goes with
 * the message when there is a session). Content checks the fields and words the refusals; here
 * only sanity bounds (in UTF-16 units, so looser than content's character limits) and the
 * per-address limit, counted before content is asked so refused floods cost no write.
 */
export function contactRoutes(deps: ContactRoutesDeps): WebRoute[] {
  return [
    defineWebRoute({
      name: 'submitContact',
      method: 'POST',
      path: '/api/contact',
      login: false,
      input: z.object({ name: text(400), email: text(400), description: text(8000), category: text(100) }),
      handle: async (context, input) => {
        await deps.visitorLimit.take(context.clientIp);
        const accountId = context.token === undefined ? '' : await context.optionalAccount();
        const saved = await deps.contact.submit({
          ...input,
          accountId,
          visitorId: deps.visitorIds.of(context.clientIp, context.userAgent),
          clientIp: context.clientIp,
        });
        return { status: 201, msg: CONTACT_SUBMITTED, data: { id: saved.id, received_at: saved.receivedAt.toISOString() } };
      },
    }),
  ];
}
