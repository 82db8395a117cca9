import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { apiWithMessage, post } from '../api/client';
import type { ApiData } from '../api/types';
import { meKey, useMe, useOrganization } from '../auth/session';
import { useTitle } from '../lib/useTitle';
import { Alert, ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { Field } from '../ui/Field';
import { useToast } from '../ui/Toasts';

/** The signed-in user's profile, e-mail verification and password. */
export function AccountPage() {
  useTitle('Account');
  const me = useMe().data!;
  const org = useOrganization().data;
  const qc = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState(me.name);
  const [email, setEmail] = useState(me.email);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');

  const profile = useMutation({
    mutationFn: () =>
      apiWithMessage<ApiData<'updateMe'>>('PATCH', '/auth/me', {
        body: { ...(name !== me.name ? { name } : {}), ...(email !== me.email ? { email } : {}) },
      }),
    onSuccess: async ({ message }) => {
      toast.show(message || 'Profile updated', 'success');
      await qc.invalidateQueries({ queryKey: meKey });
    },
  });
  const password = useMutation({
    mutationFn: () => apiWithMessage('POST', '/auth/change-password', { body: { currentPassword: current, newPassword: next } }),
    onSuccess: ({ message }) => {
      setCurrent('');
      setNext('');
      toast.show(message || 'Password changed', 'success');
    },
  });
  const resend = useMutation({ mutationFn: () => post('/auth/resend-verification', {}) });

  return (
    <div className="page page-narrow">
      <header className="page-header">
        <h1>Account</h1>
        {org && (
          <p className="page-sub">
            {org.name} · {org.myRole.replace('_', ' ')}
          </p>
        )}
      </header>

      <section className="card" aria-labelledby="profile-h">
        <h2 id="profile-h">Profile</h2>
        {!me.emailVerified && (
          <Alert
            tone="warning"
            title="Your e-mail address is not verified yet"
            action={
              <Button size="sm" busy={resend.isPending} onClick={() => resend.mutate()}>
                Send the link again
              </Button>
            }
          >
            <p className="alert-text">{resend.isSuccess ? 'A new verification link is on its way.' : 'Open the link in the e-mail we sent you.'}</p>
          </Alert>
        )}
        {resend.isError && <ErrorMessage error={resend.error} />}
        <form
          className="form"
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            profile.mutate();
          }}
        >
          <Field label="Name" value={name} onChange={(e) => setName(e.target.value)} required minLength={2} maxLength={100} autoComplete="name" />
          <Field
            label="E-mail"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
            autoComplete="email"
            hint="A new address must be verified again."
          />
          {profile.isError && <ErrorMessage error={profile.error} />}
          <div className="form-actions">
            <Button type="submit" variant="primary" busy={profile.isPending} disabled={name === me.name && email === me.email}>
              Save profile
            </Button>
          </div>
        </form>
      </section>

      <section className="card" aria-labelledby="password-h">
        <h2 id="password-h">Password</h2>
        <form
          className="form"
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            password.mutate();
          }}
        >
          <Field
            label="Current password"
            type="password"
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
            required
            autoComplete="current-password"
          />
          <Field
            label="New password"
            type="password"
            value={next}
            onChange={(e) => setNext(e.target.value)}
            required
            minLength={8}
            maxLength={128}
            autoComplete="new-password"
            hint="8 to 128 characters, not your e-mail address. Your other sessions are signed out."
          />
          {password.isError && <ErrorMessage error={password.error} />}
          <div className="form-actions">
            <Button type="submit" variant="primary" busy={password.isPending}>
              Change password
            </Button>
          </div>
        </form>
      </section>
    </div>
  );
}
