import { CLOUD_REGION_CODES, countriesIn, type Sentence } from '../text.js';
import { clean, found, keyValues, openFound, vendorAlt, vendorSubject, type Found, type Rule } from './common.js';
import { subprocessorRows } from './subprocessors.js';

/**
 * The register drafting rules for where the service is provided and data is stored and
 * processed: countries named after the field's cue, and the hosting provider's row of a
 * subprocessor table (`withHosting` joins the two).
 */

const VAGUE =
  /\b(privacy framework|department of commerce|certified|adequacy|variety of|other countries|any country|around the world|worldwide|globally|such as|for example|may (be )?(transfer|store|process)|any other countr|abroad|primarily|(choose|chooses|chosen|selects?|selected|selection|elects?|opts?)\b|multiple|several|various|a number of|\beither\b[^.;]{0,60}\bor\b|mainly|generally|typically|by default|from time to time|for (certain|some|selected|specific|particular)(?: [\w-]+){0,2} (customers|clients|users|universities|institutions|plans|accounts|regions))/i;
const NEGATED = /\b(outside (of )?|not (be )?(stored|located|processed|transferred) (in|to)|except)\s*(the\s+)?$/i;
/** Someone else's data or place: a website's cookies and analytics, a third party's office. */
const NOT_SERVICE_DATA =
  /\b(cookies?|analytics|tracking|advertis|website|web site|log files?|operated by|headquartered|offices? (is|are) located|registered office|HIPAA|PHI|venue|exclusive jurisdiction|(individuals|data subjects|persons|people|residents|users|customers|visitors) (located|residing|resident|based) in)\b/i;
/** The vendor's own records about its customers: where they are kept says nothing about where the service keeps the customer's data. */
const OWN_RECORDS =
  /\b(account (information|data|details)|billing (information|data|details|records)|payment (information|data|details)|contact (information|details)|log data|usage data|support (tickets|requests))\b/i;
/** The clause of a sentence around a position: split at semicolons and at ", and" / ", but" / ", while". */
function clauseAt(text: string, at: number): string {
  const cut = /;|,\s+(?:and|but|while|whereas)\s+/g;
  let start = 0;
  for (let m = cut.exec(text); m; m = cut.exec(text)) {
    if (m.index >= at) return text.slice(start, m.index);
    start = m.index + m[0].length;
  }
  return text.slice(start);
}

/** "outside the EEA", "outside your home country": where a transfer may go. */
const OUTSIDE_AREA = String.raw`\boutside (of )?(the )?(EEA|EU|European Union|European Economic Area|UK|United Kingdom|Switzerland|your (home )?country)\b`;
const OUTSIDE = new RegExp(OUTSIDE_AREA, 'i');
/** Data that may be transferred, processed or stored outside Europe or the reader's country. */
const ALLOWED_OUTSIDE = new RegExp(String.raw`\b(transfer\w*|process\w*|stor\w*)\b[^.;]{0,80}${OUTSIDE_AREA}`, 'i');

/** Only a region is named ("within the European Union", "in the EEA"): no country. */
const REGION_ONLY = /\b(in|within)\s+(the\s+)?(European Union|EU|EEA|European Economic Area|Europe)\b/;

/**
 * Countries named right after the field's cue ("stored in the United States", "data centers
 * in Germany and Ireland"), leaving out negated mentions ("outside of the US"), hedged or
 * open-ended ones ("primarily", "and other countries"), and sentences about someone else's
 * data (a website's cookies, a third party's office). A cue followed only by a region
 * ("stored on servers within the European Union") is open: no country is named.
 */
/** "in (the) X", "within X", "from X": X a name (capitalised) or a cloud region's code ("in the europe-west1 region"). */
const PLACE_PHRASE = new RegExp(
  String.raw`^[^.;]{0,80}?\b(?:in|within|from)\s+((?:the\s+)?(?:[A-Z]|(?:${CLOUD_REGION_CODES})(?![\w-]))(?:[^.;()]|\([^.;()]{1,40}\)){1,120})`,
);

/** "Server location is X", "Data location: X": the place stated as the location itself. */
const LOCATION_IS = /^(?:(?:server|data|hosting|storage) locations?|data cent(?:er|re)s?(?: locations?)?)\s*(?:is|are|:)\s+((?:the\s+)?[A-Z][^.;()]{1,80})/i;

