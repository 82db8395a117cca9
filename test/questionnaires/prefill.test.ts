import t from 'tap';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { tokenFromMail } from '../helpers/questionnaires.js';
import { ingest, vendorDoc } from '../helpers/rag.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

const API = '/api/v1';

t.test('pre-fill: answers proposed from the vendor workspace documents, with citations, never submitted', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const ws = await createOrgAndWorkspace(app, owner, 'Vendor');
  const H = ws.headers;
  // The shared DORA corpus (Article 30 speaks of every contractual provision) is searchable too, but never cited.
  await app.services.dataSources.indexCorpus({ articles: [30] });
  await ingest(app, H, 'Vendor documents', [
    { title: 'Basecamp security overview', content: vendorDoc('basecamp/security-overview.md') },
    { title: 'GitHub Enterprise SLA', content: vendorDoc('github/github-enterprise-service-level-agreement.md') },
  ]);

  const created = await app.inject({
    method: 'POST',
    url: `${API}/questionnaires`,
    headers: H,
    payload: { template: 'dora-ict-tpp', prefill: true, vendorContact: { email: 'security@vendor.example' }, send: true },
  });
  t.equal(created.statusCode, 201, created.body);
  const { questionnaire: q, prefill } = created.json().data;
  t.ok(prefill.suggestions > 0 && prefill.withValue > 0, `suggestions: ${JSON.stringify(prefill)}`);
  const byId = (list: { id: string }[], id: string) => list.find((x) => x.id === id) as Record<string, any>;

  // Encryption (Art. 9): yes, citing the security overview.
  const enc = byId(q.questions, 'ICT-03');
  t.equal(enc.suggestion.value, 'yes');
  t.equal(enc.suggestion.citations[0].title, 'Basecamp security overview');
  t.match(enc.suggestion.citations[0].passage, /encrypted/);
  t.equal(enc.answer, null, 'a suggestion is not an answer');
  t.match(enc, { points: 0, basis: 'unanswered' }, 'a suggestion is never scored');
  // Availability target (Art. 30(3)(a)): the figure read from the SLA.
  const avail = byId(q.questions, 'CIF-02');
  t.equal(avail.suggestion.value, 99.9);
  t.equal(avail.suggestion.citations[0].title, 'GitHub Enterprise SLA');
  t.match(avail.suggestion.citations.map((c: { passage: string }) => c.passage).join(' '), /99\.9%/);
  // Only the vendor's own documents are cited.
  const titles = new Set(
    q.questions.flatMap((x: { suggestion: { citations: { title: string }[] } | null }) => x.suggestion?.citations.map((c) => c.title) ?? []),
  );
  t.same([...titles].sort(), ['Basecamp security overview', 'GitHub Enterprise SLA']);
  t.equal(q.progress.answered, 0);
  t.equal(q.status, 'sent', 'pre-filled and sent; nothing submitted');

  // Suggestions are not shared with the vendor unless the analyst says so.
  const token = tokenFromMail(app, 'security@vendor.example');
  const hidden = await app.inject({ method: 'GET', url: `${API}/vendor-questionnaires/${token}` });
  t.equal(hidden.statusCode, 200, hidden.body);
  t.ok(hidden.json().data.questionnaire.questions.every((x: { suggestion: unknown }) => x.suggestion === null));
  const noSug = await app.inject({
    method: 'PUT',
    url: `${API}/vendor-questionnaires/${token}/answers`,
    payload: { answers: [{ questionId: 'ICT-03', acceptSuggestion: true }] },
  });
  t.equal(noSug.statusCode, 400);
  t.same(noSug.json().error.details, ['answers.0.acceptSuggestion: question ICT-03 has no suggested value']);

  const share = await app.inject({ method: 'PATCH', url: `${API}/questionnaires/${q.id}`, headers: H, payload: { shareSuggestions: true } });
  t.equal(share.statusCode, 200);
  const shown = await app.inject({ method: 'GET', url: `${API}/vendor-questionnaires/${token}` });
  const vEnc = byId(shown.json().data.questionnaire.questions, 'ICT-03');
  t.equal(vEnc.suggestion.value, 'yes');
  t.same(Object.keys(vEnc.suggestion.citations[0]).sort(), ['passage', 'title'], 'the vendor sees title and passage only');
  t.notOk(shown.body.includes('"sourceId"') || shown.body.includes('"documentId"') || shown.body.includes('"url"'));

  // The vendor confirms one suggestion; it becomes an answer (and counts) only then.
  const accept = await app.inject({
    method: 'PUT',
    url: `${API}/vendor-questionnaires/${token}/answers`,
    payload: {
      answers: [
        { questionId: 'ICT-03', acceptSuggestion: true },
        { questionId: 'CIF-02', acceptSuggestion: true },
      ],
    },
  });
  t.equal(accept.statusCode, 200, accept.body);
  t.equal(byId(accept.json().data.questionnaire.questions, 'CIF-02').answer.value, 99.9);
  const after = (await app.inject({ method: 'GET', url: `${API}/questionnaires/${q.id}`, headers: H })).json().data.questionnaire;
  t.match(byId(after.questions, 'ICT-03'), { answer: { value: 'yes' }, points: 1, basis: 'vendor' });
  t.equal(after.status, 'in_progress');

  // Re-running pre-fill replaces suggestions and leaves answers alone.
  const again = await app.inject({ method: 'POST', url: `${API}/questionnaires/${q.id}/prefill`, headers: H });
  t.equal(again.statusCode, 200);
  t.equal(byId(again.json().data.questionnaire.questions, 'ICT-03').answer.value, 'yes');
  t.equal(again.json().data.prefill.suggestions, prefill.suggestions, 'same documents, same suggestions');
});
