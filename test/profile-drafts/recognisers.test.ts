import t from 'tap';
import { decide, draftFields, passagesOf, type Passage } from '../../src/compliance/drafting/draft.js';
import { companyNames, extract, type ExtractContext } from '../../src/compliance/drafting/extractors.js';
import type { DraftField } from '../../src/domain/profileDrafts.js';

/**
 * The offline recognisers of register drafting (src/compliance/drafting/extractors.ts) on
 * short clauses in the usual wordings of SaaS contracts, written for this test (not taken
 * from the development set), and what a field left open says (docs/register-drafting.md).
 */
const ctx: ExtractContext = { vendorNames: ['Acme', 'Acme Cloud'] };
const passage = (content: string, section = ''): Passage => ({
  chunkId: 'c1',
  documentId: 'd1',
  dataSourceId: null,
  title: 'Acme Terms',
  section,
  page: null,
  url: '',
  content,
});
/** The proposal for one field read from one passage, as the draft gives it. */
const draft = (field: DraftField, content: string, c: ExtractContext = ctx, section = '') => {
  const p = passage(content, section);
  return decide(
    field,
    extract(field, content, c, section).map((found) => ({ passage: p, found })),
  );
};

/** The values one clause gives a field (the reasons of open fields left out). */
const value = (field: DraftField, text: string) =>
  extract(field, text, ctx)
    .filter((f) => !f.open)
    .map((f) => f.value);

t.test('parties and addresses from preambles, definitions, imprints and contact blocks', async (t) => {
  let d = draft(
    'legalName',
    'This Master Subscription Agreement is entered into by and between Acme Widgets, Inc. ("Acme") and the customer identified in the Order Form.',
  );
  t.equal(d.value, 'Acme Widgets, Inc.');
  d = draft('legalName', 'These Terms form a binding agreement between you (“Customer”) and Acme Labs LLP (“Acme,” “we,” or “us”).');
  t.equal(d.value, 'Acme Labs LLP');
  d = draft('legalName', '"Acme" means Acme Software Corporation, located at 500 Pine Street, Suite 200, Portland, OR 97204 and its affiliates.');
  t.equal(d.value, 'Acme Software Corporation');
  d = draft('address', '"Acme" means Acme Software Corporation, located at 500 Pine Street, Suite 200, Portland, OR 97204 and its affiliates.');
  t.equal(d.value, '500 Pine Street, Suite 200, Portland, OR 97204', 'the address stops where the clause goes on');
  d = draft(
    'legalName',
    'Acme Cloud GmbH, Hauptstraße 12, 80331 München, registered with the commercial register of the local court of Munich under HRB 123456.',
  );
  t.equal(d.value, 'Acme Cloud GmbH');
  d = draft('address', 'Questions about these Terms:\n\nAcme Ltd\n12 High Street\nLondon EC1A 1BB\nUnited Kingdom\nEmail: legal@acme.example', {
    ...ctx,
    legalNames: ['Acme Ltd'],
  });
  t.equal(d.value, '12 High Street, London EC1A 1BB, United Kingdom', 'a contact block under the provider name');
  d = draft('address', 'Please serve requests to:\n\nAcme Ltd\nc/o Registered Agents Inc.\n1 Agent Way, Dover, DE 19901\n', {
    ...ctx,
    legalNames: ['Acme Ltd'],
  });
  t.equal(d.status, 'not_found', "an agent's address is not the provider's");
  // A customer or a subprocessor named with its address is not the provider.
  d = draft('address', 'Stripe, Inc., located at 354 Oyster Point Blvd, South San Francisco, CA 94080, processes payments.', {
    ...ctx,
    legalNames: ['Acme Ltd'],
  });
  t.equal(d.status, 'not_found');
});

t.test('governing law in its usual forms, never the courts', async (t) => {
  const law = (s: string) => draft('governingLaw', s).value;
  t.equal(
    law('This Agreement shall be governed exclusively by the internal laws of the State of California, without regard to its conflicts of law rules.'),
    'US',
  );
  t.equal(law('This Agreement is governed by the laws of England and Wales.'), 'GB');
  t.equal(law('These Terms shall be governed by and construed in accordance with the laws of Ireland.'), 'IE');
  t.equal(law('The Agreement shall be governed by the laws of the Federal Republic of Germany. The CISG shall not apply.'), 'DE');
  t.equal(law('This Agreement is governed by the laws of the Province of Ontario and the federal laws of Canada applicable therein.'), 'CA');
  t.equal(law('These Terms are governed by the laws of New South Wales.'), 'AU');
  t.equal(
    draft('governingLaw', 'The courts of Dublin, Ireland shall have exclusive jurisdiction over any dispute arising out of this Agreement.').status,
    'not_found',
    'a venue is not the governing law',
  );
  t.equal(
    law(
      'This Agreement is governed by, and construed in accordance with, the laws of:\n\nus.acme.example: the laws of the State of New York, USA;\n\neu.acme.example: the laws of the Republic of Austria;\n',
    ),
    'AT',
    'per-instance laws: the instance outside the Americas',
  );
});

t.test('notice periods per party in words and digits; "at any time" is a reason, not a number', async (t) => {
  let d = draft('noticePeriodDaysProvider', 'Acme may terminate this Agreement for convenience upon thirty (30) days’ notice to you.');
  t.equal(d.value, 30);
  t.equal(draft('noticePeriodDaysEntity', 'Acme may terminate this Agreement for convenience upon thirty (30) days’ notice to you.').status, 'not_found');
  d = draft('noticePeriodDaysEntity', 'Either party may terminate this Agreement without cause upon sixty (60) days prior written notice.');
  t.equal(d.value, 60);
  t.equal(draft('noticePeriodDaysProvider', 'The Parties may terminate this Agreement at their convenience with a 3 month notice.').value, 90);
  d = draft('noticePeriodDaysEntity', 'Customer may terminate a material breach upon fifteen (15) days’ notice if the breach is not cured.');
  t.equal(d.status, 'not_found', 'termination for breach is not the notice period');
  d = draft('noticePeriodDaysEntity', 'You may cancel your subscription at any time from the billing page.');
  t.equal(d.status, 'not_found');
  t.match(d.reason, /at any time/);
  t.equal(d.evidence[0]!.quote, 'You may cancel your subscription at any time from the billing page.');
  d = draft('noticePeriodDaysProvider', 'We may suspend or terminate your account immediately and without notice.');
  t.equal(d.status, 'not_found');
  t.match(d.reason, /provider may terminate/);
  // A notice of non-renewal is the period when nothing else speaks to it; a right to cancel at any time in the same document overrides it.
  const nonRenewal =
    'Each Order Form renews for successive one-year terms unless either party gives notice of non-renewal at least thirty (30) days before the end of the term.';
  t.equal(draft('noticePeriodDaysEntity', nonRenewal).value, 30);
  d = draft('noticePeriodDaysEntity', `${nonRenewal}\n\nYou may terminate these Terms at any time by closing your account.`);
  t.equal(d.status, 'not_found');
  t.ok(d.reason);
});

t.test('term and renewal', async (t) => {
  t.equal(draft('endDate', 'This Agreement remains in effect until terminated by either party.').value, null);
  t.equal(draft('endDate', 'This Agreement runs for an indefinite time.').value, null);
  t.equal(draft('endDate', 'This Agreement will continue in effect until either you or we terminate it.').value, null);
  t.not(draft('endDate', 'This Agreement continues until either party terminates on 31 December 2027.').value, null, 'an end on a date is not open-ended');
  let d = draft('endDate', 'This Agreement continues for so long as there is an active Order Form.');
  t.equal(d.status, 'not_found');
  t.match(d.reason, /no end date/);
  d = draft('startDate', '“Effective Date” means the date Customer first accesses the Services or signs an Order Form.');
  t.equal(d.status, 'not_found');
  t.match(d.reason, /event/);
  // A start on an event in other usual words: agreeing or starting to use, execution, a formed contract.
  for (const clause of [
    'These Terms take effect when you agree to them or begin using the Services, whichever is earlier.',
    'The Agreement commences when the Licensee executes it and returns it to Acme.',
    'The contract is formed when Acme accepts the Customer’s order.',
  ]) {
    d = draft('startDate', clause);
    t.equal(d.status, 'not_found', clause);
    t.match(d.reason, /event/, clause);
  }
  t.notOk(draft('startDate', 'The contract is formed on the terms set out below.').reason, 'no event, no reason');
  t.equal(draft('renewal', 'The subscription will be automatically renewed for successive one-year terms.').status, 'proposed');
  t.equal(draft('renewal', 'Your plan is billed month-to-month.').status, 'proposed');
});

