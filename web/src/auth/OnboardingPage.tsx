import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { post } from '../api/client';
import { useTitle } from '../lib/useTitle';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { CountryInput } from '../ui/CountryInput';
import { Field } from '../ui/Field';
import { AuthFrame } from './AuthFrame';
import { orgKey, resetSession, useMe } from './session';

/** A user without an organization creates one, or joins one with an invitation token. */
export function OnboardingPage() {
  useTitle('Your organization');
  const me = useMe().data!;
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [country, setCountry] = useState('');
  const [countryValid, setCountryValid] = useState(true);
  const [token, setToken] = useState('');
  const done = async () => {
    await qc.invalidateQueries({ queryKey: orgKey });
    navigate('/vendors', { replace: true });
  };
  const create = useMutation({ mutationFn: () => post('/organizations', { name, ...(country ? { country } : {}) }), onSuccess: done });
  const join = useMutation({ mutationFn: () => post('/organizations/invitations/accept', { token: token.trim() }), onSuccess: done });
  const logout = useMutation({
    mutationFn: () => post('/auth/logout', undefined, { noRefresh: true }),
    onSettled: async () => {
      await resetSession(qc, null);
      navigate('/login', { replace: true });
    },
  });
  return (
    <AuthFrame
      title={`Welcome, ${me.name}`}
      intro={<p>Vendor workspaces belong to your company's organization. Create it, or join it with the invitation you received.</p>}
      footer={
        <p>
          Signed in as {me.email}.{' '}
          <button type="button" className="link-button" onClick={() => logout.mutate()}>
            Sign out
          </button>
        </p>
      }
    >
      <section aria-labelledby="create-org-h">
        <h2 id="create-org-h" className="auth-h2">
          Create an organization
        </h2>
        <form
          className="form"
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            // A country typed but not recognised is not sent as something else (its field says why).
            if (countryValid) create.mutate();
          }}
        >
          <Field
            label="Organization name"
            required
            minLength={2}
            maxLength={200}
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="e.g. Example Bank AG"
          />
          <CountryInput label="Country (optional)" value={country} onChange={setCountry} onValidity={setCountryValid} hint="Type its name, e.g. Germany" />
          {create.isError && <ErrorMessage error={create.error} />}
          <Button type="submit" variant="primary" busy={create.isPending} className="btn-block">
            Create organization
          </Button>
        </form>
      </section>
      <div className="divider" role="separator">
        <span>or</span>
      </div>
      <section aria-labelledby="join-org-h">
        <h2 id="join-org-h" className="auth-h2">
          Join with an invitation
        </h2>
        <form
          className="form"
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            join.mutate();
          }}
        >
          <Field
            label="Invitation token"
            required
            value={token}
            onChange={(e) => setToken(e.target.value)}
            hint="The invitation e-mail holds a link and this token."
          />
          {join.isError && <ErrorMessage error={join.error} />}
          <Button type="submit" busy={join.isPending} className="btn-block">
            Join organization
          </Button>
        </form>
      </section>
    </AuthFrame>
  );
}
