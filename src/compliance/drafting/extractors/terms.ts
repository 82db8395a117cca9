import { dates, durations, onlyOutsideEurope } from '../text.js';
import { clean, entityRows, found, keyValues, LAW_KEY, lawCountry, openFound, otherCustomersSection, vendorAlt, type Found, type Rule } from './common.js';

/**
 * The register drafting rules for the contract's terms: start date, end date, renewal,
 * the notice periods of the customer and of the provider, and governing law.
 */

/** "This Agreement starts on <date>", "commences on <date>", "Effective Date: <date>" (not a version date); a start on an event is open. */
export const startDate: Rule = (_c, ss) => {
  const out: Found[] = [];
  for (const s of ss) {
    const t = clean(s.text);
    if (/\b(version|last (updated|modified|revised)|updated)\b/i.test(t)) continue;
    if (/\b(agreement|contract|term)\b[^.]{0,40}\b(starts|commences|begins|is effective|shall commence)\s+(on|as of)\b/i.test(t)) {
      const d = dates(t)[0];
      if (d) {
        out.push(found(s, d.date, 0.85));
        continue;
      }
    }
    // The start is an event: the Effective Date defined by an order form, sign-up, first use or acceptance.
    if (
      (/[“"]?Effective Date[”"]?\s+(means|shall mean|is)\b/i.test(t) ||
        /\b(agreement|terms|contract)\b[^.]{0,60}\b(begins?|commences?|starts?|takes? effect|(is|are) (concluded|formed|entered into)|becomes? (effective|binding)|(is|are) effective|enters? into force|(is|are) binding|comes? into (existence|effect|being|force)|bind(s)? (you|the customer|the user|the client))\b/i.test(
          t,
        )) &&
      /\b(order form|(your |the )?orders?\b|first (access|use|uses|accesses)|accept|agree(s|d)? to|sign(s|ed)? up|registration|register|opening of an account|use of the|execut(es|ed|ion)|purchase|(begins?|starts?) (using|to use)|downloads?|installs?|clicks?|signature|sign(s|ed|ing)? (the|this|an?))/i.test(
        t,
      ) &&
      !dates(t).length
    )
      out.push(openFound(s, 'the contract starts on an event (an order form, sign-up, acceptance or first use), not on a date the documents state'));
    else if (
      /\b(use|using|access)\b[^.]{0,60}\bas (your )?acceptance of (the|these) (terms|agreement)\b/i.test(t) ||
      // "By accessing or using the Service, you agree to be bound by these Terms": the usual formula of terms accepted by use.
      /\bby (accessing|using|creating|clicking|checking|signing up|registering|subscribing|downloading|installing|ordering|purchasing)\b[^.]{0,160}\b(you|customer|the customer|the user|users?|licensee)\s+(hereby\s+)?(agrees?|accepts?|consents?|acknowledges? and agrees?)\s+(to be bound by|to (these|the|this)\b|that you have read)/i.test(
        t,
      )
    )
      out.push(openFound(s, 'the terms apply from first use; the documents state no start date'));
  }
  return out;
};

const RENEWS =
  /\b(renews? automatically|automatically (be )?renew(s|ed)?|auto-?renew(s|al)?|(shall|will) (be )?(automatically )?renew(ed)?\b[^.]{0,40}\b(successive|additional|further|equal|same|consecutive))/i;

