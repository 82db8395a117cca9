/**
 * The vendor profile's code lists and their labels, as data: the one place both the API
 * (src/domain/vendorProfile.ts checks a profile against them) and the dashboard (web/src/profile/codes.ts)
 * read them from. No import: the dashboard's bundle takes this file as it is.
 * The country and currency lists are the ones of i18n-iso-countries and currency-codes;
 * test/domain/vendorProfileCodes.test.ts fails when a new release of those packages changes them.
 */

/** ISO 3166-1 alpha-2 codes. */
export const COUNTRY_CODES: readonly string[] =
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW'.split(
    ' ',
  );
/** ISO 4217 codes, without XXX (no currency) and XTS (testing). */
export const CURRENCY_CODES: readonly string[] =
  'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VES VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XDR XOF XPD XPF XPT XSU XUA YER ZAR ZMW ZWG'.split(
    ' ',
  );

/** Annex III of Implementing Regulation (EU) 2024/2956: type of ICT services. */
export const ICT_SERVICE_TYPES = {
  S01: 'ICT project management',
  S02: 'ICT Development',
  S03: 'ICT help desk and first level support',
  S04: 'ICT security management services',
  S05: 'Provision of data',
  S06: 'Data analysis',
  S07: 'ICT, facilities and hosting services (excluding Cloud services)',
  S08: 'Computation',
  S09: 'Non-Cloud Data storage',
  S10: 'Telecom carrier',
  S11: 'Network infrastructure',
  S12: 'Hardware and physical devices',
  S13: 'Software licencing (excluding SaaS)',
  S14: 'ICT operation management (including maintenance)',
  S15: 'ICT Consulting',
  S16: 'ICT Risk management',
  S17: 'Cloud services: IaaS',
  S18: 'Cloud services: PaaS',
  S19: 'Cloud services: SaaS',
} as const;
export type IctServiceType = keyof typeof ICT_SERVICE_TYPES;
export const ICT_SERVICE_TYPE_CODES = Object.keys(ICT_SERVICE_TYPES) as IctServiceType[];

/** Type of code identifying the provider (register of information, template B_05.01). */
export const IDENTIFIER_TYPES = ['LEI', 'EUID', 'CRN', 'VAT', 'PNR', 'NIN'] as const;
export const CRITICALITY_TIERS = ['critical', 'high', 'medium', 'low'] as const;
export const SUBSTITUTABILITY = ['not_substitutable', 'highly_complex', 'medium_complexity', 'easily_substitutable'] as const;
export const REINTEGRATION = ['easy', 'difficult', 'highly_complex'] as const;
export const LEVELS = ['low', 'medium', 'high'] as const;
export const CERTIFICATION_STATUSES = ['valid', 'expired', 'suspended', 'withdrawn', 'pending'] as const;

/** Labels of the codes as the dashboard shows them (a code without a label fails the type check). */
export const IDENTIFIER_TYPE_LABELS: Record<(typeof IDENTIFIER_TYPES)[number], string> = {
  LEI: 'LEI (Legal Entity Identifier)',
  EUID: 'EUID (European Unique Identifier)',
  CRN: 'Company registration number',
  VAT: 'VAT number',
  PNR: 'Passport number',
  NIN: 'National identity number',
};
export const CRITICALITY_TIER_LABELS: Record<(typeof CRITICALITY_TIERS)[number], string> = { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low' };
export const SUBSTITUTABILITY_LABELS: Record<(typeof SUBSTITUTABILITY)[number], string> = {
  not_substitutable: 'Not substitutable',
  highly_complex: 'Highly complex substitutability',
  medium_complexity: 'Medium complexity',
  easily_substitutable: 'Easily substitutable',
};
export const REINTEGRATION_LABELS: Record<(typeof REINTEGRATION)[number], string> = { easy: 'Easy', difficult: 'Difficult', highly_complex: 'Highly complex' };
export const LEVEL_LABELS: Record<(typeof LEVELS)[number], string> = { low: 'Low', medium: 'Medium', high: 'High' };
export const CERTIFICATION_STATUS_LABELS: Record<(typeof CERTIFICATION_STATUSES)[number], string> = {
  valid: 'Valid',
  expired: 'Expired',
  suspended: 'Suspended',
  withdrawn: 'Withdrawn',
  pending: 'Pending',
};

export const LEI_PATTERN = '^[A-Z0-9]{18}[0-9]{2}$';
const LEI_RE = new RegExp(LEI_PATTERN);

/** ISO 7064 MOD 97-10 over the characters (letters A=10 ... Z=35). */
function mod97(value: string): number {
  let rem = 0;
  for (const ch of value) {
    const digits = /[0-9]/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of digits) rem = (rem * 10 + Number(d)) % 97;
  }
  return rem;
}

/** ISO 17442 check digits: ISO 7064 MOD 97-10 over the 20 characters must leave 1. */
export function isValidLei(lei: string): boolean {
  return LEI_RE.test(lei) && mod97(lei) === 1;
}

/** What is wrong with a typed LEI, in words (shown live under the field), or null when it is valid. */
export function leiProblem(value: string): string | null {
  const v = value.trim().toUpperCase();
  if (v.length !== 20) return `An LEI has 20 characters (${v.length} so far)`;
  if (!LEI_RE.test(v)) return 'An LEI is 18 letters or digits followed by 2 check digits';
  return mod97(v) === 1 ? null : 'The check digits do not match: a character is mistyped';
}
