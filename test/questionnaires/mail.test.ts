import { once } from 'node:events';
import t from 'tap';
import { SMTPServer } from 'smtp-server';
import { createMailer } from '../../src/lib/mailer.js';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

const API = '/api/v1';

t.test('a failed e-mail undoes the send: 502, no link, status unchanged', async (t) => {
  // A real local SMTP server that refuses the vendor's mailbox.
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, callback) {
      callback(address.address.endsWith('@unreachable.example') ? Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }) : undefined);
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => callback());
    },
  });
  smtp.listen(0, '127.0.0.1');
  await once(smtp.server, 'listening');
  t.teardown(() => new Promise<void>((r) => smtp.close(() => r())));
  const smtpMailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`, from: 'Service <no-reply@service.test>' });
  t.teardown(() => smtpMailer.close());
  const down = await buildTestApp({}, { mailer: smtpMailer });
  t.teardown(down.close);
  const downOwner = await registerUser(down.app);
  const downWs = await createOrgAndWorkspace(down.app, downOwner, 'Unreachable');
  const draft = await down.app.inject({
    method: 'POST',
    url: `${API}/questionnaires`,
    headers: downWs.headers,
    payload: { template: 'dora-ict-tpp', templateSections: ['info_sharing'], vendorContact: { email: 'v@unreachable.example' } },
  });
  t.equal(draft.statusCode, 201);
  const failedSend = await down.app.inject({
    method: 'POST',
    url: `${API}/questionnaires/${draft.json().data.questionnaire.id}/send`,
    headers: downWs.headers,
  });
  t.equal(failedSend.statusCode, 502);
  t.equal(failedSend.json().error.code, 'MAIL_DELIVERY_FAILED');
  const stillDraft = await down.app.inject({ method: 'GET', url: `${API}/questionnaires/${draft.json().data.questionnaire.id}`, headers: downWs.headers });
  t.match(stillDraft.json().data.questionnaire, { status: 'draft', link: { active: false, sendCount: 0, expiresAt: null } });
  const failedCreate = await down.app.inject({
    method: 'POST',
    url: `${API}/questionnaires`,
    headers: downWs.headers,
    payload: { template: 'dora-ict-tpp', vendorContact: { email: 'v@unreachable.example' }, send: true },
  });
  t.equal(failedCreate.statusCode, 502);
  t.match(failedCreate.json().message, /created as a draft/);
});
