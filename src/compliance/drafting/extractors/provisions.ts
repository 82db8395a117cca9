import { clean, found, NEGATES, openFound, vendorAlt, vendorSubject, type ExtractContext, type Found, type Rule } from './common.js';

/**
 * The register drafting rules for what the contract provides about the customer's data and
 * oversight: whether the vendor processes personal data for the customer, the customer's
 * audit rights, and exit provisions (return or deletion of data, transition assistance).
 */

const vendorMention = (text: string, ctx: ExtractContext) =>
  new RegExp(
    `\\b(?:${ctx.vendorNames.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')}|we|the processor|the data importer|the contractor)\\b[^.]{0,60}\\bprocess`,
    'i',
  ).test(text);

/**
 * Whether the vendor processes personal data for the customer: the vendor (or "we") is the
 * processor ("X is the processor", "Customer is the controller and X the processor",
 * "processed by Vendor as a Processor", "processes personal data on behalf of the
 * customer"), or engages sub-processors / data processors for the customer's data. A
 * negation ("does not process personal data") is false. Personal data processed on the
 * vendor's own behalf (its marketing tools) is open: no processor role is stated.
 */
export const personalData: Rule = (_c, ss, ctx) => {
  const out: Found[] = [];
  const alt = vendorAlt(ctx);
  const vendor = `${alt ? `${alt}|` : ''}we|company|vendor|provider|supplier|data importer|service provider|licensor`;
  for (const [i, s] of ss.entries()) {
    const t = clean(s.text);
    // The SCC annex describing the transfer: "Categories of data subjects whose personal data is transferred" and what follows.
    if (/^categories of (data subjects|personal data)\b[^.]{0,60}\btransferred\b/i.test(t)) {
      const next = ss[i + 1] ? clean(ss[i + 1]!.text) : '';
      if (next.length > 3 && !/^(n\/?a|none|not applicable|\[|_)/i.test(next) && !/:\s*$/.test(next)) out.push(found(s, true, 0.7));
      continue;
    }
    // "Personal Data ... is processed by Aptible on behalf of Customer".
    if (
      new RegExp(
        String.raw`\bpersonal data\b[^.]{0,120}\b(?:is|are|will be|shall be)\s+processed by\s+(?:the\s+)?(?:${vendor})\b[^.]{0,40}\bon behalf of\b`,
        'i',
      ).test(t) &&
      !NEGATES.test(t)
    ) {
      out.push(found(s, true, 0.85));
      continue;
    }
    // A DPA's scope: "all processing activities within the meaning of Art. 28(1) GDPR that the processor performs for the controller".
    if (
      /\bprocessing\b[^.]{0,80}\bwithin the meaning of Art(?:icle|\.)?\s*28\b[^.]{0,20}\bGDPR\b/i.test(t) &&
      /\bprocessor\b[^.]{0,40}\b(performs|carries out|conducts)\b[^.]{0,20}\bfor the controller\b/i.test(t) &&
      !NEGATES.test(t)
    ) {
      out.push(found(s, true, 0.8));
      continue;
    }
    if (/\b(does not|do not|will not|never)\s+process\s+(any\s+)?personal data\b/i.test(t) && vendorSubject(t, ctx)) {
      out.push(found(s, false, 0.8));
      continue;
    }
    if (
      /\bprocess(es|ing)?\s+(?:customer\s+|client\s+|(?:the\s+)?(?:following\s+)?(?:categories|types|kinds)\s+of\s+)?personal data\b[^.]{0,80}\b(on behalf|on (customer|client)['’]s behalf|instructions?|upon the instruction)/i.test(
        t,
      ) &&
      (vendorMention(t, ctx) || /\bwhich processes personal data\b/i.test(t)) &&
      !/\bon our (own )?behalf\b/i.test(t)
    ) {
      out.push(found(s, true, 0.85));
      continue;
    }
    if (
      new RegExp(
        String.raw`\b(?:${vendor})\b[^.]{0,60}?\b(?:is|acts as|act as|shall act as|will act as|shall be|will be|shall qualify as|qualifies as|is acting as|remains|(?:is and )?(?:shall|will) remain)\s+(?:(?:only|solely|merely)\s+)?(?:(?:the|a)\s+)?(?:data\s+)?processor\b`,
        'i',
      ).test(t) ||
      new RegExp(String.raw`\bprocessed by\s+(?:the\s+)?(?:${vendor})\b[^.]{0,20}\bas\s+(?:a|the)\s+processor\b`, 'i').test(t) ||
      // "Vendor is to be considered as a personal data counsel ("Data processor") for the Customer".
      new RegExp(
        String.raw`\b(?:${vendor})\b[^.]{0,20}?\b(?:is|shall be)(?: to be)? (?:considered|deemed|regarded) (?:as |to be )?[^.]{0,60}?[(“"]\s*[“"]?(?:data )?processor\b`,
        'i',
      ).test(t) ||
      // "Acme will process Customer Personal Data as a data processor".
      new RegExp(
        String.raw`\b(?:${vendor})\b[^.]{0,40}?\bprocess(?:es)?\s+(?:(?:the\s+)?customer(?:['’]s)?\s+|client\s+|your\s+)?personal data\b[^.]{0,60}\bas\s+(?:a|the|its)\s+(?:data\s+)?processor\b`,
        'i',
      ).test(t)
    ) {
      if (!NEGATES.test(t)) out.push(found(s, true, 0.85));
      continue;
    }
    // "we will process any information relating to identified or identifiable natural persons in accordance with our Data Processing Addendum".
    if (
      /\bprocess\w*\b[^.]{0,60}\b(personal data|personal information|information relating to (an )?identified or identifiable natural persons?)\b[^.]{0,100}\b(data processing (addendum|agreement)|DPA)\b/i.test(
        t,
      ) &&
      (vendorMention(t, ctx) || /^\W*we\b|\bwe will\b/i.test(t)) &&
      !NEGATES.test(t)
    ) {
      out.push(found(s, true, 0.75));
      continue;
    }
    // A DPA's subject matter: "The processing of personal data includes the data of the users of …".
    if (/^\W*the processing of personal data\b[^.]{0,40}\b(includes?|concerns?|comprises?|covers?)\b/i.test(t) && !NEGATES.test(t)) {
      out.push(found(s, true, 0.7));
      continue;
    }
    if (/\b(sub-?processors?|data processors)\b[^.]{0,80}\b(customer|client) (personal )?data\b/i.test(t)) {
      if (!NEGATES.test(t) && !/\bon our (own )?behalf\b/i.test(t)) out.push(found(s, true, 0.7));
      continue;
    }
    if (/\bsub-?processors\b[^.]{0,60}\bprocess personal data on our (own )?behalf\b/i.test(t))
      out.push(
        openFound(s, "the documents speak of personal data processed on the vendor's own behalf; no processor role for the customer's personal data is stated"),
      );
  }
  return out;
};

/**
 * The customer's right to audit or to receive audit reports: "Customer may audit",
 * "permit the Client to conduct audits and inspections", "allow its procedures to be
 * inspected by Customer", "satisfy Client's audit rights", the SCC's "submit its data
 * processing facilities for an audit", a SOC 2 / ISO 27001 report offered on request. Never
 * from a sentence that negates ("we do not hold a SOC 2 report").
 */
export const auditRights: Rule = (content, ss) => {
  const out: Found[] = [];
  const party = 'customer|client|you|data exporter|controller|data controller';
  for (const s of ss) {
    const t = clean(s.text);
    if (t.length > 700) continue;
    if (!/\baudit|\binspect|\bSOC ?2\b|\bISO(\/IEC)? ?27001\b/i.test(t)) continue;
    // A negation inside what the customer suspects ("reason to suspect that the Processor does not fulfil its obligations") negates no right.
    if (NEGATES.test(t.replace(/\b(suspects?|believes?|reason to (?:believe|suspect))\s+that\b[^,.;]*/gi, ''))) continue;
    if (
      new RegExp(
        String.raw`\b(?:${party})\b[^.]{0,60}\b(may|can|(?:is|are|shall be) entitled|has the right to|have the right to|shall have the right to|(?:is|are|shall be) authori[sz]ed to)\b(?!\s+not\b)[^.]{0,200}?\b(audit|inspect)`,
        'i',
      ).test(t)
    )
      out.push(found(s, t, 0.85));
    else if (
      new RegExp(String.raw`\b(permit|allow|enable)s?\s+(?:the\s+)?(?:${party})\b[^.]{0,60}\bto\s+(conduct|carry out|perform|audit|inspect)`, 'i').test(t)
    )
      out.push(found(s, t, 0.85));
    else if (new RegExp(String.raw`\bto be (inspected|audited)\b[^.]{0,80}\bby\s+(?:the\s+)?(?:${party})\b`, 'i').test(t)) out.push(found(s, t, 0.85));
    // In the passive: "Audits may be carried out by the Customer or an independent auditor mandated by it".
    else if (
      new RegExp(
        String.raw`\b(audits?|inspections?)\s+(?:may|shall|will|can)\s+be\s+(?:carried out|conducted|performed|undertaken|made)\s+by\s+(?:the\s+)?(?:${party})\b`,
        'i',
      ).test(t)
    )
      out.push(found(s, t, 0.85));
    // "Acme will cooperate with reasonable requests by the Customer to audit its processing activities".
    else if (
      new RegExp(String.raw`\bcooperate with\b[^.]{0,30}\brequests?\s+(?:by|from|of)\s+(?:the\s+)?(?:${party})\b[^.]{0,20}\bto\s+(audit|inspect)`, 'i').test(t)
    )
      out.push(found(s, t, 0.8));
    else if (new RegExp(String.raw`\b(?:${party})['’]s?\s+(audit rights|rights? (of|to) audit)`, 'i').test(t)) out.push(found(s, t, 0.8));
    else if (/\b(upon|on)\s+(customer|client)['’]s\s+(written\s+)?request\b[^.]{0,200}\baudit/i.test(t)) out.push(found(s, t, 0.8));
    else if (/\baudit reports?\b[^.]{0,60}\b(upon|on)\s+(customer|client)['’]?s?\s+(written\s+)?request/i.test(t)) out.push(found(s, t, 0.8));
    else if (
      /\b(allow for and contribute to (an )?audits?|(?:to |shall |will |must |and )(?:allow|permit|facilitate|submit to)(?: for)?(?: any| all)? (an? )?(audits?|inspections?)\b|submit (its|their) [^.]{0,60}facilities for (an )?audit)/i.test(
        t,
      )
    )
      out.push(found(s, t, 0.75));
    else if (/\b(SOC ?2|SOC ?1|ISO(\/IEC)? ?27001)\b[^.]{0,60}\b(report|attestation|certificat|complian)/i.test(t)) {
      // A report offered to customers: in the sentence or the one right after it.
      // The next sentence counts only where it speaks of the report ("A HIPAA BAA is available to customers" offers no report).
      const next = content.slice(s.end, s.end + 200).split(/\n\s*\n/)[0]!;
      const offer =
        /\b(upon|on) (written )?request|\brequest (a copy|access|our|the)\b|\bcontact us\b|\baccess to (our |the )?(full |complete |latest )?([\w-]+ ){0,2}reports?\b|\bavailable to (customers|clients)|\bprovide (a copy|documentation|the report|copies)|\breports? (is|are) (available|included|provided|shared)\b/i;
      if (offer.test(t) || (/\b(reports?|attestations?|certificat\w*)\b/i.test(next) && offer.test(next))) out.push(found(s, t, 0.7));
    }
  }
  return out;
};

/** Return, export or deletion of the customer's data when the contract ends, and transition assistance at exit. */
export const exitProvisions: Rule = (_c, ss, ctx) => {
  const out: Found[] = [];
  const alt = vendorAlt(ctx);
  /** The lead-in of the list a sentence is an item of ("Upon termination or expiration:"), within six short items. */
  const leadIn = (i: number) => {
    for (let j = i - 1; j >= Math.max(0, i - 6); j--) {
      const x = clean(ss[j]!.text);
      if (/:\s*$/.test(x)) return x;
      if (x.length > 250) return '';
    }
    return '';
  };
  const endingRe = new RegExp(
    String.raw`\b(upon|after|following|on|of|at|before|prior to|within [^.]{0,30} (of|after))\s+(the\s+)?(termination|expiration|expiry|cancell?ation|end)\b|\bwhen you cancel\b|\bafter (you )?cancel|\b(if|when|once)\s+(we|you|either party|customer|client${alt ? `|${alt}` : ''})\s+terminates?\b|\baccount termination\b|\bwhen the (contract(ual relationship)?|agreement|subscription) (ends|expires|terminates|is terminated)\b|\bend of the provision of (the )?services\b|\bbusiness purposes\b[^.]{0,60}\bfulfilled\b|\b(after|when|once|upon)\s+(the|this|your)\s+(DPA|agreement|contract|subscription|addendum|terms)\s+(expires|ends|terminates|is terminated|has (expired|ended|terminated))\b`,
    'i',
  );
  for (const [i, s] of ss.entries()) {
    const t = clean(s.text);
    if (t.length > 700) continue;
    const ending = endingRe.test(t) || endingRe.test(leadIn(i));
    const data =
      /\b(return|export|exporting|retrieve|reclaim|download|delete|destroy|deletion|destruction|extract|purge|backup|copy|provide|hand over|remove|erase)\b[^.]{0,80}\b(data|content|submissions|files)\b|\b(data|content|submissions|confidential information)\b[^.]{0,80}\b(returned|exported|deleted|destroyed|retrieved|extracted|removed|erased|available for (download|export|retrieval))\b/i.test(
        t,
      );
    // The Standard Contractual Clauses' own wording ("the data importer shall ... delete") is standard text: the vendor's own clause comes first.
    if (ending && data) out.push(found(s, t, /\bdata (importer|exporter)\b/i.test(t) ? 0.7 : 0.8));
    else if (/\btransition (assistance|services)\b/i.test(t) || (/\btransition period\b/i.test(t) && /\b(terminat|expir|exit)/i.test(t)))
      out.push(found(s, t, 0.8));
  }
  return out;
};
