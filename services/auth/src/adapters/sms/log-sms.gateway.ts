import type { Logger } from 'pino';
import type { SmsGateway, SmsMessage } from '../../sms/sms-gateway.js';

/** Development only (config refuses it in production): writes the code to the log instead of a phone. */
export class LogSmsGateway implements SmsGateway {
  readonly kind = 'log';

  constructor(private readonly logger: Logger) {}

  async send(message: SmsMessage): Promise<void> {
    // Deliberately logged under a key the redaction list does not hide: this gateway exists to show it.
    this.logger.warn(
      { phone: message.phone, purpose: message.purpose, smsCode: message.code },
      'SMS code (log gateway, development only)',
    );
  }
}
