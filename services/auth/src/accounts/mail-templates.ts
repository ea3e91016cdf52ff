import { escapeHtml } from '@ipdata/common';
import type { MailMessage } from './mailer.js';

/** The mails auth sends (English: face B). Links are built by the caller. */
export function confirmationMail(link: string, to: string): MailMessage {
  return {
    to,
    subject: 'Confirm your IP Data account',
    text: `Welcome to IP Data. Please confirm your email address within 24 hours by opening this link:\n\n${link}\n`,
    html: `<p>Welcome to IP Data.</p><p>Please confirm your email address within 24 hours:</p><p><a href="${link}">Confirm my email address</a></p><p>${link}</p>`,
  };
}

/** Sent instead of a confirmation when someone signs up with an address that has an active account. */
export function accountExistsMail(forgotPasswordUrl: string, to: string): MailMessage {
  return {
    to,
    subject: 'You already have an IP Data account',
    text:
      'Someone (probably you) tried to sign up for IP Data with this email address, but it already has an account.\n\n' +
      `To log in, use your password. If you forgot it, you can reset it here:\n\n${forgotPasswordUrl}\n\n` +
      'If this was not you, ignore this email: nothing has changed.',
    html:
      '<p>Someone (probably you) tried to sign up for IP Data with this email address, but it already has an account.</p>' +
      `<p>To log in, use your password. If you forgot it, you can <a href="${forgotPasswordUrl}">reset it here</a>.</p>` +
      '<p>If this was not you, ignore this email: nothing has changed.</p>',
  };
}

export function resetMail(link: string, to: string): MailMessage {
  return {
    to,
    subject: 'Reset your IP Data password',
    text: `To choose a new password, open this link within 1 hour:\n\n${link}\n\nIf you did not ask for this, ignore this email.`,
    html: `<p>To choose a new password, open this link within 1 hour:</p><p><a href="${link}">${link}</a></p><p>If you did not ask for this, ignore this email.</p>`,
  };
}

/**
 * The acknowledgement of face B's contact form. Anyone can type any address into the form, so
 * the mail repeats nothing the sender wrote (no name, no description): it cannot carry someone
 * else's text to a stranger's mailbox. The category is one of the form's three.
 */
export function contactAcknowledgementMail(to: string, category: string, reference: string): MailMessage {
  const about = category === '' ? '' : ` about "${category}"`;
  return {
    to,
    subject: 'We received your message',
    text:
      `Thank you for contacting IP Data. We received your message${about} and will give you feedback as soon as possible.\n\n` +
      `Your reference: ${reference}\n\n` +
      'If you did not send this message, you can ignore this email.',
    html:
      `<p>Thank you for contacting IP Data. We received your message${escapeHtml(about)} and will give you feedback as soon as possible.</p>` +
      `<p>Your reference: ${escapeHtml(reference)}</p>` +
      '<p>If you did not send this message, you can ignore this email.</p>',
  };
}
