import type { SmsPurposeName } from './sms-code.service.js';

export interface SmsMessage {
  phone: string;
  code: string;
  purpose: SmsPurposeName;
}

/**
 * Sends verification codes through an SMS provider. Adapters: `log` (development only, prints
 * the code) and `http` (signed JSON POST to the provider). A failure throws UnavailableError.
 */
export interface SmsGateway {
  readonly kind: string;
  send(message: SmsMessage): Promise<void>;
}