t.test('subprocessor tables by what their columns mean, and name-description lists; never cookie suppliers', async (t) => {
  let d = draft(
    'subcontractors',
    'Entity: Hostco Inc.; Purpose: Infrastructure hosting; Location: Germany\n\nEntity: Mailer Ltd; Purpose: Transactional email; Location: Ireland',
    ctx,
    'Sub-processors',
  );
  t.same(d.value, [
    { name: 'Hostco Inc.', role: 'Infrastructure hosting', country: 'DE' },
    { name: 'Mailer Ltd', role: 'Transactional email', country: 'IE' },
  ]);
  d = draft(
    'subcontractors',
    '| Entity | Purpose | Location |\n| --- | --- | --- |\n| Hostco Inc., 1 Cloud Way, 10115 Berlin | Hosting | Germany |\n',
    ctx,
    'Subprocessors',
  );
  t.same(d.value, [{ name: 'Hostco Inc.', role: 'Hosting', country: 'DE' }], 'a Markdown table; the address after the name is left out');
  d = draft(
    'subcontractors',
    '| Sub-processor | Service | Location |\n| --- | --- | --- |\n| Datastore S.L. (Spain) | Analytics database | European Union |\n',
  );
  t.same(d.value, [{ name: 'Datastore S.L.', role: 'Analytics database' }], 'the country in brackets after the name is not part of it');
  d = draft(
    'subcontractors',
    'Acme uses the following sub-processors:\n\n- Hostco Inc.\nfor cloud infrastructure.\n\n- Mailer Ltd for email delivery.\n\n- hPay. Payments.\n',
  );
  t.same(
    (d.value as { name: string }[]).map((s) => s.name),
    ['Hostco Inc.', 'Mailer Ltd', 'hPay'],
  );
  // Named in a sentence: each company engaged as a processor, with the country written after it; not the vendor itself.
  d = draft(
    'subcontractors',
    'The Client consents that Acme Cloud engages Hostco, Inc., Seattle, WA - USA and Mailer GmbH, Berlin, Germany as another processors.',
  );
  t.same(d.value, [
    { name: 'Hostco, Inc.', country: 'US' },
    { name: 'Mailer GmbH', country: 'DE' },
  ]);
  d = draft('subcontractors', 'Acme Inc. uses Hostco, Inc. for hosting and may engage other processors with notice.');
  t.equal(d.status, 'not_found', 'a company used for something, not as a processor');
  // A section of its own per service under a subprocessors heading: the heading names it.
  d = draft(
    'subcontractors',
    'https://www.hostco.example\n1 Harbour Road, Dublin 2, Ireland\n\nApplication servers, file storage and datastores.',
    ctx,
    'Services used by Acme > Primary Third-Party Sub-processors > Hostco',
  );
  t.same(d.value, [{ name: 'Hostco', role: 'Application servers, file storage and datastores.', country: 'IE' }]);
  d = draft('subcontractors', 'https://www.tracker.example\n\nMeasures visits to our website.', ctx, 'Privacy policy > Cookies and analytics > Tracker');
  t.equal(d.status, 'not_found', 'a section per analytics cookie supplier is not a subprocessor');
  d = draft('subcontractors', 'Name: Tracker Co; Purpose: Analytics cookies; Expiry: 1 year', ctx, 'Cookies we use');
  t.equal(d.status, 'not_found', 'a cookie table is not a subprocessor list');
  // A cell holding its own semicolons does not break its row.
  d = draft(
    'subcontractors',
    'Sub-processor: Hostco Inc.; Service: Cloud hosting; Location: Germany; Safeguard: EU region: no transfer (Clause 6.8); SCCs and/or the Data Privacy Framework as applicable',
    ctx,
    'Annex IV: Sub-processors',
  );
  t.same(d.value, [{ name: 'Hostco Inc.', role: 'Cloud hosting', country: 'DE' }]);
  // A hosting row that gives the place per region the customer picks leaves the location open.
  const perRegion = draft(
    'dataStorageLocations',
    'Sub-processor: Hostco Inc.; Service: Cloud hosting and infrastructure; Location / region: EU region: European Union · US region: United States',
    ctx,
    'Sub-processors',
  );
  t.equal(perRegion.status, 'not_found');
  t.match(perRegion.reason, /per region/);
  const regions = draft(
    'dataStorageLocations',
    'Sub-processor: Hostco Inc.; Service: Hosting; Location of processing: United States (us-east-1), Germany (eu-central-1)',
    ctx,
    'Sub-processors',
  );
  t.same(regions.value, ['DE', 'US'], 'a cloud region code is not a region of the customer’s choice');
});

t.test('locations right after the cue; hedges and regions are reasons; someone else’s place is nothing', async (t) => {
  t.same(draft('dataStorageLocations', 'All Customer Data is hosted in data centers in Germany and Ireland.').value, ['DE', 'IE']);
  t.same(draft('dataProcessingLocations', 'Your personal data is processed entirely within the United States.').value, ['US']);
  let d = draft('dataStorageLocations', 'Customer Data is stored on servers within the European Union.');
  t.equal(d.status, 'not_found');
  t.match(d.reason, /only a region/);
  d = draft('dataProcessingLocations', 'Your data may be processed in the United States and other countries.');
  t.equal(d.status, 'not_found');
  t.ok(d.reason);
  t.equal(
    draft('dataStorageLocations', 'Information about your use of this website is stored in Google servers in the United States.').status,
    'not_found',
    'a website’s analytics',
  );
  t.equal(
    draft('serviceLocations', 'Sign in with the GitHub website operated by GitHub Inc., San Francisco, USA.').status,
    'not_found',
    'a third party’s office',
  );
  // Hosted by or at a provider, then the place: where the service runs and its data is kept.
  const byHost = 'All Acme services that store data are hosted by Amazon Web Services, in Ireland, in a dedicated VPC.';
  t.same(draft('dataStorageLocations', byHost).value, ['IE']);
  t.same(draft('serviceLocations', byHost).value, ['IE']);
  t.same(draft('serviceLocations', 'The cloud service Acme Cloud is hosted at Exoscale in Frankfurt am Main, Germany.').value, ['DE']);
});

t.test('the provider’s company before its address, a registration number before the street, the importer on one line', async (t) => {
  const both = (text: string, name: string, address: string) => {
    t.equal(draft('legalName', text).value, name, text);
    t.equal(draft('address', text, { ...ctx, legalNames: [name] }).value, address, text);
  };
  both('Acme AG, Bahnhofstrasse 1, 8001 Zürich, Switzerland', 'Acme AG', 'Bahnhofstrasse 1, 8001 Zürich, Switzerland');
  both(
    'If you have questions, write to us at Acme LLC, 1000 N. West Street, Suite 1200, Wilmington, DE 19801, or email legal@acme.example.',
    'Acme LLC',
    '1000 N. West Street, Suite 1200, Wilmington, DE 19801',
  );
  both(
    'Acme Technologies Limited (CRO 654321), 1 Grand Canal Square, Dublin 2, D02 P820, Ireland',
    'Acme Technologies Limited',
    '1 Grand Canal Square, Dublin 2, D02 P820, Ireland',
  );
  both(
    'The Services are provided by Acme AB, org. nr 556123-4567, Sveavägen 10, 111 57 Stockholm, Sweden.',
    'Acme AB',
    'Sveavägen 10, 111 57 Stockholm, Sweden',
  );
  both(
    'These Terms are concluded with Acme Sp. z o.o. with its registered seat in Warsaw, ul. Marszałkowska 1, 00-001 Warszawa, Poland.',
    'Acme Sp. z o.o.',
    'ul. Marszałkowska 1, 00-001 Warszawa, Poland',
  );
  both(
    'Data importer(s): Name: Acme Inc. Address: 100 Market Street, Suite 300, San Francisco, CA 94105, USA',
    'Acme Inc.',
    '100 Market Street, Suite 300, San Francisco, CA 94105, USA',
  );
  t.equal(
    draft('address', 'Processor: Acme s.r.o., Václavské náměstí 1, 110 00 Praha 1, Czech Republic, ID No. 12345678', { ...ctx, legalNames: ['Acme s.r.o.'] })
      .value,
    'Václavské náměstí 1, 110 00 Praha 1, Czech Republic',
    'the registration number after the country is not part of the address',
  );
  const block = 'Impressum\n\nAcme GmbH\nKönigsallee 60\n40212 Düsseldorf\n\nVertreten durch: Erika Musterfrau';
  t.equal(draft('legalName', block).value, 'Acme GmbH', 'an imprint block');
  // A block or a company-and-address line is weak: where the documents name the provider otherwise, that name stands.
  const p1 = passage('This Agreement is between Customer and Acme Inc. ("Acme").');
  const p2 = passage('Acme B.V.\nVijzelstraat 68\n1017 HL Amsterdam\nThe Netherlands');
  const hits = [p1, p2].flatMap((p) => extract('legalName', p.content, ctx).map((found) => ({ passage: p, found })));
  t.equal(decide('legalName', hits).value, 'Acme Inc.', "an affiliate's contact block does not make a conflict");
});

t.test("a governing law for customers outside Europe only is not the EU entity's", async (t) => {
  const us =
    'If Customer is an entity registered in the United States of America, Canada, or Mexico, this Agreement will be governed by and construed in accordance with the laws of the State of New York.';
  const rest = 'In all other cases, this Agreement will be governed by and construed in accordance with the laws of England.';
  t.equal(draft('governingLaw', `${us} ${rest}`).value, 'GB');
  t.equal(draft('governingLaw', 'For customers located in Australia, this Agreement is governed by the laws of New South Wales.').status, 'not_found');
  t.equal(draft('governingLaw', 'If you are located in the European Union, these Terms are governed by the laws of Ireland.').value, 'IE');
});

t.test("another region's entity, a consumer's law and terms for other customers are not the EU business customer's", async (t) => {
  t.equal(
    draft('legalName', 'The Services are provided in Europe by Acme Cloud Computing (Europe) Co., Ltd. ("Acme Europe").').value,
    'Acme Cloud Computing (Europe) Co., Ltd.',
    'a place in brackets inside the company name',
  );
  t.equal(
    draft('legalName', 'For which the PRC is the Service Region, such Services shall be provided by Acme Cloud Computing (Beijing) Co., Ltd. ("Acme Beijing").')
      .status,
    'not_found',
    "the entity for another region's customers",
  );
  t.equal(
    draft('governingLaw', 'Notwithstanding Section 3, if you use our Services as a consumer, the governing law that applies to the Terms is German law.')
      .status,
    'not_found',
    "a consumer's law",
  );
  t.equal(
    draft('governingLaw', 'These terms shall be governed by English law, except that if you are a consumer mandatory local law may also apply.').value,
    'GB',
  );
  t.equal(draft('governingLaw', 'These Terms are governed by the laws of South Korea.', ctx, 'Acme Cloud South Korea Terms').status, 'not_found');
  t.equal(draft('governingLaw', 'These Terms are governed by the laws of Ireland.', ctx, 'Acme Cloud Terms of Service').value, 'IE');
});

t.test('a description is of the service, not of its monitoring; a place "or abroad" is no fixed location', async (t) => {
  t.equal(
    draft(
      'description',
      'We operate active and real-time service monitoring, combined with a rapid response mechanism, that enables prompt detection of incidents.',
    ).status,
    'not_found',
  );
  t.equal(draft('description', 'We provide certain Acme Deploy Services pursuant to a Service Level Agreement.').status, 'proposed', 'services, in the plural');
  const abroad = draft('dataStorageLocations', 'Your personal data can be transferred and stored into servers located in Türkiye or abroad with your consent.');
  t.equal(abroad.status, 'not_found');
  t.ok(abroad.reason);
});

