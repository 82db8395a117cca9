import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { api, del } from '../api/client';
import { CURRENCY_CODES } from '../profile/codes';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { useToast } from '../ui/Toasts';
import { auditKey, preflightKey, ratesKey, useRates } from './api';
import styles from './Register.module.css';

/**
 * Exchange rates into the reporting currency (docs/register-of-information.md, "Amounts"): an amount
 * in another currency is reported at the latest rate recorded on or before the reference date, and
 * refused (the pre-flight says which rate to record) when there is none.
 */
export function FxRates({ canEdit, wanted }: { canEdit: boolean; wanted: string | null }) {
  const rates = useRates();
  const qc = useQueryClient();
  const toast = useToast();
  const [currency, setCurrency] = useState(wanted ?? '');
  const [date, setDate] = useState('');
  const [rate, setRate] = useState('');
  useEffect(() => {
    if (wanted) setCurrency(wanted);
  }, [wanted]);
  const refresh = () => Promise.all([ratesKey, preflightKey, auditKey].map((queryKey) => qc.invalidateQueries({ queryKey })));
  const save = useMutation({
    mutationFn: () => api('PUT', '/register/fx-rates', { body: { currency, date, rate: Number(rate) } }),
    onSuccess: async () => {
      await refresh();
      setRate('');
      toast.show(`${currency} rate saved`, 'success');
    },
  });
  const remove = useMutation({
    mutationFn: (r: { currency: string; date: string }) => del(`/register/fx-rates/${r.currency}/${r.date}`),
    onSuccess: refresh,
  });
  const base = rates.data?.baseCurrency ?? '';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <section className="card" aria-labelledby="fx-title" id="fx-rates">
      <h2 id="fx-title">Exchange rates</h2>
      <p className="muted">
        Amounts are reported in {base || 'the reporting currency'}. A contract priced in another currency is converted at the latest rate recorded on or before
        the reference date.
      </p>
      {(rates.data?.rates.length ?? 0) > 0 && (
        <ul className={styles.rates} aria-label="Exchange rates recorded">
          {rates.data!.rates.map((r) => (
            <li key={`${r.currency}-${r.date}`}>
              <span>
                <strong>
                  1 {r.currency} = {r.rate} {r.baseCurrency}
                </strong>{' '}
                <span className="muted">as at {r.date}</span>
              </span>
              {canEdit && (
                <Button
                  size="sm"
                  variant="ghost"
                  icon={<Trash2 size={14} aria-hidden="true" />}
                  busy={remove.isPending && remove.variables?.currency === r.currency && remove.variables.date === r.date}
                  onClick={() => remove.mutate(r)}
                  aria-label={`Delete the ${r.currency} rate of ${r.date}`}
                >
                  Delete
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canEdit && (
        <form className={styles.rateForm} onSubmit={submit} noValidate aria-label="Record an exchange rate">
          <div className="field">
            <label htmlFor="fx-currency">Currency</label>
            <select id="fx-currency" value={currency} onChange={(e) => setCurrency(e.target.value)}>
              <option value="">Choose…</option>
              {CURRENCY_CODES.filter((c) => c !== base).map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="fx-date">As at</label>
            <input id="fx-date" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="fx-rate">{currency ? `${base} per 1 ${currency}` : `${base} per unit`}</label>
            <input id="fx-rate" type="number" min={0} step="any" inputMode="decimal" value={rate} onChange={(e) => setRate(e.target.value)} />
          </div>
          <Button type="submit" variant="primary" busy={save.isPending} disabled={!currency || !date || !(Number(rate) > 0)}>
            Save the rate
          </Button>
        </form>
      )}
      {save.isError && <ErrorMessage error={save.error} title="The rate was not saved" />}
      {remove.isError && <ErrorMessage error={remove.error} title="The rate was not deleted" />}
    </section>
  );
}