/** "continue in effect until terminated" → indefinite (null); "expires on <date>" → that date; a term set elsewhere is open. */
export const endDate: Rule = (_c, ss) => {
  const out: Found[] = [];
  for (const s of ss) {
    const t = clean(s.text);
    if (!/\b(agreements?|contracts?|term|terms)\b/i.test(t)) {
      // "Paid subscriptions renew automatically at the end of each billing period": no end date, and why.
      if (/\b(subscriptions?|plans?)\b/i.test(t) && RENEWS.test(t))
        out.push(openFound(s, 'the subscription renews automatically for further periods; no end date is stated', 0.6));
      continue;
    }
    if (
      /\b(continues?|remains?|will continue|shall continue|runs?|(is|are|be|become|becomes) effective|continues? to apply)\s+(in (full )?(force( and effect)?|effect)\s+)?((until|unless)\s+(it is\s+)?(otherwise\s+)?(terminated|cancell?ed)\b|until\s+(either|each|one|both|you|we|the parties)\b[^.]{0,30}\bterminates?\b(?!\s+(on|upon|at)\b))|\b(concluded|entered into) for an indefinite (term|period)\b|\b(indefinite|unlimited) (term|period|time|duration)\b|\bno fixed (term|end)\b|\b((remain|continue)s?\s+in\s+(full\s+)?(force|effect)|(apply|applies|continues? to apply))\s+(while|for as long as|as long as)\s+(you|the customer|customer|the client|client|users?)\s+(use|uses|access|accesses)\b/i.test(
        t,
      )
    ) {
      out.push(found(s, null, 0.85));
      continue;
    }
    if (
      /\b(expires|shall expire|will expire|ends|terminates automatically)\s+on\b/i.test(t) ||
      /\b(remains?|continues?|in (force|effect)|valid)\b[^.]{0,30}\b(until|through)\s+(the\s+)?\d/i.test(t)
    ) {
      const d = dates(t)[0];
      if (d) {
        out.push(found(s, d.date, 0.85));
        continue;
      }
    }
    if (
      (/\b(for (so|as) long as|while)\b[^.]{0,60}\b(active|order form|subscription|account)\b/i.test(t) ||
        /\buntil (all|each|every|the last) (order forms?|orders?|subscriptions?)\b[^.]{0,60}\b(expired?|terminated|ended)\b/i.test(t)) &&
      /\b(remain|continue|in effect|in force)/i.test(t)
    )
      out.push(openFound(s, 'the contract runs as long as a subscription, account or order form is active; no end date is stated'));
    else if (
      /\b(?:(?:initial|subscription|service|contract|agreement)(?:\s+service)?\s+term|for the term|subscription period)\b[^.]{0,40}\b(specified|set out|stated|identified|defined|set forth)\s+in\s+(the|your|an?|each)\s+(applicable\s+)?(order form|order|agreement|subscription)/i.test(
        t,
      )
    )
      out.push(openFound(s, 'the term is set in an order form or separate agreement the documents do not include; no end date'));
    else if (/\bmonth[- ]to[- ]month\b/i.test(t)) out.push(openFound(s, 'the subscription runs month to month until cancelled; no end date'));
    else if (RENEWS.test(t)) out.push(openFound(s, 'the term renews automatically for further periods; no end date is stated', 0.6));
  }
  return out;
};

/** A sentence about renewing the contract or subscription for another term. */
export const renewal: Rule = (_c, ss) => {
  const out: Found[] = [];
  for (const s of ss) {
    const t = clean(s.text);
    if (
      /\b(automatically renew|auto-renew(?:al|s|ed)?|renews? automatically|automatically (be )?(renewed|extended|prolonged)|(renewed|extended|prolonged) automatically)\b/i.test(
        t,
      )
    )
      out.push(found(s, t, 0.9));
    else if (
      /\b(shall|will|is) (automatically )?be extended\b[^.]{0,60}\b(period|term|months?|years?)\b/i.test(t) &&
      /\b(contract|agreement|subscription|relationship|term)\b/i.test(t)
    )
      out.push(found(s, t, 0.75));
    else if (/\brenew(al|s|ed)?\b[^.]{0,80}\b(for (another|a further|an additional|successive)|subscription term|renewal term)\b/i.test(t))
      out.push(found(s, t, 0.75));
    else if (/\bsuccessive\b[^.]{0,40}\b(terms?|periods?)\b/i.test(t) && /\brenew|extend/i.test(t)) out.push(found(s, t, 0.75));
    // "extended by one year at a time unless terminated", "will be renewed for the same period".
    else if (
      /\b(extended|renewed|prolonged)\b[^.]{0,40}\b(at a time|each time|for (the same|an equal|a further|another|a like) (period|term|duration))\b/i.test(t)
    )
      out.push(found(s, t, 0.7));
    else if (/\b(subscription|contract|agreement|term|plan)\b[^.]{0,40}\b(will|shall|automatically) (automatically )?rolls? over\b/i.test(t))
      out.push(found(s, t, 0.75));
    else if (/\b(charged?|bill(ed)?|payment)\b[^.]{0,80}\bon a recurring basis\b|\bmonth[- ]to[- ]month\b/i.test(t)) out.push(found(s, t, 0.6));
  }
  return out;
};