t.test("the contract's address of the provider stands over a privacy policy's", async (t) => {
  const terms = { ...passage('Acme B.V., Keizersgracht 100, 1015 AA Amsterdam, the Netherlands'), title: 'Acme Terms of Service' };
  const privacy = {
    ...passage('Acme B.V., Strawinskylaan 3127, 1077 ZX Amsterdam, the Netherlands'),
    chunkId: 'c2',
    documentId: 'd2',
    title: 'Acme Privacy Policy',
  };
  const c = { ...ctx, legalNames: ['Acme B.V.'] };
  const hits = [terms, privacy].flatMap((p) => extract('address', p.content, c).map((found) => ({ passage: p, found })));
  t.equal(hits.length, 2, 'both addresses are read');
  const d = decide('address', hits);
  t.equal(d.status, 'proposed');
  t.equal(d.value, 'Keizersgracht 100, 1015 AA Amsterdam, the Netherlands');
});

t.test('locations in more of their usual wordings; backups, people and a host’s whole network are not where the data is', async (t) => {
  t.same(draft('serviceLocations', 'Our servers are located in Germany.').value, ['DE']);
  const operated = 'The Service is operated from data centres in Finland.';
  t.same(draft('serviceLocations', operated).value, ['FI']);
  t.same(draft('dataStorageLocations', operated).value, ['FI']);
  t.same(draft('serviceLocations', "Production systems run in Google Cloud's europe-west3 region (Frankfurt, Germany).").value, ['DE']);
  t.same(draft('dataStorageLocations', 'The location of the data center is Helsinki, Finland.').value, ['FI']);
  t.same(draft('dataStorageLocations', 'All customer data remains in Norway.').value, ['NO']);
  const afterHost = 'We use Hetzner Online GmbH as our hosting provider; our servers are in Nuremberg and Falkenstein, Germany.';
  t.same(draft('dataStorageLocations', afterHost).value, ['DE']);
  t.same(draft('serviceLocations', afterHost).value, ['DE']);
  t.equal(draft('dataStorageLocations', 'Backups are stored in a separate data center in Belgium.').status, 'not_found', 'backups alone');
  // A hedge in another clause of the sentence does not make the stated place vague.
  const storedThenMay = 'We store your data in the United States, and it may be processed in other countries where our subprocessors operate.';
  t.same(draft('dataStorageLocations', storedThenMay).value, ['US']);
  let d = draft('dataProcessingLocations', storedThenMay);
  t.equal(d.status, 'not_found');
  t.match(d.reason, /only "other" or "any" countries/);
  d = draft('dataProcessingLocations', 'Acme processes Personal Data in the United Kingdom and the European Economic Area.');
  t.equal(d.status, 'not_found', 'a region beside a country is no list of countries');
  t.match(d.reason, /region is named beside GB/);
  d = draft(
    'dataStorageLocations',
    'Data residency: Customer Data is stored in the EU region (Germany) or the US region (United States), as selected by the Customer.',
  );
  t.equal(d.status, 'not_found', "the customer's choice of region");
  t.ok(d.reason);
  d = draft('serviceLocations', 'Exoscale operates multiple data centers in Germany, Austria, Switzerland, and Bulgaria.');
  t.equal(d.status, 'not_found', "a host's whole network is not where the service runs");
  t.equal(
    draft('dataProcessingLocations', 'Acme processes the personal information of individuals located in the United Kingdom.').status,
    'not_found',
    'where people are, not where data is processed',
  );
});

t.test('personal data, audit rights and exit terms; a negating passage proposes nothing', async (t) => {
  t.equal(draft('personalData', 'Customer is the controller and Acme is the processor of Customer Personal Data.').value, true);
  t.equal(draft('personalData', 'Customer shall qualify as the Data Controller and Acme shall qualify as the Data Processor.').value, true);
  const own = draft('personalData', 'This page lists the subprocessors that may process personal data on our behalf.');
  t.equal(own.status, 'not_found');
  t.ok(own.reason, 'personal data on the vendor’s own behalf leaves it open');
  t.equal(draft('auditRights', 'Acme shall permit the Client to conduct audits and inspections of its systems.').status, 'proposed');
  t.equal(draft('auditRights', 'Acme maintains a SOC 2 Type II report, available to customers upon request.').status, 'proposed');
  t.equal(draft('auditRights', 'Acme does not currently hold a SOC 2 report and does not permit on-site audits.').status, 'not_found');
  t.equal(draft('auditRights', 'Nothing in this Agreement grants Customer any right to audit Acme.').status, 'not_found');
  t.equal(draft('exitProvisions', 'We will delete your profile and content within 90 days of cancellation or termination.').status, 'proposed');
  t.equal(draft('exitProvisions', 'During key rotation, both old and new keys remain accessible for a transition period.').status, 'not_found');
  // The processor role without an article, a DPA's subject matter, the GDPR's definition written out.
  t.equal(draft('personalData', 'Acme acts as processor only with respect to personal data in the Customer’s workspace.').value, true);
  t.equal(draft('personalData', 'The processing of personal data includes the data of the users of the service.').value, true);
  t.equal(
    draft(
      'personalData',
      'We will process any information relating to identified or identifiable natural persons in accordance with our Data Processing Addendum.',
    ).value,
    true,
  );
  t.equal(draft('personalData', 'Acme does not act as a processor for any customer, and we will not process personal data.').status, 'proposed');
  t.equal(draft('auditRights', 'Customers may contact our security team to request a copy of our SOC 2 report.').status, 'proposed');
  t.equal(draft('auditRights', 'We are working towards a SOC 2 report.').status, 'not_found');
  t.equal(draft('exitProvisions', 'Following termination of this Agreement, Acme will remove your Content from the Services.').status, 'proposed');
});

t.test('a contracting-entity table by customer domicile: the EU row gives entity, address and law; an Americas-only table gives nothing', async (t) => {
  const table = [
    'If Customer is domiciled in: United States or Canada; Customer is contracting with: Acme Inc.; Notices should be addressed to: 100 Main Street, Boston, MA 02110, USA; The governing law is: Laws of the Commonwealth of Massachusetts; The courts having exclusive jurisdiction are: Boston, Massachusetts',
    'If Customer is domiciled in: A country in Europe, the Middle East or Africa; Customer is contracting with: Acme Europe B.V.; Notices should be addressed to: Keizersgracht 100, 1015 AA Amsterdam, The Netherlands; The governing law is: Dutch law; The courts having exclusive jurisdiction are: Amsterdam, The Netherlands',
  ].join('\n');
  t.equal(draft('legalName', table).value, 'Acme Europe B.V.');
  t.equal(draft('address', table).value, 'Keizersgracht 100, 1015 AA Amsterdam, The Netherlands');
  t.equal(draft('governingLaw', table).value, 'NL', 'the row an EU financial entity contracts under, law named by its adjective');
  t.equal(draft('governingLaw', table.split('\n')[0]!).status, 'not_found', 'only the Americas row: not the EU entity’s law');
});

t.test('law by adjective or state, "subject to" and "applies"; never an export or transfer clause', async (t) => {
  t.equal(
    draft('governingLaw', 'This Agreement is subject to German law, excluding the UN Convention on Contracts for the International Sale of Goods.').value,
    'DE',
  );
  t.equal(draft('governingLaw', 'Delaware law applies to any dispute arising out of these Terms.').value, 'US');
  t.equal(draft('governingLaw', 'For transfers from Switzerland, Clauses 17 and 18 are governed by Swiss law.').status, 'not_found');
  t.equal(draft('governingLaw', 'The Services are subject to the export laws of the United States.').status, 'not_found');
});

t.test('short names, notice addresses, cards of subprocessors, "the subject of the Agreement", exit items under a lead-in', async (t) => {
  const { providerAliases } = await import('../../src/compliance/drafting/extractors.js');
  t.same(providerAliases('Acme Services, Inc.', 'between you and Acme Services, Inc. and/or its affiliates ("ASI", "we", "us")'), ['ASI']);
  t.equal(
    draft('address', 'To give us notice, you must send it by registered mail to: Acme, 1207 Market Street #12 Wilmington, DE 19801.', {
      vendorNames: ['Acme'],
      legalNames: ['Acme Services, Inc.'],
    }).value,
    '1207 Market Street #12 Wilmington, DE 19801',
  );
  const cards =
    'Hoster GmbH\nDatacenter, DNS\nIndustriestr. 25, 91710 Gunzenhausen, Germany\nhttps://hoster.example\n\nMail AG\nEmail\nRoute de la Gare 32, 1228 Geneva, Switzerland\nhttps://mail.example';
  t.same(
    (draft('subcontractors', cards, ctx, 'List of subprocessors').value as { name: string }[]).map((s) => s.name),
    ['Hoster GmbH', 'Mail AG'],
  );
  t.match(
    String(
      draft(
        'description',
        'The subject of the Agreement is the supply of the “Acme Cloud” software provided as SaaS to the Customer for use over the Internet.',
      ).value,
    ),
    /supply of the “Acme Cloud” software/,
  );
  t.match(
    String(draft('exitProvisions', 'Upon termination or expiration:\n- License rights immediately cease;\n- Customer data must be returned or deleted.').value),
    /returned or deleted/,
  );
  t.equal(
    draft('endDate', 'These Terms shall remain in effect unless terminated or amended as set forth herein.').value,
    null,
    'in effect until terminated: no end date',
  );
  t.equal(draft('endDate', 'These Terms shall remain in effect unless terminated or amended as set forth herein.').status, 'proposed');
});

t.test('European legal forms, after the name or before it, and not in an all-caps disclaimer', async (t) => {
  t.equal(draft('legalName', 'Acme B.V. is referred to as Acme.').value, 'Acme B.V.');
  t.equal(draft('legalName', 'Acme Cloud GmbH (hereinafter referred to as “the Provider”) offers hosting.').value, 'Acme Cloud GmbH');
  t.equal(draft('legalName', 'Widget Corp Inc. is referred to as the Reseller.').status, 'not_found', 'another party named the same way is not the vendor');
  t.same(companyNames('Operated by Nordlys AS (“Nordlys”, “we”) of Oslo.'), ['Nordlys AS']);
  t.same(companyNames('This Agreement is between SASU Acme and you.'), ['SASU Acme']);
  t.same(companyNames('Acme S.p.A., Beta Sp. z o.o. and Gamma GmbH & Co. KG'), ['Acme S.p.A.', 'Beta Sp. z o.o.', 'Gamma GmbH & Co. KG']);
  t.same(companyNames('THE SERVICES ARE PROVIDED AS IS. The Services are Provided AS IS.'), []);
  t.equal(draft('legalName', 'These Terms form a binding agreement between you and Acme Oy (“Acme”, “we”).').value, 'Acme Oy');
});

