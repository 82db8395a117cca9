import t from 'tap';
import { obligationAsked, verdictOf } from '../../src/compliance/judgement.js';
import { contradictions } from '../../src/rag/contradiction.js';
import { composeExtractiveAnswer, composeJudgement, questionParts } from '../../src/rag/generators/extractive.js';
import { buildPrompt, NO_ANSWER } from '../../src/rag/prompt.js';
import type { Judgement } from '../../src/rag/types.js';
import { validateAnswer } from '../../src/rag/validation.js';
import { makeSources } from '../helpers/sources.js';

/**
 * Answers an analyst can rely on (docs/rag.md, issue 29), without a database: the parts of a
 * multi-part question, a figure the text does not give, contradicting passages, confidence
 * that needs the asked concepts in the cited sentences, and judgement questions read through
 * the obligation engine (the end-to-end figures are in test/rag/answer-quality.test.ts).
 */

const security = makeSources([
  {
    title: 'Basecamp Security Overview',
    content:
      'We run a bounty program in HackerOne and welcome reports from security researchers. We have also gone through penetration tests performed by 3rd party security firms for our products.',
    score: 0.9,
  },
  {
    title: 'Basecamp security overview',
    content:
      'Any files which you upload to us are stored and are encrypted at rest. Our application databases are generally not encrypted at rest — the information you add to the applications is active in our databases.',
    score: 0.8,
  },
  {
    title: 'Data Protection Agreement',
    section: 'Security Incident Notification',
    content:
      'If the provider becomes aware of a breach of security leading to unauthorized disclosure of Customer Data, the provider will promptly and without undue delay (1) notify Customer of the Security Incident; (2) investigate the Security Incident.',
    score: 0.7,
  },
]);

t.test('a multi-part question: its parts, read with the scene and the first part', async (t) => {
  const parts = questionParts('Does Basecamp run a bug bounty, do they do penetration tests, and how fast do they respond to reports?');
  t.same(
    parts.map((p) => p.text),
    ['Does Basecamp run a bug bounty', 'do they do penetration tests', 'how fast do they respond to reports'],
  );
  t.equal(parts[1]!.context, 'Does Basecamp run a bug bounty', 'a later part is read with the first');
  const topics = questionParts("Summarise GitHub's obligations on security, audit, subprocessors and deletion.");
  t.same(
    topics.map((p) => [p.text, p.topic]),
    [
      ['security', true],
      ['audit', true],
      ['subprocessors', true],
      ['deletion', true],
    ],
    'the topics of a summary',
  );
  const scene = questionParts(
    'Major incident reporting under Art. 19: who do we report to, can we outsource the reporting, and do we have to tell our clients?',
  );
  t.equal(scene.length, 3);
  t.match(scene[0]!.context, /^Major incident reporting under Art\. 19/, 'what comes before the colon is the scene');
  t.same(questionParts('What does DORA Article 28 require for contractual arrangements?'), [], 'one question is not multi-part');
  t.same(questionParts("Is a developer laptop an 'ICT asset' in DORA terms? What's the definition?"), [], 'a part naming nothing stays with the one before');
  t.same(questionParts('For our exit plan, can we get all our data out and moved to another tool?'), [], 'a first clause that asks nothing sets the scene');
});

