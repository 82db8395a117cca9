import nodemailer, { type Transporter } from 'nodemailer';
import { maskEmail } from './redact.js';
import type { Log } from '../domain/log.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface SentMail extends MailMessage {
  from: string;
  messageId: string;
  sentAt: Date;
}

export interface Mailer {
  /** `smtp` when SMTP_URL is configured, else `recording`. */
  kind: 'smtp' | 'recording';
  send(message: MailMessage): Promise<SentMail>;
  /** Messages sent by this process, newest last (kept for the recording transport; bounded). */
  readonly sent: SentMail[];
  close(): void;
}

const KEEP = 200;

/**
 * Real mail through nodemailer: SMTP when a URL is configured; otherwise nodemailer's
 * JSON transport, which builds the full message and records it in memory so that the
 * flows (verification, reset, invitations) work offline and can be inspected.
 */
export function createMailer(opts: { smtpUrl?: string; from: string; log?: Log }): Mailer {
  const transport: Transporter = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : nodemailer.createTransport({ jsonTransport: true });
  const sent: SentMail[] = [];
  return {
    kind: opts.smtpUrl ? 'smtp' : 'recording',
    sent,
    async send(message) {
      const info = await transport.sendMail({ from: opts.from, ...message });
      const record: SentMail = { ...message, from: opts.from, messageId: String(info.messageId ?? ''), sentAt: new Date() };
      sent.push(record);
      if (sent.length > KEEP) sent.splice(0, sent.length - KEEP);
      opts.log?.info?.({ to: maskEmail(message.to), subject: message.subject, transport: opts.smtpUrl ? 'smtp' : 'recording' }, 'mail sent');
      return record;
    },
    close() {
      transport.close();
    },
  };
}