t.test('a legal name no clause defines: the one the documents keep using, when it clearly leads', async (t) => {
  const doc = (documentId: string, content: string): Passage => ({ ...passage(content), chunkId: `c-${documentId}`, documentId });
  const run = (passages: Passage[]) => draftFields({ vendorNames: ['Acme'], fields: ['legalName'], search: async () => passages }).then((f) => f[0]!);
  // No preamble, definition or imprint: two documents say "Acme Cloud, Inc.".
  let d = await run([
    doc('terms', 'Acme Cloud, Inc. provides the Services described on its website.'),
    doc('privacy', 'Questions about this policy can be sent to Acme Cloud, Inc. by e-mail.'),
    doc('sla', 'The Services are hosted by Example Hosting Ltd.'),
  ]);
  t.equal(d.status, 'proposed');
  t.equal(d.value, 'Acme Cloud, Inc.');
  t.ok(d.confidence! < 0.85, 'a lower confidence than a clause that names the provider');
  // Used in one document only, or two of the vendor's names as widely: nothing is proposed.
  d = await run([doc('terms', 'Acme Cloud, Inc. provides the Services.')]);
  t.not(d.status, 'proposed');
  d = await run([
    doc('terms', 'Acme Cloud, Inc. provides the Services. Acme Europe GmbH resells them.'),
    doc('privacy', 'Acme Cloud, Inc. and Acme Europe GmbH are joint controllers.'),
  ]);
  t.not(d.status, 'proposed');
});

t.test('a cloud region named by its code is the country it is in', async (t) => {
  t.same(draft('dataStorageLocations', 'Customer Data is stored in the AWS eu-central-1 region.').value, ['DE']);
  t.same(draft('dataStorageLocations', 'Customer data is stored in the europe-west1 and europe-west4 regions of Google Cloud.').value, ['BE', 'NL']);
  t.not(draft('dataStorageLocations', 'Customer Data is stored in the AWS eu-west-1 region.').value?.toString(), 'DE');
});

t.test('a notice period is read in its own clause; one a change of terms triggers is not the ordinary one; a purpose clause is no description', async (t) => {
  const two =
    'In addition, (i) either party may terminate this Agreement at any time when there is no Order Form in effect upon notice to the other party; and (ii) the Client may terminate this Agreement with thirty (30) days written notice upon a Material Change.';
  t.not(draft('noticePeriodDaysProvider', two).value, 30, "the Client's period is not the provider's");
  t.not(draft('noticePeriodDaysEntity', two).value, 30, 'a period triggered by a Material Change is not the ordinary notice period');
  const clauses =
    'In addition, (i) the Client may cancel an Order Form on renewal; and (ii) Acme may terminate this Agreement upon thirty (30) days’ notice to the Client.';
  t.equal(draft('noticePeriodDaysProvider', clauses).value, 30, 'the clause that names the party gives its period');
  t.equal(
    draft('noticePeriodDaysEntity', 'Either party may terminate this Agreement (a) for convenience upon sixty (60) days’ prior written notice.').value,
    60,
    'an enumeration that names no party keeps the sentence subject',
  );
  t.equal(draft('description', 'We have absolute discretion to do so, and this is to keep our platform clean, safe, and respectable.').status, 'not_found');
  t.equal(draft('description', 'Acme provides a hosted data warehousing platform for analytics teams.').status, 'proposed');
});

t.test("audit rights in the GDPR processor's wording, singular or in an infinitive list", async (t) => {
  const one = draft(
    'auditRights',
    'Not more than once in any period of twelve months, we will allow for and contribute to an audit, including an inspection, by you.',
  );
  t.equal(one.status, 'proposed');
  const list = draft(
    'auditRights',
    'The Processor undertakes to make available to the Client all information necessary to demonstrate compliance, and to allow audits.',
  );
  t.equal(list.status, 'proposed');
  t.equal(draft('auditRights', 'Acme does not allow audits of its facilities by customers.').status, 'not_found');
  t.equal(
    draft('auditRights', 'Acme will make information available and allow for any audits, including inspections, conducted by Customer or another auditor.')
      .status,
    'proposed',
  );
  t.equal(
    draft('renewal', 'Your subscription is subject to auto-renewal on the same terms and subscription length set forth in the Order Form.').status,
    'proposed',
  );
});

t.test('a contact block ends at its registration lines and needs no postcode when a country closes it; a programme is no service', async (t) => {
  const withNumbers = draft(
    'address',
    'Processor:\n\nAcme SRL\nStr. Fabricii, Nr. 47\nBucharest\nRomania\nTrade Register No.: J40/7232/2017\nCUI: 37597235\n',
    {
      ...ctx,
      legalNames: ['Acme SRL'],
    },
  );
  t.equal(withNumbers.value, 'Str. Fabricii, Nr. 47, Bucharest, Romania');
  const noCountry = draft('address', 'Processor:\n\nAcme SRL\nStr. Fabricii, Nr. 47\nBucharest\nTrade Register No.: J40/7232/2017\n', {
    ...ctx,
    legalNames: ['Acme SRL'],
  });
  t.equal(noCountry.status, 'not_found', 'street and town alone, without postcode or country, are not taken');
  // "Attn:" names who at the company reads the mail; the company's address follows. An agent's ("c/o") is not the company's.
  const attn = draft('address', 'Please write to:\n\nAcme Labs, Inc.\nAttn: Legal Department\n450 Market Street\nSan Francisco, CA 94107\n', {
    ...ctx,
    legalNames: ['Acme Labs, Inc.'],
  });
  t.equal(attn.value, '450 Market Street, San Francisco, CA 94107');
  const agent = draft('address', 'Please write to:\n\nAcme Labs, Inc.\nc/o Registered Agents Ltd\n1 Agent Road\nWilmington, DE 19801\n', {
    ...ctx,
    legalNames: ['Acme Labs, Inc.'],
  });
  t.equal(agent.status, 'not_found');
  t.equal(
    draft('description', 'Acme’s information security program is based on an established Information Security Management System (ISMS).').status,
    'not_found',
  );
  t.equal(draft('description', 'Acme’s platform is a hosted identity and security service for enterprises.').status, 'proposed');
});

t.test('contact blocks with the registration number first, one line per paragraph, registration lines after; a notice to the company "Attn:"', async (t) => {
  const cases: [string, string, string][] = [
    [
      '**Acme AB**  \n559075-0245  \nRättarvägen 3, 169 68 Solna  \nSweden\n\nFor privacy matters, contact gdpr@acme.example',
      'Acme AB',
      'Rättarvägen 3, 169 68 Solna, Sweden',
    ],
    [
      'If you have any questions, please contact us at:\n\nAcme, Inc.\n\n9740 Campo Rd. Suite 1029\n\nSpring Valley, CA 91977\n\n[legal@acme.example](mailto:legal@acme.example)',
      'Acme, Inc.',
      '9740 Campo Rd. Suite 1029, Spring Valley, CA 91977',
    ],
    ['Acme GmbH\nHauptstraße 5\n10115 Berlin\nGermany\nRegistered at Amtsgericht Berlin HRB 12345', 'Acme GmbH', 'Hauptstraße 5, 10115 Berlin, Germany'],
    ['Controller:\nAcme Oy\nBusiness ID 1234567-8\nMannerheimintie 12\n00100 Helsinki\nFinland', 'Acme Oy', 'Mannerheimintie 12, 00100 Helsinki, Finland'],
    [
      'You may reject any such change by written notice by mail or hand delivery to: Acme Technologies Inc. Attn: 601 Van Ness Ave Apt 28, San Francisco, CA 94102, or by email.',
      'Acme Technologies Inc.',
      '601 Van Ness Ave Apt 28, San Francisco, CA 94102',
    ],
    [
      'Acme Sp. z o.o. with its registered office in Warsaw, ul. Marszałkowska 1, 00-001 Warszawa, Poland, entered in the register under KRS 0000123456.',
      'Acme Sp. z o.o.',
      'ul. Marszałkowska 1, 00-001 Warszawa, Poland',
    ],
  ];
  for (const [text, legal, want] of cases) t.equal(draft('address', text, { ...ctx, legalNames: [legal] }).value, want, text);
  const prose = draft('address', 'Acme AB\nStorgatan 1\n111 22 Stockholm\n\nWe process your personal data with care and in accordance with the law.', {
    ...ctx,
    legalNames: ['Acme AB'],
  });
  t.equal(prose.value, 'Storgatan 1, 111 22 Stockholm', 'a paragraph of prose after a blank line ends the block');
});

t.test('addresses in imprint and footer lines, two-column tables, "Registered office:" under the name, after "org. no."', async (t) => {
  const cases: [string, string][] = [
    ['Acme GmbH · Hauptstraße 5 · 10115 Berlin · Germany', 'Hauptstraße 5, 10115 Berlin, Germany'],
    ['© 2024 Acme Inc. | 100 Main St, Suite 200, Boston, MA 02110', '100 Main St, Suite 200, Boston, MA 02110'],
    ['| Company | Acme Ltd |\n| --- | --- |\n| Address | 1 Main Street, Dublin 2, D02 X285, Ireland |', '1 Main Street, Dublin 2, D02 X285, Ireland'],
    [
      'Acme Ltd is a company registered in England and Wales.\nRegistered office: 12 High Street, London EC1A 1BB, United Kingdom',
      '12 High Street, London EC1A 1BB, United Kingdom',
    ],
    ['Acme AS, org. no. 912 345 678, Karl Johans gate 1, 0154 Oslo, Norway', 'Karl Johans gate 1, 0154 Oslo, Norway'],
  ];
  for (const [text, want] of cases) t.equal(draft('address', text).value, want, text);
  t.equal(
    draft('address', 'Registered office: 12 High Street, London EC1A 1BB, United Kingdom').status,
    'not_found',
    "a registered office with no provider's name near it",
  );
});

t.test(
  "where the vendor keeps its own records of customers (account, billing, contact details) is not where the service keeps the customer's data",
  async (t) => {
    t.equal(draft('dataStorageLocations', 'Account data and billing information are stored on our servers in Germany.').status, 'not_found');
    t.same(draft('dataStorageLocations', 'All Customer Data and account data are stored on our servers in Germany.').value, ['DE']);
  },
);

