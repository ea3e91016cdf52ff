import { z } from 'zod';
import { identifier, noInput, text } from '../web-input.js';
import { defineWebRoute, type WebContext, type WebRoute } from '../web-route.js';
import type { WebAccounts } from '../web-api.ports.js';
import { apiKeyView } from '../web-views.js';

const token = (context: WebContext): string => context.token as string;

/**
 * The API keys screen. The secret is in the answer of create and rotate only: auth stores its
 * hash, so it cannot be shown again. Revoking or rotating reaches every bff-en at once through
 * auth.user.v1 (the key caches drop the key).
 */
export function keyRoutes(deps: { accounts: WebAccounts }): WebRoute[] {
  const { accounts } = deps;
  return [
    defineWebRoute({
      name: 'listApiKeys',
      method: 'GET',
      path: '/api/keys',
      login: true,
      input: noInput,
      handle: async (context) => ({ data: { keys: (await accounts.listKeys(token(context))).map(apiKeyView) } }),
    }),
    defineWebRoute({
      name: 'createApiKey',
      method: 'POST',
      path: '/api/keys',
      login: true,
      input: z.object({ name: text(100) }),
      handle: async (context, input) => {
        const { apiKey, secret } = await accounts.createKey(token(context), input.name.trim() || 'Default key');
        return { data: { key: apiKey && apiKeyView(apiKey), secret }, msg: 'Your new API key has been created', status: 201 };
      },
    }),
    defineWebRoute({
      name: 'rotateApiKey',
      method: 'POST',
      path: '/api/keys/{id}/rotate',
      login: true,
      input: z.object({ id: identifier }),
      handle: async (context, input) => {
        const { apiKey, secret, revokedKeyId } = await accounts.rotateKey(token(context), input.id);
        return {
          data: { key: apiKey && apiKeyView(apiKey), secret, revoked_key_id: revokedKeyId },
          msg: 'The key has been replaced; the old one no longer works',
        };
      },
    }),
    defineWebRoute({
      name: 'revokeApiKey',
      method: 'DELETE',
      path: '/api/keys/{id}',
      login: true,
      input: z.object({ id: identifier }),
      handle: async (context, input) => {
        const key = await accounts.revokeKey(token(context), input.id);
        return { data: { key: key && apiKeyView(key) }, msg: 'The key has been revoked' };
      },
    }),
  ];
}