const ENTITY = 'you|customer|client|licensee|subscriber|the financial entity|user';
/**
 * Termination notice periods: a sentence about terminating the agreement (or giving notice
 * of non-renewal) with a notice period in words or digits; its subject tells whose period it
 * is ("Either Party", "The Parties" → both). A party that may terminate "at any time",
 * "immediately" or "without notice" has no period: that is said as the reason of a not found.
 */
export function noticeRule(party: 'entity' | 'provider'): Rule {
  return (_c, ss, ctx) => {
    const out: Found[] = [];
    const alt = vendorAlt(ctx);
    const vendor = `we|${alt ? `${alt}|` : ''}provider|supplier|vendor|licensor|the company|company`;
    for (const s of ss) {
      const t = clean(s.text);
      const nonRenewal = /\bnon-?renew(al)?\b|\bnot to renew\b|\bintention not to renew\b/i.test(t);
      if (
        !/\bterminat|\bcancel|\bstop using|\bclose (your|its) account|\bdiscontinue|\bcease|\bend (this|the) (agreement|contract|terms)\b/i.test(t) &&
        !nonRenewal
      )
        continue;
      if (/\b(breach|cure|insolven|bankrupt|for cause)\b/i.test(t) && !/\bwithout cause\b/i.test(t)) continue;
      // A right that non-payment triggers is for cause too ("may immediately suspend or terminate your access … if you fail to timely pay").
      if (/\b(if|where|in the event)\b[^.;]{0,40}\b(fails?|failure) to (timely )?pay\b|\bnon-?payment\b/i.test(t)) continue;
      // Both parties, however named: "either party", "the Supplier or the Customer".
      const both =
        /\b(either party|each party|both parties|either of the parties|the parties|either of us|each of us|you or we|we or you|(the )?(supplier|provider|vendor|licensor|company) or (the )?(customer|client|licensee)|(the )?(customer|client|licensee) or (the )?(supplier|provider|vendor|licensor|company))\b/i;
      const entityRe = new RegExp(
        String.raw`\b(?:${ENTITY})(?:['’]re)?\b[^.]{0,40}?\b(may|can|free to|are free to|is free to|shall have the right to|has the right to|have the right to)\s+(terminate|cancel|stop using|close|end (?:this|the) (?:agreement|contract|terms))|\b(?:may|can|shall)\s+be\s+(?:terminated|cancell?ed)\s+by\s+(?:the\s+)?(?:${ENTITY})\b|\btermination\s+by\s+(?:the\s+)?(?:${ENTITY})\b`,
        'i',
      );
      const providerRe = new RegExp(
        String.raw`\b(?:${vendor})\b[^.]{0,50}?\b(may|can|is (also )?free to|are (also )?free to|reserves? the right to|shall have the right to|has the right to|shall observe)\s+(?:[a-z]+,?\s+(?:or\s+)?){0,4}?(terminate|cancel|discontinue|cease|a notice period|end (?:this|the) (?:agreement|contract|terms))|\b(?:may|can|shall)\s+be\s+(?:terminated|cancell?ed)\s+by\s+(?:the\s+)?(?:${vendor})\b|\btermination\s+by\s+(?:the\s+)?(?:${vendor})\b|\b(?:${vendor})\s+(?:will|shall)\s+(?:provide|give)\b(?:[^.]{0,20}\bnotice\b|\s+(?:(?:you|users|customers?|the customer)\s+)?(?:(?:at least|not less than)\s+)?$)`,
        'i',
      );
      // The period next to the word notice: "N days' (prior) (written) notice", "notice of (at least) N days", "at least N days prior to".
      const near = durations(t).filter((d) => {
        const after = t.slice(d.index + d.length, d.index + d.length + 40);
        const before = t.slice(Math.max(0, d.index - 40), d.index);
        return (
          /^[’']?s?[’']?\s*(prior\s+|advance\s+|written\s+|prior written\s+)*notice\b/i.test(after) ||
          /\bnotice\s+(period\s+)?of\s+(at least\s+|not less than\s+)?$/i.test(before) ||
          // "The notice period for termination by the Customer is 3 months".
          /\bnotice period\b[^.;]{0,60}\b(is|shall be|amounts to)\s+(at least\s+|not less than\s+)?$/i.test(t.slice(Math.max(0, d.index - 90), d.index)) ||
          // "at least N days prior to" with the word notice, or a termination "in writing" ("If not terminated in writing by
          // either Party no later than 3 months prior to the end of the initial period").
          (/^\s*(in advance|prior|before)\b/i.test(after) && /\bnotice\b|\bnotif(y|ies|ication)\b|\bterminated in writing\b/i.test(t)) ||
          // "may be cancelled by the Customer at the latest 30 days before renewal".
          (/^\s*(prior|before)\b/i.test(after) && /\bat the latest\s+$/i.test(before))
        );
      });
      // A period that applies only upon a change of the terms ("may terminate with thirty (30) days written notice upon a
      // Material Change") is a right the change triggers, not the ordinary notice period.
      const triggered =
        near.length === 1 &&
        /^[^.;]{0,40}?\b(upon|following|after|in (the )?event of|in case of)\b[^.;]{0,30}\b(material )?(change|amendment|modification|price increase)/i.test(
          t.slice(near[0]!.index + near[0]!.length),
        );
      // A notice of changes to the terms ("we will give you at least seven (7) days' notice before the changes take effect, during which
      // … you may reject the changes by terminating your account") is no notice period for terminating.
      const ofChanges =
        near.length === 1 &&
        /^[^.;]{0,30}\bnotice\b[^.;]{0,20}\b(before|prior to|of)\s+(the |such |any )?(changes?|amendments?|modifications?|updates?)\b/i.test(
          t.slice(near[0]!.index + near[0]!.length - 8),
        );
      // "For changes that materially reduce the core functionality, we will give at least 30 days' notice by email, and … you may
      // terminate": the period is the notice of the change; the termination it allows comes after it.
      const changeNotice =
        near.length === 1 &&
        /\b(for|of|before|about|regarding) (any |such |the )?(material |planned )?(changes?|amendments?|modifications?|updates?)\b/i.test(
          t.slice(0, near[0]!.index),
        ) &&
        !/\bterminat|\bcancel|\bnon-?renew/i.test(t.slice(0, near[0]!.index));
      if (triggered || ofChanges || changeNotice) continue;
      if (near.length === 1) {
        // The subject is that of the period's own clause where that clause names a party: "(i) either party may … ; and
        // (ii) the Client may … thirty (30) days" (not "Either party may terminate (a) for convenience on thirty days' notice").
        const before = t.slice(0, near[0]!.index);
        const clause = before.slice(Math.max(0, ...[...before.matchAll(/;|\(\s*(?:[ivx]{1,4}|[a-h])\s*\)/gi)].map((m) => m.index!)));
        const subject = both.test(clause) || entityRe.test(clause) || providerRe.test(clause) ? clause : before;
        const isBoth = both.test(subject);
        const entity =
          entityRe.test(subject) ||
          (nonRenewal && new RegExp(String.raw`\b(?:${ENTITY})\b[^.]{0,40}\b(provides?|gives?)\b[^.]{0,20}\bnotice`, 'i').test(subject));
        const provider = providerRe.test(subject);
        if (isBoth || (party === 'entity' ? entity && !provider : provider && !entity)) {
          out.push({ ...found(s, near[0]!.days, isBoth ? 0.9 : 0.8), ...(nonRenewal && !/\bterminat/i.test(subject) ? { weak: true } : {}) });
          continue;
        }
      }
      if (near.length) continue;
      // No period: "may terminate at any time", "immediately", "without (prior) notice".
      const noPeriod =
        /\bat any time\b|\bimmediately\b|\bwithout (any )?(prior |advance )?notice\b|\bwith or without (prior )?notice\b|\bwithout observing a notice period\b/i.exec(
          t,
        ) ??
        (party === 'provider' && /\bterminat/i.test(t) && !/counter-notice|infring/i.test(t)
          ? /\bfor any (or no )?reason\b|\bin (its|our) (sole )?discretion\b/i.exec(t)
          : null);
      if (!noPeriod) continue;
      // Cancelling the automatic renewal "at any time" (effective for the next renewal) is the notice of non-renewal, not termination at will.
      if (/\bcancel\w*\s+(the\s+)?(automatic\s+|auto-?)renewal\b/i.test(t)) continue;
      if (/\b(suspend|suspension)\b/i.test(t) && !/\bterminat|\bdiscontinue|\bcease/i.test(t)) continue;
      const who = party === 'entity' ? entityRe : providerRe;
      const whoAt = who.exec(t);
      const other = (party === 'entity' ? providerRe : entityRe).exec(t);
      const passive = party === 'provider' && /\btermination of (your )?(access|account|use)\b[^.]{0,80}\bwithout (prior )?notice\b/i.test(t);
      if ((whoAt && (!other || whoAt.index < other.index)) || both.test(t.slice(0, noPeriod.index)) || passive) {
        const by = party === 'entity' ? 'the customer' : 'the provider';
        const how = /at any time/i.test(noPeriod[0])
          ? 'at any time'
          : /immediately/i.test(noPeriod[0])
            ? 'immediately'
            : /notice/i.test(noPeriod[0])
              ? 'without notice'
              : 'for any reason at its discretion';
        out.push(openFound(s, `${by} may terminate ${how}; the documents state no notice period`));
      }
    }
    return out;
  };
}