t.test('a multi-part answer answers each part or says it is unanswered', async (t) => {
  const text = composeExtractiveAnswer('Does Basecamp run a bug bounty, do they do penetration tests, and is there an ISO 27001 certificate?', security);
  t.match(text, /^\*\*Does Basecamp run a bug bounty\?\*\* We run a bounty program in HackerOne .*\[Source 1\]\./m);
  t.match(text, /^\*\*Do they do penetration tests\?\*\* .*penetration tests performed by 3rd party security firms.*\[Source 1\]\./m);
  t.match(text, /^\*\*Is there an ISO 27001 certificate\?\*\* Not answered by the retrieved sources \(they do not mention "ISO"/m);
  t.notOk(text.startsWith(NO_ANSWER), 'answered, in part');
  const v = validateAnswer({
    question: 'Does Basecamp run a bug bounty, do they do penetration tests, and is there an ISO 27001 certificate?',
    answer: text,
    sources: security,
  });
  t.equal(v.hasHallucinations, false, 'the parts as headings are not claims');
  t.ok(v.confidence < 0.7, `not high confidence with a part unanswered (${v.confidence})`);
});

t.test('an instruction word is never a concept the sources must hold', async (t) => {
  const text = composeExtractiveAnswer('Summarise the bounty program and the penetration tests.', security);
  t.notOk(text.startsWith(NO_ANSWER), text);
  t.notMatch(text, /Summarise/);
});

t.test('a figure asked where the text gives none: said so, and what is said quoted', async (t) => {
  const text = composeExtractiveAnswer('Within how many hours must the provider notify us of a breach?', security);
  t.match(text, /^The retrieved sources give no figure for this; what they say is: .*promptly and without undue delay .*\[Source 3\]\./);
  // Without a timing or manner in its place, a figure not given is still a refusal.
  t.match(composeExtractiveAnswer('How much does the bounty program pay per report?', security), new RegExp(`^${NO_ANSWER.replace(/\./g, '\\.')}`));
});

t.test('contradicting passages are flagged in the answer and in validation', async (t) => {
  t.same(
    contradictions([
      { text: 'Any files which you upload to us are stored and are encrypted at rest.', source: 1 },
      { text: 'Our application databases are generally not encrypted at rest — the information is active.', source: 2 },
      { text: "GitHub will not delete Content that Customer has contributed to External Users' repositories.", source: 3 },
      { text: "GitHub will delete Customer's full profile and the Content of its repositories within 90 days.", source: 3 },
    ]).map((c) => [c.words, c.denies.source, c.states.source]),
    [['encrypted at rest', 2, 1]],
    'a denial of the same words in their order; not two sentences about different things',
  );
  const q = 'Does Basecamp encrypt data at rest?';
  const text = composeExtractiveAnswer(q, security);
  t.match(text, /Note, the sources disagree on "encrypted at rest"/);
  const v = validateAnswer({ question: q, answer: text, sources: security });
  t.match(v.issues.join('\n'), /The cited passages disagree on "encrypted at rest": \[Source 2\] denies what \[Source 2\] states/);
  t.ok(v.confidence < 0.7, `not high confidence (${v.confidence})`);
});

t.test('high confidence only when the cited sentences hold what the question asks', async (t) => {
  // A well-supported quote that does not address the question: low, and said so.
  const answer = 'We run a bounty program in HackerOne and welcome reports from security researchers [Source 1].';
  const off = validateAnswer({ question: 'What is the recovery point objective for customer databases?', answer, sources: security });
  t.equal(off.isGrounded, true, 'the sentence is its source’s');
  t.ok(off.confidence < 0.4, `low confidence (${off.confidence})`);
  t.match(off.issues.join('\n'), /do not address what the question asks about/);
  const on = validateAnswer({ question: 'Does Basecamp run a bounty program for security researchers?', answer, sources: security });
  t.ok(on.confidence >= 0.7, `an answer holding the asked concepts keeps its confidence (${on.confidence})`);
});

t.test('judgement questions: the obligation asked about', async (t) => {
  const id = (q: string) => obligationAsked(q)?.obligation.id ?? null;
  t.equal(id("Does GitHub's contract meet DORA Art. 30 termination rights?"), 'A30.2.h');
  t.equal(id('Is GitHub contractually bound to cooperate fully as Art. 30(2)(g) requires?'), 'A30.2.g', 'the point named decides');
  t.equal(id('Can we audit GitHub under the DPA as DORA requires?'), 'A28.6');
  t.equal(id('Does Basecamp encrypt data at rest?'), null, 'no requirement named: not a judgement');
  t.equal(id('What does DORA Article 28 require for contractual arrangements?'), null, 'not a yes/no about a requirement being met');
  t.equal(verdictOf({ status: 'covered', coverage: 1 }), 'meets');
  t.equal(verdictOf({ status: 'partial', coverage: 0.5 }), 'partly');
  t.equal(verdictOf({ status: 'partial', coverage: 0.25 }), 'does_not');
  t.equal(verdictOf({ status: 'missing', coverage: 0 }), 'not_addressed');
});

const judgementSources = makeSources([
  {
    title: 'DORA Article 30: Key contractual provisions',
    content:
      'The contractual arrangements on the use of ICT services shall include at least the following elements: (h) termination rights and related minimum notice periods for the termination of the contractual arrangements.',
    score: 0.9,
  },
  {
    title: 'GitHub Corporate Terms of Service',
    section: 'Termination',
    content: "Either Party may terminate an Order Form (if applicable) or this Agreement, without cause, upon at least thirty (30) days' prior written notice.",
    score: 0.8,
  },
]).map((s) => (s.sourceNumber === 1 ? { ...s, workspaceId: null } : s));
const judgement: Judgement = {
  obligation: {
    id: 'A30.2.h',
    ref: 'Article 30(2)(h)',
    title: 'Termination rights and notice periods',
    requirement: 'The contract sets out termination rights and minimum notice periods.',
    scope: 'all',
    elements: [
      { id: 'termination', label: 'Termination rights' },
      { id: 'notice', label: 'Notice period for termination' },
    ],
  },
  doraText: 'termination rights and related minimum notice periods for the termination of the contractual arrangements',
  doraSource: 1,
  result: {
    obligationId: 'A30.2.h',
    article: 'Article 30',
    ref: 'Article 30(2)(h)',
    title: 'Termination rights and notice periods',
    requirement: 'The contract sets out termination rights and minimum notice periods.',
    doraText: 'termination rights and related minimum notice periods for the termination of the contractual arrangements',
    status: 'partial',
    coverage: 0.5,
    weight: 3,
    key: true,
    elements: [
      { id: 'termination', label: 'Termination rights', satisfied: true, level: 'met' },
      { id: 'notice', label: 'Notice period for termination', satisfied: false, level: 'none' },
    ],
    evidence: [
      {
        documentId: 'd1',
        filename: 'terms.md',
        documentTitle: 'GitHub Corporate Terms of Service',
        section: 'Termination',
        quote:
          "Either Party may terminate an Order Form (if applicable) or this Agreement, without cause, upon at least thirty (30) days' prior written notice.",
        truncated: false,
        element: 'termination',
        relevance: 0.9,
      },
    ],
    rationale: 'Partial: not found: notice period for termination; found: termination rights.',
  },
  verdict: 'partly',
  evidenceSources: [2],
  vendor: 'GitHub',
};

t.test('a judgement answer: verdict, requirement with its DORA source, commitments, what is missing', async (t) => {
  const text = composeJudgement(judgement);
  t.match(text, /^\*\*Verdict: GitHub partly meets DORA Article 30\(2\)\(h\), termination rights and notice periods\.\*\* Not found: notice period/);
  t.match(text, /\*\*Requirement, DORA Article 30\(2\)\(h\):\*\* Termination rights and related minimum notice periods .* \[Source 1\]\./);
  t.match(text, /\*\*What GitHub's documents commit to:\*\*\n- \*Termination rights\*: Either Party may terminate .* \[Source 2\]\./);
  t.match(text, /\*\*Not found in the documents:\*\* notice period for termination\./);
  const v = validateAnswer({ question: "Does GitHub's contract meet DORA Art. 30 termination rights?", answer: text, sources: judgementSources });
  t.equal(v.hasHallucinations, false, v.issues.join('\n'));
  t.equal(v.isGrounded, true, 'the verdict is the engine’s reading; the quotes are checked');
});

t.test('the anthropic prompt of a judgement question carries the obligation, its elements and both sides', async (t) => {
  const p = buildPrompt({
    question: "Does GitHub's contract meet DORA Art. 30 termination rights?",
    sources: judgementSources,
    history: [],
    judgement,
    nonce: 'n1',
  });
  const user = p.messages.at(-1)!.content;
  t.match(user, /Obligation: DORA Article 30\(2\)\(h\), Termination rights and notice periods\./);
  t.match(user, /DORA text \[Source 1\]: termination rights and related minimum notice periods/);
  t.match(user, /- Termination rights: met; passages: \[Source 2\]/);
  t.match(user, /- Notice period for termination: not found/);
  t.match(user, /Verdict of the engine: GitHub partly meets\./);
  t.match(user, /meets \/ partly meets \/ does not meet \/ the documents do not address it/);
  t.ok(user.indexOf('Judgement frame') < user.indexOf('Question:'), 'the frame comes before the question');
});

t.test('a list of points is quoted whole: each point with its name and what it is, past their full stops', async (t) => {
  const subprocessors = makeSources([
    {
      title: 'Acme Subprocessors',
      content: [
        'The following is a list of personal data subprocessors we use. These subprocessors are all located in the United States:',
        '',
        '* [Amazon Web Services](https://aws.example). Cloud services provider.',
        '* [Braintree](https://braintree.example). Payment processing services.',
        '* [Sentry](https://sentry.example). Error reporting software.',
        '',
        'If you want to be notified every time we update this list, subscribe to our policies repository.',
      ].join('\n'),
    },
  ]);
  const text = composeExtractiveAnswer("List Acme's subprocessors and what each one is used for.", subprocessors);
  t.match(text, /- Braintree\. Payment processing services \[Source 1\]/);
  t.match(text, /- Sentry\. Error reporting software \[Source 1\]/, 'the list goes on past the first point’s full stop');
  t.notMatch(text, /- If you want to be notified/, 'the paragraph after the list is not one of its points');
  const v = validateAnswer({ question: "List Acme's subprocessors and what each one is used for.", answer: text, sources: subprocessors });
  t.equal(v.hasHallucinations, false, 'every point quoted is verbatim in its source');
  t.equal(v.isGrounded, true);
});

t.test('"List them": a chosen point brings its whole list, from every passage that repeats the lead-in', async (t) => {
  const lead = 'Financial entities shall ensure that they are able to exit contractual arrangements without:';
  const sources = makeSources([
    {
      title: 'DORA Article 28: General principles',
      content: [lead, '', '(a) disruption to their business activities,', '', '8. Exit plans shall be comprehensive, documented and sufficiently tested.'].join(
        '\n',
      ),
      score: 0.9,
    },
    {
      title: 'DORA Article 28: General principles',
      content: [
        lead,
        '',
        '(b) limiting compliance with regulatory requirements,',
        '',
        '(c) detriment to the continuity and quality of services provided to clients.',
      ].join('\n'),
      score: 0.8,
    },
  ]);
  // Both passages are chunks of one document (a chunk that starts inside a list repeats its lead-in).
  sources[1]!.documentId = sources[0]!.documentId;
  const text = composeExtractiveAnswer('What must we be able to exit contractual arrangements without under DORA? List them.', sources);
  t.match(text, /- Disruption to their business activities \[Source 1\]/);
  t.match(text, /- Limiting compliance with regulatory requirements \[Source 2\]/, 'a point of the other passage cites that passage');
  t.match(text, /- Detriment to the continuity and quality of services provided to clients \[Source 2\]/);
  t.notMatch(text, /- Exit plans shall be comprehensive/, 'a numbered paragraph after lettered points is not one of them');
  t.equal(text.split(lead.replace(/:$/, '')).length - 1, 1, 'the lead-in is quoted once');
  const v = validateAnswer({ question: 'What must we be able to exit contractual arrangements without under DORA? List them.', answer: text, sources });
  t.equal(v.hasHallucinations, false);
});

t.test('"How long" asks for a period: a duration or "as long as", never a "promptly"', async (t) => {
  const sources = makeSources([
    {
      title: 'Acme Privacy Statement',
      content:
        'Acme will promptly and adequately deal with enquiries about personal data. Acme retains personal data for as long as your account is active, and deletes it within 90 days of account closure.',
      score: 0.9,
    },
  ]);
  const text = composeExtractiveAnswer('How long does Acme keep personal data?', sources);
  t.match(text, /as long as your account is active/);
  t.notMatch(text, /give no frequency/, 'a period asked is not a frequency');
  t.notMatch(text, /promptly and adequately/);
});

t.test('a topic of a summary request is answered by a sentence on the topic, whatever the request around it', async (t) => {
  const sources = makeSources([
    ...security.slice(0, 2).map((s) => ({ title: s.title, content: s.content, score: s.score })),
    {
      title: 'Basecamp security overview',
      section: 'Monitoring',
      content:
        'Our operations team uses monitoring tools to watch the security of the infrastructure around the clock. Physical access to the data centres is controlled with biometric locks.',
      score: 0.7,
    },
  ]);
  const text = composeExtractiveAnswer(
    "Summarise Basecamp's security posture for our vendor file: encryption, physical security, monitoring, breach history.",
    sources,
  );
  t.match(text, /\*\*Encryption:\*\* [^\n]*encrypted at rest/);
  t.match(text, /\*\*Physical security:\*\* [^\n]*biometric locks \[Source 3\]/, "the request's own words do not keep a topic's sentence from answering it");
  t.match(text, /\*\*Monitoring:\*\* [^\n]*monitoring tools/);
  t.match(text, /\*\*Breach history:\*\* Not answered/, 'a topic nothing speaks of stays unanswered');
});
