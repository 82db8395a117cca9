import currencyCodes from 'currency-codes';
import countries from 'i18n-iso-countries';
import t from 'tap';
import { COUNTRY_CODES, CURRENCY_CODES, isValidLei, leiProblem } from '../../src/domain/vendorProfileCodes.js';

/**
 * The vendor profile's code lists are data (src/domain/vendorProfileCodes.ts) that the API and the
 * dashboard both read; the country and currency lists must stay the ones of the ISO packages.
 */
t.test('the country list is the ISO 3166-1 alpha-2 list of i18n-iso-countries', async (t) => {
  t.same([...COUNTRY_CODES], Object.keys(countries.getAlpha2Codes()).sort());
});

t.test('the currency list is the ISO 4217 list of currency-codes without XXX and XTS', async (t) => {
  t.same(
    [...CURRENCY_CODES],
    currencyCodes
      .codes()
      .filter((c) => c !== 'XXX' && c !== 'XTS')
      .sort(),
  );
});

t.test('the LEI check the dashboard shows agrees with the one the API applies', async (t) => {
  const valid = '5493001KJTIIGC8Y1R12';
  t.ok(isValidLei(valid));
  t.equal(leiProblem(valid), null);
  const mistyped = '5493001KJTIIGC8Y1R13';
  t.notOk(isValidLei(mistyped));
  t.match(leiProblem(mistyped), /check digits do not match/);
  t.match(leiProblem('5493'), /20 characters \(4 so far\)/);
});
