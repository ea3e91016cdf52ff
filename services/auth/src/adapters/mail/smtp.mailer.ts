import { UnavailableError } from '@ipdata/common';
import { createTransport, type Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from '../../accounts/mailer.js';

export interface SmtpMailerConfig {
  /** smtp://user:pass@host:port or smtps://… */
  url: string;
  from: string;
}

/** Mail through SMTP with nodemailer (pooled connections). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(private readonly config: SmtpMailerConfig) {
    this.transport = createTransport(config.url, { from: config.from });
  }

  async send(message: MailMessage): Promise<void> {
    try {
      await this.transport.sendMail({ from: this.config.from, ...message });
    } catch (error) {
      throw new UnavailableError('mail server unreachable', { reason: 'mail_unavailable', cause: error });
    }
  }

  close(): void {
    this.transport.close();
  }
}