/**
 * The law a contract is governed by: "governed by (and construed in accordance with) the
 * laws of X" and its usual forms (a US state, a Canadian province or Australian state →
 * that country; "England and Wales" → GB; "the Federal Republic of Germany" → DE), never the
 * courts, venue or jurisdiction. A clause that chooses the law by where the customer is, or
 * by the service instance, takes the branch for customers outside the Americas (the
 * register is kept by EU financial entities). Clauses about the SCCs are left out.
 */
/**
 * A governing-law sentence that applies only to customers established outside the EEA: its condition ("If Customer is an
 * entity registered in the United States of America, Canada, or Mexico, …", "For customers located in Australia, …")
 * names places, none of them in the EEA or Europe.
 */
function outsideEuropeBranch(t: string): boolean {
  const m =
    /^(?:if|where|when|for)\b[^,]{0,40}?\b(?:customers?|you|licensees?|clients?|entit(?:y|ies)|parties)\b[^.;]{0,60}?\b(?:registered|located|domiciled|based|resident|residing|incorporated|headquartered|established|organi[sz]ed)\s+(?:in|within)\s+([^;]{2,120}?),\s+(?:this|these|the|all|any)\b/i.exec(
      t,
    );
  if (!m) return false;
  if (/\b(Europe|European|EU|EEA|outside)\b/i.test(m[1]!)) return false;
  return onlyOutsideEurope(m[1]!);
}