t.test('contract formulas and data-handling sentences that name the service are no description of it', async (t) => {
  for (const text of [
    'Acme is willing to provide the Subscription Services to you only upon the condition that you accept all the terms contained in these Terms.',
    'We provide all Services offered on a trial or proof of concept basis as stated in an Order Form "as is" and without warranties of any kind.',
    'The data importer is Acme, as defined in the Terms of Service.',
    'The platform is used to provide the Service for the User.',
    'Acme strives to only store data that is needed to provide the service.',
  ]) {
    t.equal(draft('description', text).status, 'not_found', text);
  }
  t.equal(draft('description', 'Acme provides a hosted software licensing and payments platform for software vendors.').status, 'proposed');
});

t.test("the notice of a change that lets the customer terminate is no provider's notice period", async (t) => {
  const change = draft(
    'noticePeriodDaysProvider',
    "For changes that materially reduce the core functionality of a paid plan, we will give at least 30 days' notice by email, and if the change has a material adverse effect on you, you may terminate the affected subscription.",
  );
  t.not(change.status, 'proposed');
  t.equal(draft('noticePeriodDaysProvider', "We may terminate this Agreement for convenience on 30 days' written notice to you.").value, 30);
});

t.test('a report offered to customers is read in its own words; an offer of something else next to a certificate is not', async (t) => {
  t.equal(draft('auditRights', 'Access to the full SOC 2 report is included in our paid plans.').status, 'proposed');
  const baa = draft(
    'auditRights',
    'Acme holds an ISO 27001:2022 certification and an attestation for SOC 2 Type 2.\nA HIPAA BAA is available to customers on the Enterprise plan.',
  );
  t.equal(baa.status, 'not_found', 'a BAA offered next to a certificate is no audit report offered');
});

t.test('terms accepted by use ("By accessing or using the Service, you agree to be bound") explain an open start date', async (t) => {
  const d = draft('startDate', 'By accessing or using the Service, you agree to be bound by these Terms and by our Privacy Policy.');
  t.equal(d.status, 'not_found');
  t.match(d.reason ?? '', /first use|no start date/);
});

t.test('an open field says why: a type not named, a term that renews, a subprocessor list kept elsewhere', async (t) => {
  const type = draft('ictServiceType', 'Acme provides a hosted observability platform for monitoring, status pages and incident management.');
  t.equal(type.status, 'not_found');
  t.match(type.reason ?? '', /do not name its type/);
  t.equal(draft('ictServiceType', 'Acme provides a software-as-a-service observability platform for monitoring and incident management.').value, 'S19');
  const renews = draft('endDate', 'Paid subscriptions renew automatically at the end of each billing period unless cancelled.');
  t.equal(renews.status, 'not_found');
  t.match(renews.reason ?? '', /renews automatically/);
  const elsewhere = draft('subcontractors', 'A current list of Subprocessors is available at https://acme.example/legal/subprocessors.');
  t.equal(elsewhere.status, 'not_found');
  t.match(elsewhere.reason ?? '', /kept elsewhere/);
});

t.test('an open location says why: the region the customer selects, transfers allowed outside Europe', async (t) => {
  const region = draft('dataStorageLocations', 'Customer Data is stored in the data center region that the customer selects at sign-up.');
  t.equal(region.status, 'not_found');
  t.match(region.reason ?? '', /region the customer selects/);
  const abroad = draft('dataProcessingLocations', 'Acme may transfer and process Customer Personal Data outside the EEA subject to appropriate safeguards.');
  t.equal(abroad.status, 'not_found');
  t.match(abroad.reason ?? '', /transfers outside the EEA are allowed/);
  t.notMatch(draft('dataProcessingLocations', 'Acme will not transfer or process Customer Data outside the EEA.').reason ?? '', /are allowed/);
});

t.test('the address is looked for next to the drafted legal name', async (t) => {
  const queries: string[] = [];
  await passagesOf('address', async (q) => (queries.push(q), []), undefined, ['Acme'], ['Acme AB']);
  t.ok(queries.includes('Acme AB address'), 'a query for the legal name');
  const block = { ...passage('## 1. Data Controller\n\n**Acme AB**  \n559075-0245  \nRättarvägen 3, 169 68 Solna  \nSweden'), chunkId: 'c2' };
  const drafted = await draftFields({
    vendorNames: ['Acme'],
    fields: ['legalName', 'address'],
    search: async (q) => (q.includes('Acme AB') ? [block] : [passage('This Agreement is entered into by and between Acme AB ("Acme") and the Customer.')]),
  });
  t.equal(drafted.find((f) => f.field === 'address')?.value, 'Rättarvägen 3, 169 68 Solna, Sweden');
});

t.test("personal data from a DPA's scope under Article 28(1) GDPR", async (t) => {
  const scope = draft(
    'personalData',
    'The following provisions apply to all processing activities within the meaning of Art. 28(1) GDPR that the processor performs for the controller.',
  );
  t.equal(scope.value, true);
  t.equal(draft('personalData', 'Processing within the meaning of Art. 28 GDPR is not part of this agreement.').status, 'not_found');
});

t.test("a service defined by the vendor's possessive; a workspace named 'Brand (Product)' goes by both", async (t) => {
  const content =
    '1.6. “Northwind Connect” or “NWC” means Northwind’s subscription-based software-as-a-service data warehousing solution and ETL platform that facilitates the extraction and loading of data.';
  const d = draft('description', content, { vendorNames: ['Northwind'] });
  t.equal(d.status, 'proposed');
  t.match(String(d.value), /Northwind’s subscription-based software-as-a-service data warehousing solution/);
  t.equal(draft('description', content, { vendorNames: ['Acme'] }).status, 'not_found', "another company's service is not the vendor's");
  // The workspace name "Northwind (Northwind Connect)": the possessive "Northwind’s" is the vendor's.
  const [field] = await draftFields({
    vendorNames: ['Northwind (Northwind Connect)'],
    fields: ['description'],
    search: async () => [passage(content)],
  });
  t.equal(field!.status, 'proposed');
});

t.test('an address after "of" in the preamble, without a postcode: a numbered street and its town', async (t) => {
  const c: ExtractContext = { vendorNames: ['Northwind Events Limited'] };
  const d = draft('address', 'We are Northwind Events Limited ("Northwind", "us" and "we") of Unit 2, 64 Harbour Street, Dublin 2.', c);
  t.equal(d.value, 'Unit 2, 64 Harbour Street, Dublin 2');
  t.equal(
    draft('address', 'Northwind Events Limited of 12 Main Street, Dublin 2, provides tickets to events.', c).status,
    'not_found',
    'prose after the town is not an address',
  );
  t.equal(draft('address', 'Northwind Events Limited is one of 3 ticketing companies in Dublin.', c).status, 'not_found');
});

t.test("a table of the group's entities: the address in the row of the provider's legal name", async (t) => {
  const content = [
    'Entity Name: Northwind B.V.; Headquarters Address: Marktplein 10, 5611EM, Eindhoven, Netherlands; Registration Number: KvK 70000001',
    'Entity Name: Northwind India Pvt. Ltd.; Headquarters Address: C-305, Glory Tower 11, Ahmedabad, Gujarat 382470, India; Registration Number: CIN U72900',
  ].join('\n\n');
  const d = draft('address', content, { vendorNames: ['Northwind'], legalNames: ['Northwind B.V.'] });
  t.equal(d.value, 'Marktplein 10, 5611EM, Eindhoven, Netherlands', "the provider's row, not an affiliate's");
  t.equal(draft('address', content, { vendorNames: ['Northwind'], legalNames: ['Northwind Ltd'] }).status, 'not_found', 'no row of its legal name');
});

t.test('a service described as "The “X Services” is a …", by the purpose of processing, or in the provision clause', async (t) => {
  const c: ExtractContext = { vendorNames: ['Northwind'] };
  let d = draft('description', 'The “_**Northwind Services**_” is a technology platform that lets you schedule and monitor your data pipelines.', c);
  t.match(String(d.value), /technology platform that lets you schedule/);
  t.equal(
    draft('description', 'The “Northwind Services” means the services Northwind makes available through this website and any other software.', c).status,
    'not_found',
    'a definition by what is made available is not a description',
  );
  d = draft('description', 'Northwind processes Customer Personal Data only for the provision of the **NW Platform**, an identity and access platform.', c);
  t.match(String(d.value), /NW Platform, an identity and access platform/);
  d = draft(
    'description',
    '**Purpose(s) for which the personal data is processed on behalf of the controller:** providing the Customer with cookie-free web analytics for its websites.',
    c,
  );
  t.match(String(d.value), /cookie-free web analytics/);
  t.equal(
    draft('description', 'Purpose of the processing: providing the Customer with the Services as described in the Agreement.', c).status,
    'not_found',
    '"the Services" says nothing of what they are',
  );
});

t.test('a type offered hosted or installed is not settled by "SaaS"', async (t) => {
  const c: ExtractContext = { vendorNames: ['Northwind'] };
  t.equal(
    draft('ictServiceType', 'Northwind provides a data pipeline platform that runs your pipelines through Northwind Connectors (SaaS or On-Prem).', c).status,
    'not_found',
  );
  t.equal(draft('ictServiceType', 'Northwind provides a hosted software-as-a-service platform for data pipelines.', c).value, 'S19');
});

t.test("a description in a document's opening passage is read when the retrieved passages describe nothing", async (t) => {
  const opening = { ...passage('The Northwind Cloud platform represents a complete pipeline delivery system for data teams.'), chunkId: 'o1' };
  const retrieved = passage('Northwind encrypts all data at rest with AES-256.');
  const [field] = await draftFields({
    vendorNames: ['Northwind Cloud'],
    fields: ['description'],
    search: async () => [retrieved],
    openings: async () => [opening],
  });
  t.equal(field!.status, 'proposed');
  t.match(String(field!.value), /complete pipeline delivery system/);
  const [without] = await draftFields({ vendorNames: ['Northwind Cloud'], fields: ['description'], search: async () => [retrieved] });
  t.equal(without!.status, 'not_found', 'without the openings, only the retrieved passages are read');
});