function locationRule(cue: RegExp, what: string): Rule {
  return (_c, ss, ctx) => {
    const out: Found[] = [];
    // The vendor as the subject of a clause within the sentence: "The Customer agrees that Nebius and its Subprocessors store and process Customer's Data in Israel".
    const alt = vendorAlt(ctx);
    const vendorClause = alt
      ? new RegExp(
          String.raw`\b(?:that|where)\s+(?:${alt})\b(?:\s+and\s+its\s+(?:sub-?processors|affiliates|subcontractors))?\s+(?:will\s+|shall\s+|only\s+)?(?:store|stores|process|processes|host|hosts)\b`,
          'i',
        )
      : null;
    // A table row as the ingestion writes it ("Sub-processor: X; Service: we only host in Dublin, Ireland"): each cell is read on its own.
    const cells = (s: Sentence) => keyValues(clean(s.text))?.map(([, v]) => v) ?? [clean(s.text)];
    for (const s of ss) {
      if (s.text.trim().startsWith('|')) continue; // tables are the subcontractors' locations
      for (const t of cells(s)) {
        const cueAt = cue.exec(t);
        if (!cueAt || NOT_SERVICE_DATA.test(t) || /^Data processed in (the )?[A-Z][\w-]* Cloud\b/.test(t)) continue;
        // Data the vendor holds about its own customers (account, billing, contact details), not the customer's data in the service.
        if (OWN_RECORDS.test(t) && !/\b(customer|client) (data|content)\b|\ball (customer |personal )?data\b|\bpersonal data\b|\bcontent\b/i.test(t)) continue;
        if (
          !/\b(we|our|all|customer data|personal data|data|content|information|infrastructure|platform|production|products|services?|data centers?|servers?|code)\b/i.test(
            t,
          ) &&
          !vendorSubject(t, ctx)
        )
          continue;
        const after = t.slice(cueAt.index);
        // Backups alone ("Backups are stored in a separate data center in Belgium") are not where the data is.
        if (/\bbackups?\b/i.test(t.slice(0, cueAt.index)) && !/\b(customer|personal|your|all|client) (data|content)\b|\bdata and backups\b/i.test(t)) continue;
        // Hedging is read in the clause that states the place: "We store your data in the US, and it may be processed elsewhere" stores it in the US.
        const clause = clauseAt(t, cueAt.index);
        const vague = VAGUE.test(clause) || /\band (other|various|additional)\b[^.]{0,20}\b(countries|locations|jurisdictions)\b/i.test(clause);
        // Countries named within the cue's phrase: "in (the) X", "in X and Y", "Server location is Falkenstein, Germany".
        const phrase = PLACE_PHRASE.exec(after) ?? LOCATION_IS.exec(after);
        const codes = phrase
          ? countriesIn(phrase[1]!)
              .filter((c) => !NEGATED.test(phrase[1]!.slice(Math.max(0, c.index - 40), c.index)))
              .map((c) => c.code)
          : [];
        if (!codes.length) {
          if (/^[^.;]{0,40}?\b(in|to) (other|any( other)?|various|multiple|several) (countries|country|jurisdictions?)\b/i.test(after))
            out.push(openFound(s, `no country is named: the documents say only "other" or "any" countries for where ${what}`));
          if (REGION_ONLY.test(after) && !vague && /\b(we|our|data|servers?|infrastructure|platform|services?|application|hosted)\b/i.test(t))
            out.push(openFound(s, `only a region is named (${REGION_ONLY.exec(after)![3]}), not the countries where ${what}`));
          // "Data is stored in the region you select at sign-up": the place is the customer's choice, not a fixed country.
          else if (
            /\b(region|location|data cent(?:er|re))s?\b[^.;]{0,60}\b(you|customers?|the customer|clients?)\b[^.;]{0,20}\b(selects?|selected|chooses?|chose|chosen|picks?|opts?)\b|\b(selected|chosen) by (you|the customer|customers?)\b/i.test(
              t,
            )
          )
            out.push(
              openFound(s, `${what.replace(/^the service is provided$/, 'the service runs')} in the region the customer selects; no country is fixed`, 0.6),
            );
          // "Acme may transfer and process Customer Data outside the EEA": processing anywhere the safeguards allow.
          else if (ALLOWED_OUTSIDE.test(t) && !/\b(not|never|no|without|prohibited|only with)\b[^.;]{0,60}\boutside\b/i.test(t))
            out.push(
              openFound(s, `transfers ${OUTSIDE.exec(t)?.[0] ?? 'abroad'} are allowed; the documents give no fixed list of countries where ${what}`, 0.55),
            );
          continue;
        }
        // A region named beside the countries ("in the United Kingdom and the European Economic Area"): the list is not of countries.
        if (phrase && /\b(and|or)\s+(the\s+)?(European Union|EU|EEA|European Economic Area|Europe)\b(?![\w-])/.test(phrase[1]!)) {
          out.push(openFound(s, `a region is named beside ${codes.join(', ')}; the countries where ${what} are not all named`));
          continue;
        }
        if (vague) {
          out.push(
            openFound(s, `the documents name ${codes.join(', ')} only as a possible or partial location; the set of countries where ${what} is not fixed`),
          );
          continue;
        }
        if (
          !vendorSubject(t, ctx) &&
          !vendorClause?.test(t) &&
          !/\b(our|all (customer |personal )?data|data infrastructure|(stored|hosted|processed|located)(?: (?:exclusively|only|solely|entirely))? (in|on|within)|(stored|hosted|processed)(,? and (stored|hosted|processed))+ (in|within)|hosted (?:(?:at|by|with|on) [^.;]{0,40}?,?\s)?(?:in|within)|(we|only) host (in|within)|provided from|operated (from|in)|data cent(?:er|re)s? (?:(?:located|based) )?in|data cent(?:er|re)s? (?:is|are)|servers? (?:are |is )?(?:located )?in|runs? in|(?:remains?|stays?|kept) (?:in|within)|takes? place (?:(?:exclusively|only|solely|entirely) )?(in|within)|operated in|located in|running in|run on|resides? in|residing in|data residency|deployed (in|on)|(server|data|hosting|storage) locations? (is|are))\b/i.test(
            t,
          )
        )
          continue;
        out.push(found(s, [...new Set(codes)].sort(), 0.8));
      }
    }
    return out;
  };
}