export const governingLaw: Rule = (content, ss, _ctx, section) => {
  if (otherCustomersSection(section)) return [];
  const out: Found[] = [];
  for (const r of entityRows(content)) if (r.law) out.push({ value: r.law, start: r.start, end: r.end, strength: 0.85 });
  ss.forEach((s, i) => {
    const t = clean(s.text);
    // A row of a contracting-entity table ("If Customer is domiciled in: …; The governing law is: …") is read by `entityRows` above.
    const line = content.slice(content.lastIndexOf('\n', s.start) + 1, (content.indexOf('\n', s.start) + 1 || content.length + 1) - 1);
    const row = keyValues(clean(line));
    if (row && row.length >= 2 && row.some(([k]) => LAW_KEY.test(k))) return;
    const listItem =
      /^[^:]{1,120}:\s*(the\s+)?laws?\s+of\b/i.test(t) &&
      ss.slice(Math.max(0, i - 4), i).some((x) => /\b(governed by|governing law)\b[^.]*:\s*$/i.test(clean(x.text)));
    // "governed by", "construed/interpreted under", "The laws of Ireland govern …", "Delaware law governs …",
    // "The parties submit the contract exclusively to the law of Austria".
    const cue =
      /\bgoverned (exclusively |solely )?by\b|\bgoverning law\b|\b(construed|interpreted|governed|enforced)\b[^.;]{0,60}\bin accordance with\b[^.;]{0,30}\blaws?\b|\b(construed|interpreted|governed)(?: and (?:construed|interpreted|governed))? (in accordance with|under)\b|\bapplicable law\b|\blaws?\b[^.;]{0,60}\bgoverns?\b|\bsubmit\w*\b[^.;]{0,60}\b(exclusively )?to the laws? of\b/i.test(
        t,
      );
    // "This Agreement is subject to Dutch law", "German law applies": the contract's own law, not a data-protection law.
    const applies =
      /\b(agreement|terms|contract)\b[^.;]{0,60}\bsubject to\b[^.;]{0,40}\blaws?\b|\blaws?\b[^.;]{0,60}\b(shall|will)?\s*(exclusively\s+)?appl(y|ies)\b/i.test(
        t,
      ) && !/\b(data protection|GDPR|privacy|personal data|consumer)\b/i.test(t);
    if (!cue && !applies && !listItem) return;
    if (
      /\b(these clauses|clauses? \d+|standard contractual|SCCs?|third[- ]party beneficiary|open[- ]source|export|sanction|embargo|(data|personal data|restricted|swiss|uk)[- ](subject )?transfers?)\b/i.test(
        t,
      )
    )
      return;
    if (listItem) {
      // A list of laws per service instance or region: the one for the Americas is not the EU entity's.
      const label = t.slice(0, t.indexOf(':'));
      if (/\b(us|usa|u\.s\.|united states|americas|hipaa|north america|canada)\b/i.test(label)) return;
      const c = lawCountry(t);
      if (c) out.push(found(s, c, 0.75));
      return;
    }
    // A branch for customers in the Americas (or the US, Canada, Australia …) is not the law of an EU entity's contract:
    // "If Customer is an entity registered in the United States of America, Canada, or Mexico, this Agreement … New York".
    if (/^If\b[^,]{0,80}\b(is|are) in the (Americas|United States)\b/i.test(t) || outsideEuropeBranch(t)) return;
    // A law for consumers ("if you use our Services as a consumer, the governing law … is German law") is not a business customer's.
    const consumer = /\b(?:if|where|when) you\b[^,.;]{0,60}\bconsumers?\b|\bfor consumers\b/i.exec(t);
    const lawAt = /\b[Ll]aws?\s+of\b|\b[A-Z][a-z]+ law\b/.exec(t)?.index;
    if (consumer && (lawAt === undefined || consumer.index < lawAt)) return;
    const branches = t.split(/(?=\bIf\b)/);
    const laws = branches.map((b) => ({ branch: b, country: lawCountry(b) })).filter((x): x is { branch: string; country: string } => !!x.country);
    if (!laws.length) return;
    if (laws.length === 1) {
      out.push(found(s, laws[0]!.country, /^If\b/.test(t) ? 0.75 : 0.9));
      return;
    }
    const eu0 = /^If\b[^,]{0,80}\boutside (of )?the (Americas|United States)\b/i.test(t);
    if (eu0) {
      out.push(found(s, laws[0]!.country, 0.75));
      return;
    }
    const eu = laws.find((l) => /\b(outside (of )?the Americas|in (the )?(EU|EEA|Europe|European Union))\b/i.test(l.branch));
    if (eu) out.push(found(s, eu.country, 0.75));
  });
  return out;
};