t.test('locations in the usual hosting wordings: data-centre cities, cloud region names, "resides", "deployed", "stored and processed"', async (t) => {
  const storage = (clause: string) => draft('dataStorageLocations', clause).value;
  t.same(storage('All customer data resides in data centers in Ireland.'), ['IE']);
  t.same(storage('We store your data in the EU (Frankfurt).'), ['DE'], 'a city in brackets names the country');
  t.same(storage('Acme hosts all customer data in Microsoft Azure West Europe.'), ['NL'], "a cloud provider's region name");
  t.same(storage('We use Hetzner data centres in Nuremberg and Falkenstein.'), ['DE']);
  t.same(storage('Production systems are hosted in the AWS Frankfurt region.'), ['DE']);
  t.same(storage('Customer Content is stored and processed in the United States.'), ['US']);
  t.same(draft('dataProcessingLocations', 'Customer Content is stored and processed in the United States.').value, ['US']);
  t.same(draft('serviceLocations', 'The Acme platform is deployed in AWS eu-west-1 (Ireland).').value, ['IE']);
  t.same(draft('serviceLocations', 'Our infrastructure runs on Google Cloud Platform in Frankfurt, Germany.').value, ['DE']);
  t.equal(
    draft('dataStorageLocations', 'For parties residing in the United States, the exclusive jurisdiction and venue for any claims is in Delaware.').status,
    'not_found',
    'a party residing somewhere is no data location',
  );
  t.equal(draft('dataStorageLocations', 'Acme was founded in Dublin and keeps a small team there.').status, 'not_found', 'a city without a storage cue');
});

t.test('a contract without an end date in its usual wordings; a date it runs until; a term tied to order forms is open', async (t) => {
  for (const clause of [
    'These Terms are effective until terminated by you or us.',
    'This Agreement shall remain in full force and effect until terminated.',
    'These Terms apply for as long as you use the Services.',
    'This Agreement will remain in effect for as long as Customer uses the Service.',
    'The Agreement shall be valid for an unlimited period.',
    'These Terms will continue to apply until terminated by either you or us as follows.',
  ]) {
    const d = draft('endDate', clause);
    t.equal(d.status, 'proposed', clause);
    t.equal(d.value, null, clause);
  }
  t.equal(draft('endDate', 'Unless terminated earlier, this Agreement will remain in force until 31 December 2027.').value, '2027-12-31');
  const orders = draft('endDate', 'This Agreement begins on the Effective Date and continues until all Order Forms have expired or been terminated.');
  t.equal(orders.status, 'not_found');
  t.match(orders.reason, /order form/);
  t.equal(draft('endDate', 'This Agreement remains in effect for 12 months from the Effective Date.').status, 'not_found', 'a duration is no date');
});

t.test('governing law said the other way round, by interpretation, or as a heading', async (t) => {
  t.equal(draft('governingLaw', 'The laws of Ireland govern this Agreement.').value, 'IE');
  t.equal(draft('governingLaw', 'Governing Law. Delaware law governs this Agreement.').value, 'US');
  t.equal(
    draft(
      'governingLaw',
      'This Agreement shall be interpreted in accordance with the laws of the Province of Ontario and the federal laws of Canada applicable therein.',
    ).value,
    'CA',
  );
  t.equal(draft('governingLaw', 'Governing law: Laws of Sweden').value, 'SE');
  t.equal(
    draft('governingLaw', 'The laws of the country where you live govern your rights as a consumer under data protection law.').status,
    'not_found',
    'a data-protection law is not the contract’s',
  );
});

t.test('a customer who may not audit has no audit right; a condition "may not" further on does not void one', async (t) => {
  t.equal(draft('auditRights', 'You may not audit our systems or conduct penetration tests.').status, 'not_found');
  t.equal(
    draft('auditRights', 'Customer may audit Acme once per year, and only if such an audit may not impose a threat to rights of any third party.').status,
    'proposed',
  );
});

t.test("a DPA cover page's subprocessors in one cell, with country and role in brackets; return or deletion after the DPA expires", async (t) => {
  const stored =
    'Term: Approved Subprocessors; Value: Northcloud (US; DNS, networking, and security provider), PacketHost (US/UK; hosting provider), Paymo (US; payment processor)';
  const d = draft('subcontractors', stored);
  t.same(
    (d.value as { name: string; country?: string; role?: string }[]).map((s) => [s.name, s.country, s.role]),
    [
      ['Northcloud', 'US', 'DNS, networking, and security provider'],
      ['PacketHost', 'US', 'hosting provider'],
      ['Paymo', 'US', 'payment processor'],
    ],
  );
  t.equal(
    draft('subcontractors', '| **Approved Subprocessors** | [Northcloud](https://example.com) (US; hosting), [Paymo](https://example.com) (US; payments) |')
      .status,
    'proposed',
  );
  t.equal(
    draft('subcontractors', 'Term: Agreement; Value: This DPA supplements the Terms of Service (the Agreement) and the Order Form (the Order)').status,
    'not_found',
  );
  t.equal(
    draft('exitProvisions', "After the DPA expires, Provider will return or delete Customer Personal Data at Customer's instruction.").status,
    'proposed',
  );
});

t.test(
  'forms of small vendors’ terms: submitting to a law, an extension by the agreed period, "The provider offers", a definition without quotes, "Server location is", a Czech postcode, subprocessor cards',
  async (t) => {
    t.equal(
      draft(
        'governingLaw',
        'The parties submit the contract exclusively to the law of Austria to the exclusion of the UN Convention on Contracts for the International Sale of Goods.',
      ).value,
      'AT',
    );
    t.equal(
      draft(
        'renewal',
        'The contractual relationship shall be extended in each case by the originally agreed period of time as long as neither party terminates.',
      ).status,
      'proposed',
    );
    t.equal(draft('renewal', 'The deadline for payment shall be extended by the bank holidays.').status, 'not_found', 'no contract, term or subscription');
    t.equal(draft('description', 'The provider offers customers a time tracking system and related services on the website.').status, 'proposed');
    const c: ExtractContext = { vendorNames: ['Northwind'] };
    t.equal(
      draft('description', 'Services refer to the Northwind software platform, its features and related support provided through the Website.', c).status,
      'proposed',
    );
    t.equal(draft('description', 'Services refer to the support services provided by our partners.', c).status, 'not_found');
    t.same(draft('dataStorageLocations', 'Server location is Falkenstein, Germany.').value, ['DE']);
    t.equal(
      draft(
        'address',
        'Company refers to Northwind Services s.r.o., ID No. 19338805, with its registered office at Vodičkova 12/3, 110 00 Prague 1 registered in the Commercial Register.',
        {
          vendorNames: ['Northwind', 'Northwind Services s.r.o.'],
          legalNames: ['Northwind Services s.r.o.'],
        },
      ).value,
      'Vodičkova 12/3, 110 00 Prague 1',
    );
    const cards = [
      'Mailer: Emails, Newsletter, Link, Privacy policy',
      'Mailer GmbH, Hauptstraße 12, 10179 Berlin, Germany',
      '',
      'Hoster: Server Hosting, Link, Privacy policy',
      'Hoster Online GmbH, Industriestr. 25, 91710 Gunzenhausen, Germany',
    ].join('\n');
    const d = draft('subcontractors', cards, ctx, 'Subprocessor');
    t.same(
      (d.value as { name: string; role?: string; country?: string }[]).map((s) => [s.name, s.role, s.country]),
      [
        ['Mailer', 'Emails, Newsletter', 'DE'],
        ['Hoster', 'Server Hosting', 'DE'],
      ],
    );
    t.equal(draft('subcontractors', cards, ctx, 'Contact').status, 'not_found', 'only under a subprocessors heading');
  },
);

t.test('a termination in writing "no later than 3 months prior to the end"; an audit right after what the customer suspects', async (t) => {
  const clause =
    'If not terminated in writing by either Party no later than 3 months prior to the end of the initial period, the Agreement will be automatically extended for consecutive periods of 12 months.';
  t.equal(draft('noticePeriodDaysEntity', clause).value, 90);
  t.equal(draft('noticePeriodDaysProvider', clause).value, 90);
  t.equal(
    draft(
      'auditRights',
      'If the Controller has a legitimate reason to suspect that the Processor does not fulfil its obligations, the Controller shall be entitled on 30 days’ written notice to carry out an audit of the Processor.',
    ).status,
    'proposed',
  );
  t.equal(draft('auditRights', 'The Customer does not have the right to audit Acme.').status, 'not_found');
});

t.test(
  '"the Supplier or the Customer giving three months written notice", "prolonged automatically", "in the form of a SaaS", an interface as a service',
  async (t) => {
    const clause =
      'Unless terminated by the Supplier or the Customer giving at least three (3) months written notice to the other Party prior to the end of each Initial Subscription Term, the subscription shall be prolonged automatically for consecutive periods of twelve (12) months each.';
    t.equal(draft('noticePeriodDaysEntity', clause).value, 90);
    t.equal(draft('noticePeriodDaysProvider', clause).value, 90);
    t.equal(draft('renewal', clause).status, 'proposed');
    t.equal(
      draft('ictServiceType', 'The Customer obtains a right to access and use the Software in the form of a SaaS during the Subscription Term.').value,
      'S19',
    );
    t.equal(draft('ictServiceType', 'The Customer may connect third-party software in the form of a SaaS to the Service.').status, 'not_found');
    t.equal(draft('description', 'Acme Web is a cloud-based interface for approval of invoices.').status, 'proposed');
  },
);

t.test('a schedule of governing laws by contracting entity is open, with why; two laws stay a conflict for the analyst', async (t) => {
  const schedule = [
    '| Governing law: | This Agreement shall be governed by the substantive laws of Sweden. |',
    '| Governing law: | This Agreement shall be governed by the substantive laws of Denmark. |',
    '| Governing law: | This Agreement shall be governed by the substantive laws of Norway. |',
  ].join('\n');
  const d = draft('governingLaw', schedule);
  t.equal(d.status, 'not_found');
  t.match(d.reason, /per contracting entity or region \(SE, DK, NO\)/);
  const two = draft('governingLaw', schedule.split('\n').slice(0, 2).join('\n'));
  t.equal(two.status, 'conflict');
});

