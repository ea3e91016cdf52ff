import type { ServerResponse } from 'node:http';

/** A call's answer as a file download instead of the JSON envelope (batch xlsx, report pdf/xlsx). */
export interface FileAnswer {
  contentType: string;
  /** The file name shown to the user; may be Chinese (sent as RFC 6266 filename*). */
  filename: string;
  body: Buffer;
}

/**
 * `attachment; filename="<ascii>"; filename*=UTF-8''<encoded>`: old clients read the ASCII
 * fallback (non-ASCII, quotes and backslashes replaced by "_"), current ones the UTF-8 name.
 */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export function sendFile(response: ServerResponse, file: FileAnswer): void {
  response.writeHead(200, {
    'content-type': file.contentType,
    'content-length': file.body.length,
    'content-disposition': contentDisposition(file.filename),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  response.end(file.body);
}
