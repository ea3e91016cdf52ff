import { createHmac } from 'node:crypto';
import { UnavailableError } from '@ipdata/common';
import type { SmsGateway, SmsMessage } from '../../sms/sms-gateway.js';

export interface HttpSmsGatewayConfig {
  url: string;
  secret: string;
  template: string;
  timeoutMs?: number;
}

export const SIGNATURE_HEADER = 'x-ipdata-signature';
export const TIMESTAMP_HEADER = 'x-ipdata-timestamp';

/** hex HMAC-SHA256(secret, `${timestamp}.${body}`): the provider recomputes it to trust the request. */
export function signSmsRequest(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/**
 * Posts `{phone, template, params: {code}}` as JSON to the provider URL, signed with a shared
 * secret and a timestamp (the provider rejects old timestamps, so a captured request cannot be
 * replayed later). Any non-2xx answer or network failure is UnavailableError.
 */
export class HttpSmsGateway implements SmsGateway {
  readonly kind = 'http';

  constructor(private readonly config: HttpSmsGatewayConfig) {}

  async send(message: SmsMessage): Promise<void> {
    const body = JSON.stringify({ phone: message.phone, template: this.config.template, params: { code: message.code } });
    const timestamp = String(Math.floor(Date.now() / 1000));
    let response: Response;
    try {
      response = await fetch(this.config.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [TIMESTAMP_HEADER]: timestamp,
          [SIGNATURE_HEADER]: signSmsRequest(this.config.secret, timestamp, body),
        },
        body,
        signal: AbortSignal.timeout(this.config.timeoutMs ?? 5_000),
      });
    } catch (error) {
      throw new UnavailableError('SMS provider unreachable', { reason: 'sms_gateway_unavailable', cause: error });
    }
    // Drain the body so the connection can be reused.
    await response.arrayBuffer().catch(() => undefined);
    if (!response.ok) {
      throw new UnavailableError(`SMS provider answered HTTP ${response.status}`, { reason: 'sms_gateway_unavailable' });
    }
  }
}
