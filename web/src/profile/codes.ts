/**
 * Code lists of the vendor profile, as the API checks them (src/domain/vendorProfile.ts,
 * docs/organizations-and-workspaces.md). Country and currency codes are the same lists the API
 * takes from i18n-iso-countries and currency-codes; their names come from the browser (Intl).
 */

export const COUNTRY_CODES: readonly string[] =
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW'.split(
    ' ',
  );
export const CURRENCY_CODES: readonly string[] =
  'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VES VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XDR XOF XPD XPF XPT XSU XUA YER ZAR ZMW ZWG'.split(
    ' ',
  );

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    return null;
  }
})();
/** "Germany (DE)"; the code alone when the browser has no name for it. */
export function countryLabel(code: string): string {
  const name = regionNames?.of(code);
  return name && name !== code ? `${name} (${code})` : code;
}
export const COUNTRY_OPTIONS = COUNTRY_CODES.map((c) => ({ value: c, label: countryLabel(c) })).sort((a, b) => a.label.localeCompare(b.label));

/** Annex III of Implementing Regulation (EU) 2024/2956: type of ICT services. */
export const ICT_SERVICE_TYPES: Record<string, string> = {
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
};
export const ICT_OPTIONS = Object.entries(ICT_SERVICE_TYPES).map(([value, label]) => ({ value, label: `${value} ${label}` }));

export const IDENTIFIER_TYPES = [
  { value: 'LEI', label: 'LEI (Legal Entity Identifier)' },
  { value: 'EUID', label: 'EUID (European Unique Identifier)' },
  { value: 'CRN', label: 'Company registration number' },
  { value: 'VAT', label: 'VAT number' },
  { value: 'PNR', label: 'Passport number' },
  { value: 'NIN', label: 'National identity number' },
];
export const CRITICALITY_TIERS = [
  { value: 'critical', label: 'Critical' },
  { value: 'high', label: 'High' },
  { value: 'medium', label: 'Medium' },
  { value: 'low', label: 'Low' },
];
export const SUBSTITUTABILITY = [
  { value: 'not_substitutable', label: 'Not substitutable' },
  { value: 'highly_complex', label: 'Highly complex substitutability' },
  { value: 'medium_complexity', label: 'Medium complexity' },
  { value: 'easily_substitutable', label: 'Easily substitutable' },
];
export const REINTEGRATION = [
  { value: 'easy', label: 'Easy' },
  { value: 'difficult', label: 'Difficult' },
  { value: 'highly_complex', label: 'Highly complex' },
];
export const LEVELS = [
  { value: 'low', label: 'Low' },
  { value: 'medium', label: 'Medium' },
  { value: 'high', label: 'High' },
];
export const CERTIFICATION_STATUSES = [
  { value: 'valid', label: 'Valid' },
  { value: 'expired', label: 'Expired' },
  { value: 'suspended', label: 'Suspended' },
  { value: 'withdrawn', label: 'Withdrawn' },
  { value: 'pending', label: 'Pending' },
];

/**
 * ISO 17442 check digits (ISO 7064 MOD 97-10), as the API checks them: null when valid,
 * else what is wrong, in words (shown live under the field).
 */
export function leiProblem(value: string): string | null {
  const v = value.trim().toUpperCase();
  if (v.length !== 20) return `An LEI has 20 characters (${v.length} so far)`;
  if (!/^[A-Z0-9]{18}[0-9]{2}$/.test(v)) return 'An LEI is 18 letters or digits followed by 2 check digits';
  let rem = 0;
  for (const ch of v) {
    const digits = /[0-9]/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of digits) rem = (rem * 10 + Number(d)) % 97;
  }
  return rem === 1 ? null : 'The check digits do not match: a character is mistyped';
}