t.test('a subscription that rolls over, a processor "only", an address ending in its country, a "Service" column read on', async (t) => {
  t.equal(
    draft('renewal', 'Unless your Subscription is suspended or terminated, your Subscription will roll over on an ongoing monthly basis.').status,
    'proposed',
  );
  t.equal(draft('personalData', 'Our customers are the data controller, whereas Acme is only a data processor on behalf of our customer.').value, true);
  t.equal(
    draft('address', 'ACME DETAILS\n\nAcme Israel Ltd\n\nAddress: Yigal Alon Street 94, Tel Aviv, Israel').value,
    'Yigal Alon Street 94, Tel Aviv, Israel',
  );
  // A table whose first column is the service, with Markdown links as names; its rows go on in the passages
  // after the one retrieval found, which no longer hold the lead-in that named them subprocessors.
  const lead = passage(
    'Here is our list of sub-processors and why we use them:\n\nService: [Apollo.io](https://apollo.io); Location: United States; Why we use it: Enrichment.',
  );
  const rest = { ...passage('Service: Zapier; Location: United States; Why we use it: Internal automation.'), chunkId: 'c2' };
  const after = { ...passage('## Contact\n\nWrite to privacy@acme.example.'), chunkId: 'c3' };
  const [sub] = await draftFields({
    vendorNames: ['Acme'],
    fields: ['subcontractors'],
    search: async () => [lead, rest],
    following: async (p) => (p.chunkId === 'c1' ? [rest, after] : []),
  });
  t.same(
    (sub!.value as { name: string }[]).map((s) => s.name),
    ['Apollo.io', 'Zapier'],
    'the rows after the lead-in are read with its context, even when retrieval returned them first',
  );
});

t.test('a contract that comes into existence on a click, or binds on purchase or signature, starts on an event', async (t) => {
  for (const clause of [
    'A contract for an event comes into existence when you click the Go Live button.',
    'These Terms bind the customer upon purchase, access or use of the Software.',
    'The Agreement enters into force on signature of the Main Agreement by both Parties.',
  ]) {
    const d = draft('startDate', clause);
    t.equal(d.status, 'not_found', clause);
    t.match(d.reason, /starts on an event/, clause);
  }
});

t.test('EU legal forms written out, an address in brackets after the town, and a labelled subprocessor list', async (t) => {
  t.equal(
    draft(
      'legalName',
      'These terms form a legally binding agreement between you and **Acme Cloud spółka z o.o.**, a company incorporated under the laws of the Republic of Poland.',
    ).value,
    'Acme Cloud spółka z o.o.',
  );
  t.equal(draft('legalName', 'This Agreement is made between you and Acme Cloud d.o.o. ("we", "us").').value, 'Acme Cloud d.o.o.');
  // The abbreviation "ul." (street) does not end the sentence, and a Polish postcode is a postcode.
  t.equal(
    draft(
      'address',
      'This agreement is with Acme Cloud spółka z o.o., a company duly incorporated and existing under the laws of the Republic of Poland, with its principal place of business in Gdansk (address: ul. Długa 12, 80-827 Gdansk, Poland; registration: KRS 0000123456).',
      { vendorNames: ['Acme', 'Acme Cloud spółka z o.o.'] },
    ).value,
    'ul. Długa 12, 80-827 Gdansk, Poland',
  );
  const list = [
    '- List of Sub-Processors:',
    '',
    '- Hosting Providers:',
    '',
    '- Purpose: To host the infrastructure on which the services run.',
    '',
    '- Provider: Northwind Hosting GmbH (Hafenstraße 3, 20457 Hamburg, Germany).',
    '',
    '- Location: EU/EEA.',
    '',
    '- Payment Processors:',
    '',
    '- Purpose: To handle payments.',
    '',
    '- Provider: Contoso Payments Limited (Registered office: 1 Quay Street, Dublin 1, Ireland).',
  ].join('\n');
  const sub = draft('subcontractors', list, ctx, 'ANNEX 3: SUB-PROCESSORS');
  t.same(
    sub.value,
    [
      { name: 'Northwind Hosting GmbH', role: 'To host the infrastructure on which the services run', country: 'DE' },
      { name: 'Contoso Payments Limited', role: 'To handle payments', country: 'IE' },
    ],
    'the provider item names each one; its purpose is its role; a category item is not a name',
  );
  t.equal(draft('legalName', list, ctx, 'ANNEX 3: SUB-PROCESSORS').status, 'not_found', '"Provider: X" in a subprocessor list is not the provider');
});

t.test('cancelling the automatic renewal at any time is not termination at will; a right non-payment triggers is for cause', async (t) => {
  const renewal =
    'Your Subscription will automatically renew for successive periods equal to the original Subscription Term, unless either party gives the other written notice of its intent not to renew at least thirty (30) days prior to the end of the then-current term.\n\nYou may cancel the automatic renewal of your Subscription at any time through your account settings page or by written notice to Acme.';
  t.equal(draft('noticePeriodDaysEntity', renewal).value, 30);
  const provider =
    'This Agreement will automatically renew for successive one-year terms unless either party provides 15 days’ prior written notice of non-renewal.\n\nAcme may immediately suspend or terminate your access to the Add-on if you fail to timely pay the Add-on Fees.';
  t.equal(draft('noticePeriodDaysProvider', provider).value, 15);
});

t.test('"Our proprietary platform enables users to …" describes the service', async (t) => {
  const d = draft(
    'description',
    'Our proprietary platform (the “Platform”) enables users (such as yourself) to create, distribute, and manage online forms and surveys.',
  );
  t.equal(d.status, 'proposed');
});

t.test('locations: a server location is where the service runs; the vendor as the subject of a clause; "store and process … in"', async (t) => {
  t.same(draft('serviceLocations', 'The service runs on a cloud provider. Server location is Falkenstein, Germany.').value, ['DE']);
  const clause = "The Customer agrees that Acme and its Subprocessors store and process Customer's Data in Israel, where their facilities are located.";
  t.same(draft('dataStorageLocations', clause).value, ['IL']);
  t.same(draft('dataProcessingLocations', clause).value, ['IL']);
});

t.test("a subprocessor under its own company heading; the vendor's services named SaaS", async (t) => {
  const entry = draft(
    'subcontractors',
    'Northwind us used as a sub-processor for the following services:\n\n- Hosting of the Service (Northwind Cloud)\n\n- Email services\n\nNorthwind is located in the United States.',
    ctx,
    'Sub-Processors > Northwind Inc.',
  );
  t.same(
    entry.value,
    [{ name: 'Northwind Inc.', role: 'Hosting of the Service (Northwind Cloud); Email services', country: 'US' }],
    'the services listed are its role, not names',
  );
  t.equal(
    draft('ictServiceType', 'Acme grants to Customer a right to remotely access and use the Acme SaaS services listed in the relevant Subscription Form.')
      .value,
    'S19',
  );
});

t.test(
  'more usual wordings: "provided by", "is a company registered", "refer to", notices with Attn, passive termination, "end this agreement", "construed and governed"',
  async (t) => {
    const cases: [DraftField, string, unknown][] = [
      ['legalName', 'Acme Ltd is a company registered in England and Wales under company number 12345678.', 'Acme Ltd'],
      ['legalName', 'The Services are provided by Acme GmbH, Musterstraße 1, 10115 Berlin, Germany.', 'Acme GmbH'],
      ['legalName', 'In these Terms, "we", "us" and "our" refer to Acme B.V.', 'Acme B.V.'],
      ['legalName', 'The Service is owned and operated by Acme Solutions S.L., with registered office in Madrid.', 'Acme Solutions S.L.'],
      ['address', 'Notices to Acme shall be sent to: Acme Inc., Attn: Legal, 100 Main Street, Boston, MA 02110.', '100 Main Street, Boston, MA 02110'],
      ['address', 'Acme B.V. is located at Keizersgracht 1, 1015 CJ Amsterdam, the Netherlands.', 'Keizersgracht 1, 1015 CJ Amsterdam, the Netherlands'],
      ['noticePeriodDaysEntity', 'This Agreement can be terminated by the Customer with a notice period of one month.', 30],
      ['noticePeriodDaysProvider', 'Acme can end this agreement by giving you at least 60 days’ written notice.', 60],
      ['governingLaw', 'The Agreement shall be construed and governed in accordance with Finnish law.', 'FI'],
      ['personalData', 'In providing the Services, Acme will process Customer Personal Data as a data processor.', true],
    ];
    for (const [field, text, want] of cases) t.same(value(field, text), [want], `${field}: ${text}`);
    t.equal(
      value('legalName', 'The Services are provided by Northwind Hosting GmbH on behalf of Acme.').length,
      0,
      "another company's name is not the provider's",
    );
    for (const text of [
      'This Agreement is extended by one year at a time unless terminated.',
      'Unless cancelled, your plan will be renewed for the same period.',
    ])
      t.equal(value('renewal', text).length, 1, text);
  },
);

t.test(
  'a role defined as the company, a company with its registration number, a notice period "is", locations "exclusively in" and "takes place in"',
  async (t) => {
    const cases: [DraftField, string, unknown][] = [
      ['legalName', 'Company means Acme Data GmbH.', 'Acme Data GmbH'],
      ['legalName', 'These terms govern your use of the services of Acme AS, org. no. 912 345 678.', 'Acme AS'],
      ['legalName', 'You are contracting with Acme Europe B.V.', 'Acme Europe B.V.'],
      ['legalName', 'The Provider is Acme Sp. z o.o. with its registered seat in Warsaw.', 'Acme Sp. z o.o.'],
      ['address', 'Acme SAS, whose registered office is located at 12 rue de la Paix, 75002 Paris, France.', '12 rue de la Paix, 75002 Paris, France'],
      ['address', 'Our postal address is Acme Oy, Mannerheimintie 12, 00100 Helsinki, Finland.', 'Mannerheimintie 12, 00100 Helsinki, Finland'],
      ['noticePeriodDaysEntity', 'The notice period for termination by the Customer is 3 months to the end of a quarter.', 90],
      ['personalData', 'Acme processes the following categories of personal data on behalf of the Controller: names, e-mail addresses.', true],
      ['dataStorageLocations', 'Customer Data is stored exclusively in data centres in Germany.', ['DE']],
      ['serviceLocations', 'The Services are provided from data centres in the Netherlands.', ['NL']],
      ['serviceLocations', 'We host the Service on Hetzner servers in Finland.', ['FI']],
      ['dataProcessingLocations', 'Personal data is processed only in Norway.', ['NO']],
      ['dataProcessingLocations', 'The processing of personal data takes place in Germany.', ['DE']],
    ];
    for (const [field, text, want] of cases) t.same(value(field, text), [want], `${field}: ${text}`);
    t.same(
      value('dataStorageLocations', 'For certain Canadian universities, all personal information is stored only in Canada.'),
      [],
      'a place for some customers only',
    );
  },
);

