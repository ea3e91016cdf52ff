/**
 * Development SMS gateway: an HTTP server on 127.0.0.1:SMS_SINK_PORT that speaks the provider
 * protocol auth's http gateway sends (JSON `{phone, template, params: {code}}`, signed with
 * SMS_GATEWAY_SECRET and a timestamp), checks the signature, and stores each message as
 * SMS_SINK_DIR/<time>-<n>.json, so a test (or a developer) can read the code a phone received.
 * The test system runs it; never used outside development and tests.
 */
import { createServer } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { timingSafeEqual } from 'node:crypto';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, signSmsRequest } from '../../services/auth/src/adapters/sms/http-sms.gateway.js';

const port = Number(process.env['SMS_SINK_PORT'] ?? 2526);
const folder = process.env['SMS_SINK_DIR'] ?? join(process.cwd(), 'sms');
const secret = process.env['SMS_GATEWAY_SECRET'] ?? '';
if (secret.length < 32) throw new Error('SMS_GATEWAY_SECRET: the secret auth signs with (at least 32 characters)');
mkdirSync(folder, { recursive: true });
let count = 0;

function signedBy(body: string, timestamp: string, signature: string): boolean {
  const expected = Buffer.from(signSmsRequest(secret, timestamp, body));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const timestamp = String(request.headers[TIMESTAMP_HEADER] ?? '');
    if (request.method !== 'POST' || !signedBy(body, timestamp, String(request.headers[SIGNATURE_HEADER] ?? ''))) {
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"bad signature"}');
      return;
    }
    const message = JSON.parse(body) as { phone: string; template: string; params: { code: string } };
    const file = join(folder, `${new Date().toISOString().replace(/[:.]/g, '-')}-${String(++count).padStart(6, '0')}.json`);
    writeFileSync(file, JSON.stringify({ ...message, received_at: new Date().toISOString() }));
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
});
server.listen(port, '127.0.0.1', () => console.log(`sms sink listening on 127.0.0.1:${port}, storing messages in ${folder}`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
