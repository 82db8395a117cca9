import type { FastifyInstance } from 'fastify';

/**
 * The token of the newest questionnaire e-mail to `to`, read from the link in the
 * message exactly as a vendor would click it.
 */
export function tokenFromMail(app: FastifyInstance, to: string): string {
  const mail = [...app.mailer.sent].reverse().find((m) => m.to === to && m.subject.startsWith('Questionnaire from'));
  if (!mail) throw new Error(`no questionnaire e-mail to ${to}`);
  const m = /(https?:\/\/\S+\/vendor-questionnaire\?token=\S+)/.exec(mail.text);
  if (!m) throw new Error('no link in the e-mail');
  const token = new URL(m[1]!).searchParams.get('token');
  if (!token) throw new Error('no token in the link');
  return token;
}
