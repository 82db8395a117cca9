import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { del, get, post } from '../api/client';
import type { ApiData } from '../api/types';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { Field } from '../ui/Field';
import { formatDateTime } from '../ui/format';
import { Loading } from '../ui/Spinner';
import { useToast } from '../ui/Toasts';
import styles from './Concentration.module.css';

type Aliases = ApiData<'listProviderAliases'>['aliases'];

/**
 * The organization's own reading of provider names (docs/concentration.md, "Provider names"):
 * names merged into one provider ("AWS EMEA" is Amazon Web Services) or split off the provider the
 * maintained alias table gives them, each undoable. Org admins and analysts edit; viewers read.
 */
export function ProviderNames() {
  const qc = useQueryClient();
  const toast = useToast();
  const q = useQuery({ queryKey: ['concentration', 'aliases'], queryFn: () => get<ApiData<'listProviderAliases'>>('/concentration/aliases') });
  const [names, setNames] = useState('');
  const [into, setInto] = useState('');
  const [split, setSplit] = useState('');
  const changed = async (message: string) => {
    // Every figure of the page depends on how names resolve.
    await qc.invalidateQueries({ queryKey: ['concentration'] });
    toast.show(message, 'success');
  };
  const merge = useMutation({
    mutationFn: () =>
      post('/concentration/aliases/merge', {
        names: names
          .split(/[,;\n]/)
          .map((n) => n.trim())
          .filter(Boolean),
        into: into.trim(),
      }),
    onSuccess: async () => {
      setNames('');
      setInto('');
      await changed('Provider names merged');
    },
  });
  const splitOff = useMutation({
    mutationFn: () => post('/concentration/aliases/split', { name: split.trim() }),
    onSuccess: async () => {
      setSplit('');
      await changed('Provider name split off');
    },
  });
  const undo = useMutation({
    mutationFn: (name: string) => del('/concentration/aliases', { query: { name } }),
    onSuccess: () => changed('The alias table applies to that name again'),
  });
  const a: Aliases | undefined = q.data?.aliases;
  return (
    <section aria-labelledby="conc-names" className="card">
      <h2 id="conc-names">Provider names</h2>
      <p className="muted">
        Documents name one provider in several ways. A maintained table already reads {a ? a.table.length : '…'} providers' names as one; here your organization
        merges names the table does not know, or splits a name the table joins wrongly.
      </p>
      {q.isPending ? (
        <Loading label="Loading the provider names…" />
      ) : q.isError ? (
        <ErrorMessage error={q.error} onRetry={() => q.refetch()} />
      ) : (
        <>
          {a!.overrides.length === 0 ? (
            <p data-testid="no-overrides">No name merged or split by your organization yet.</p>
          ) : (
            <div className="table-wrap">
              <table className="table" data-testid="overrides">
                <thead>
                  <tr>
                    <th scope="col">Name in the documents</th>
                    <th scope="col">Read as</th>
                    <th scope="col">Set</th>
                    {a!.canEdit && (
                      <th scope="col">
                        <span className="visually-hidden">Undo</span>
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {a!.overrides.map((o) => (
                    <tr key={o.nameKey} data-name={o.name}>
                      <td>{o.name}</td>
                      <td>{o.action === 'merge' ? o.providerName : 'its own provider (split off where the alias table grouped it)'}</td>
                      <td className="small muted">{formatDateTime(o.createdAt)}</td>
                      {a!.canEdit && (
                        <td>
                          <Button size="sm" aria-label={`Undo for ${o.name}`} disabled={undo.isPending} onClick={() => undo.mutate(o.name)}>
                            Undo
                          </Button>
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {undo.isError && <ErrorMessage error={undo.error} />}
          {a!.canEdit && (
            <div className={styles.nameForms}>
              <form
                className="form"
                aria-label="Merge provider names"
                onSubmit={(e: FormEvent) => {
                  e.preventDefault();
                  merge.mutate();
                }}
              >
                <h3>Merge names into one provider</h3>
                <Field label="Names (separated by commas)" value={names} onChange={(e) => setNames(e.target.value)} required maxLength={2000} />
                <Field label="Into provider" value={into} onChange={(e) => setInto(e.target.value)} required maxLength={200} />
                {merge.isError && <ErrorMessage error={merge.error} />}
                <Button type="submit" variant="primary" disabled={merge.isPending}>
                  Merge
                </Button>
              </form>
              <form
                className="form"
                aria-label="Split a provider name off"
                onSubmit={(e: FormEvent) => {
                  e.preventDefault();
                  splitOff.mutate();
                }}
              >
                <h3>Split a name off its provider</h3>
                <Field label="Name" value={split} onChange={(e) => setSplit(e.target.value)} required maxLength={200} />
                {splitOff.isError && <ErrorMessage error={splitOff.error} />}
                <Button type="submit" disabled={splitOff.isPending}>
                  Split off
                </Button>
              </form>
            </div>
          )}
        </>
      )}
    </section>
  );
}
