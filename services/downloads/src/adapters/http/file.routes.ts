import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import { NotFoundError, type ClientAddressResolver, type Clock, type HttpRoute } from '@ipdata/common';
import type { FileAccess } from '../../files/file-access.js';
import type { LinkStore } from '../../links/download-link.js';
import type { FileSender } from './file-sender.js';

/**
 * The file server's routes, on the same HTTP server as /healthz and /readyz:
 * - `GET|HEAD /files/<version>/<file>?link=&account=&expires=&signature=`: a signed link
 *   (403 JSON for anything wrong, before any byte); the first GET records the download;
 * - `GET|HEAD /samples/<version>/<database>-sample.<format>`: free samples.
 */
export function fileRoutes(
  deps: { access: FileAccess; sender: FileSender; links: LinkStore; clientAddress: ClientAddressResolver; clock: Clock },
  logger: Logger,
): HttpRoute[] {
  return [
    {
      method: ['GET', 'HEAD'],
      path: /^\/files\/([^/]+)\/([^/]+)$/,
      handle: async (request, response, params) => {
        const [version, fileName] = decoded(params);
        const servable = await deps.access.signed(version, fileName, queryOf(request));
        const link = servable.link!;
        await deps.sender.send(request, response, servable, {
          cacheControl: 'private, no-store',
          beforeBody: async () => {
            // Once per link: a resumed download (another Range request of the same link) is the same download.
            if (link.served) return;
            const recorded = await deps.links.recordServed(link, {
              at: deps.clock.now(),
              clientIp: deps.clientAddress.clientIp(request),
            });
            if (recorded) logger.info({ linkId: link.linkId, file: link.fileName, version: link.version }, 'download recorded');
          },
        });
      },
    },
    {
      method: ['GET', 'HEAD'],
      path: /^\/samples\/([^/]+)\/([^/]+)$/,
      handle: async (request, response, params) => {
        const [version, fileName] = decoded(params);
        const servable = await deps.access.sample(version, fileName);
        await deps.sender.send(request, response, servable, { cacheControl: 'public, max-age=3600' });
      },
    },
  ];
}

function decoded(params: Readonly<Record<string, string>>): [string, string] {
  try {
    return [decodeURIComponent(params['1'] ?? ''), decodeURIComponent(params['2'] ?? '')];
  } catch {
    throw new NotFoundError('not found');
  }
}

function queryOf(request: IncomingMessage): URLSearchParams {
  const url = request.url ?? '';
  const at = url.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : url.slice(at + 1));
}