export const storage = locationRule(
  /\b((server|data|hosting|storage) locations?\s*(is|are|:)|stored|stores?|storage|hosted|hosts|host (in|on|within)|data cent(er|re)s?|data infrastructure|infrastructure (is|are) located|servers? (are |is )?(located )?in|servers? (are )?located|(data|content|information) (resides?|residing|remains?|stays?|is kept|are kept)|data residency|deployed)\b/i,
  'data is stored',
);
export const processing = locationRule(
  /\b(processed|processes|processing|(stores?|transfers?|hosts?) and process|process and store|run on (virtuali[sz]ed )?servers|servers running)\b/i,
  'data is processed',
);
export const service = locationRule(
  /\b((server|hosting) locations?\s*(is|are|:)|host(s)? (the|our) (service|services|platform|application)\b|operated|operates|provided from|servers? (are|is) (located )?in|servers? (are )?located|(systems|servers|infrastructure|platform|services?|applications?) (runs?|are run|is run) (in|on)|services? (are|is) (provided|operated)|run on (virtuali[sz]ed )?servers|servers running|(we|only) host (in|within)|(is|are) hosted (?:(?:at|by|with|on) [^.;]{0,40}?\s)?(in|within)|(is|are) deployed (in|on)|(infrastructure|platform|service) runs (in|on))\b/i,
  'the service is provided',
);

/** A place given per region or as a region: "EU scale unit: European Union · US scale unit: United States", "European Union". */
const REGION_CELL = /\b(European Union|European Economic Area|Europe|Asia[- ]Pacific|[Ss]cale units?|[Rr]egions?)\b|\b(EU|EEA|APAC)\b(?!-)/;

/** The hosting provider's row of a subprocessor table where its column says where processing takes place: that is where data is. */
function hostingRows(what: string): Rule {
  return (content, _ss, _ctx, section) => {
    const rows = subprocessorRows(content, section).filter(
      (r) =>
        r.role &&
        /\b(hosting|hosted|cloud (infrastructure|hosting|computing|service provider|provider)|infrastructure|data cent(er|re)|servers?)\b/i.test(r.role) &&
        r.where.length,
    );
    if (!rows.length) return [];
    const open = (reason: string): Found[] => [{ value: null, start: rows[0]!.start, end: rows[0]!.end, strength: 0.6, open: reason }];
    // A table per region or instance ("Cloud: EU", "Cloud: US"): where data is depends on the region the customer picks.
    const heading = section.split(' > ').pop() ?? '';
    if (countriesIn(heading).length || /\b(EU|EEA|US|APAC|Asia|Europe|Americas?|HIPAA|region|instance)\b/.test(heading))
      return open(`the subprocessors are listed per region or instance (${heading}); where ${what} depends on the region the customer uses`);
    // A row that gives the place per region the customer picks ("EU region: European Union · US region: United States").
    const perRegion = rows.find((r) => r.whereText && REGION_CELL.test(r.whereText));
    if (perRegion)
      return open(`the subprocessor table gives the place per region (${perRegion.whereText}); where ${what} depends on the region the customer uses`);
    // Several hosting providers in different places say nothing (decided over all passages, in draft.ts).
    return rows.map((r) => ({ value: [...new Set(r.where)].sort(), start: r.start, end: r.end, strength: 0.7, host: r.name }));
  };
}
export const withHosting = (field: 'dataStorageLocations' | 'dataProcessingLocations' | 'serviceLocations', rule: Rule): Rule => {
  const rows = hostingRows(
    field === 'dataStorageLocations' ? 'data is stored' : field === 'dataProcessingLocations' ? 'data is processed' : 'the service is provided',
  );
  return (c, ss, ctx, section) => [...rule(c, ss, ctx, section), ...rows(c, ss, ctx, section)];
};