t.test(
  'an order form label "Platform Description:", the SaaS solution a contract governs, "you or we notify … non-renew", "enforced in accordance with the laws of"',
  async (t) => {
    t.equal(draft('description', 'Platform Description: Acme Keycloak user authentication and SSO service').status, 'proposed');
    t.equal(
      draft('ictServiceType', 'This SaaS Service Agreement governs your use of the software-as-a-service solution identified below (the "Service").').value,
      'S19',
    );
    const renewal =
      'The Term will automatically renew for consecutive periods of equal duration unless you or we notify the other of its desire to non-renew the Term at least 30 days prior to the end of the current Term.';
    t.equal(draft('noticePeriodDaysEntity', renewal).value, 30);
    t.equal(draft('noticePeriodDaysProvider', renewal).value, 30);
    t.equal(
      draft(
        'governingLaw',
        'This Agreement will be interpreted, construed, and enforced in all respects in accordance with the local laws of the State of Washington, without reference to its choice of law rules.',
      ).value,
      'US',
    );
  },
);

t.test(
  '"the state of Delaware", "to be considered as … (“Data processor”)", "sub processors" spelt apart, "reclaim", a notice before termination, a notice of changes',
  async (t) => {
    t.equal(
      draft('governingLaw', 'This Agreement will be governed by the laws of the state of Delaware without regard to conflict of law principles.').value,
      'US',
    );
    t.equal(draft('personalData', 'Vendor is to be considered as a personal data counsel ("Data processor") for the Customer.').value, true);
    const list =
      'The list below shows the list of sub processors that we are using to deliver you the service:\n\n- Microsoft Azure for application and data storage\n- Stripe for payments';
    t.same(
      (draft('subcontractors', list).value as { name: string }[]).map((s) => s.name),
      ['Microsoft Azure', 'Stripe'],
    );
    t.equal(
      draft(
        'exitProvisions',
        'If the data processing ceases as a result of the termination of the Main Agreement, the Customer must reclaim the personal data within 14 days from the date of termination.',
      ).status,
      'proposed',
    );
    t.equal(draft('noticePeriodDaysProvider', 'Prior to termination or transfer, we will provide 90 days’ notice to users via email.').value, 90);
    t.equal(
      draft(
        'noticePeriodDaysProvider',
        'If we change the Terms in any substantive way, we will give you at least seven (7) days’ notice before the changes take effect, during which you may reject the changes by terminating your account.',
      ).status,
      'not_found',
      'a notice of changes to the terms is no notice period for terminating',
    );
  },
);

t.test(
  'a third set of usual wordings: names in the lead-in sentence, "available for download", "consist of", an address before "is", a bracket after the name, "is effective as of"',
  async (t) => {
    const sub = draft(
      'subcontractors',
      'Acme currently engages the following third-party subprocessors: Microsoft Ireland Operations Limited (hosting, Ireland) and Twilio Inc. (SMS, USA).',
    );
    t.same(sub.value, [
      { name: 'Microsoft Ireland Operations Limited', country: 'IE' },
      { name: 'Twilio Inc.', country: 'US' },
    ]);
    t.equal(
      draft('exitProvisions', 'Upon termination of the Agreement, Acme will make Customer Data available for download for 30 days and will then delete it.')
        .status,
      'proposed',
    );
    t.equal(draft('description', 'The Services consist of Acme’s cloud-based document management software and related support.').status, 'proposed');
    t.equal(
      draft('address', 'Acme Analytics GmbH, Friedrichstraße 123, 10117 Berlin, Germany, is the provider of the Service.').value,
      'Friedrichstraße 123, 10117 Berlin, Germany',
    );
    t.equal(draft('address', 'Acme Labs Oy (Business ID 1234567-8), Kalevankatu 1, 00100 Helsinki, Finland').value, 'Kalevankatu 1, 00100 Helsinki, Finland');
    const start = draft('startDate', 'This Agreement is effective as of the date Customer first accepts it.');
    t.match(start.reason, /starts on an event/);
  },
);

t.test('"may be cancelled by the Customer at the latest 30 days before renewal"', async (t) => {
  t.equal(draft('noticePeriodDaysEntity', 'Subscriptions may be cancelled by the Customer at the latest 30 days before renewal.').value, 30);
  t.equal(
    draft('noticePeriodDaysProvider', 'Subscriptions may be cancelled by the Customer at the latest 30 days before renewal.').status,
    'not_found',
    "the customer's period only",
  );
});

t.test('legal forms of more jurisdictions in a preamble', async (t) => {
  for (const name of [
    'Acme SA',
    'Acme a.s.',
    'Acme Pte. Ltd.',
    'Acme Srl',
    'Acme Labs, Incorporated',
    'Acme NV',
    'Acme L.P.',
    'Acme Software e.K.',
    'Acme Sagl',
    'Acme S.A.S.U.',
    'Acme Lda',
    'Acme Ltda.',
    'Acme ehf.',
    'Acme spol. s r.o.',
    'Acme K.K.',
    'Acme Limited Liability Company',
  ])
    t.same(value('legalName', `This Agreement is entered into between ${name} and the Customer.`), [name], name);
  t.same(
    value('legalName', 'This Agreement is entered into between ACME SOFTWARE SA and the Customer.'),
    [],
    'a bare "SA" after an all-caps name is not read (a disclaimer in capitals)',
  );
});

t.test('descriptions in recitals, DPA annex labels, "helps companies", "will provide … its hosted platform"', async (t) => {
  t.match(
    value(
      'description',
      'Whereas the Parties have agreed that Acme will provide services to Customer in the field of software licensing, payments and analytics.',
    ),
    [/software licensing/],
  );
  t.match(value('description', 'WHEREAS the Supplier provides software-as-a-service solutions for document management;'), [/document management/]);
  t.match(value('description', 'Description of processing: Acme Web is a cloud-based interface for approval of invoices.'), [/approval of invoices/]);
  t.match(value('description', 'The Acme platform enables teams to build, test and deploy machine learning models.'), [/machine learning/]);
  t.match(value('description', 'Acme helps companies automate their payroll and benefits administration.'), [/payroll/]);
  t.match(value('description', 'The Service means the Acme identity verification APIs, dashboards and related documentation.'), [/identity verification/]);
  t.match(value('description', 'Acme shall provide the Customer with access to its hosted data integration platform as described in the Order Form.'), [
    /data integration platform/,
  ]);
  // Still no description: a recital, a help or an access that says nothing of what the service does.
  t.same(value('description', 'Whereas Acme will provide the services to the Customer for the term of this Agreement.'), []);
  t.same(value('description', 'Acme helps customers use the Service.'), []);
  t.same(value('description', 'Acme shall provide the Customer with access to its Service during the Subscription Term.'), []);
});

t.test('audit rights in the passive and as cooperation with the customer’s requests to audit', async (t) => {
  t.equal(
    value('auditRights', 'Audits may be carried out by the Customer or an independent auditor mandated by the Customer, no more than once per calendar year.')
      .length,
    1,
  );
  t.equal(value('auditRights', 'Acme will cooperate with reasonable requests by the Customer to audit its processing activities.').length, 1);
  t.same(
    value('auditRights', 'Audits may be carried out by Acme at any time to verify the Customer’s compliance with the licence.'),
    [],
    "the provider's audit of the customer",
  );
});

t.test('the legal name as a trading name’s company, a product’s company, a copyright line, the controller, "Org. nr"', async (t) => {
  t.same(value('legalName', 'Acme ("we") is a trading name of Beta Systems Ltd.'), ['Beta Systems Ltd.']);
  t.same(value('legalName', 'Acme is a product of Acme Software S.L., with registered office at Calle Mayor 1, Madrid.'), ['Acme Software S.L.']);
  t.same(value('legalName', '© 2024 Acme GmbH. All rights reserved.'), ['Acme GmbH']);
  t.same(value('legalName', 'The controller is Acme sp. z o.o., ul. Prosta 1, Warsaw.'), ['Acme sp. z o.o.']);
  t.same(value('legalName', 'Company: Acme AB, Org. nr 556000-0000, Stockholm, Sweden'), ['Acme AB']);
  // Another company's product or copyright is not the vendor's legal name.
  t.same(value('legalName', 'The editor is a product of Beta Software S.L. and is licensed to us.'), []);
  t.same(value('legalName', '© 2024 Beta Maps GmbH, map data.'), []);
});

t.test('the legal name before its seat: "with its registered office at", "is located at"', async (t) => {
  t.same(value('legalName', 'Acme s.r.o., with its registered office at Na Příkopě 1, 110 00 Prague 1, Czech Republic, ID No. 12345678.'), ['Acme s.r.o.']);
  t.same(value('legalName', 'Acme SAS, a société par actions simplifiée with its registered office at 10 rue de la Paix, 75002 Paris, France.'), ['Acme SAS']);
  t.same(value('legalName', 'Acme, Inc. is located at 100 Main Street, Boston, MA 02110.'), ['Acme, Inc.']);
  t.same(value('legalName', 'Acme GmbH has its registered office in Munich.'), ['Acme GmbH']);
  t.same(value('legalName', 'Acme Ltd, registered in England and Wales under company number 01234567.'), ['Acme Ltd']);
  t.same(value('legalName', 'Acme GmbH, registered with the commercial register of the Local Court of Munich under HRB 12345.'), ['Acme GmbH']);
  t.same(value('legalName', 'Acme Limited, incorporated and registered in Ireland with company number 123456.'), ['Acme Limited']);
  t.same(value('legalName', 'Acme SAS au capital de 10 000 euros, RCS Paris 123 456 789.'), ['Acme SAS']);
  t.same(value('legalName', 'Beta Hosting GmbH, with its registered office in Frankfurt, hosts the Service.'), [], "another company's seat");
});
