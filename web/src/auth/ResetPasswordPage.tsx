import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { apiWithMessage } from '../api/client';
import { useTitle } from '../lib/useTitle';
import { Alert, ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { Field } from '../ui/Field';
import { AuthFrame } from './AuthFrame';

export function ResetPasswordPage() {
  useTitle('Choose a new password');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const reset = useMutation({ mutationFn: () => apiWithMessage('POST', '/auth/reset-password', { body: { token, newPassword: password }, noRefresh: true }) });
  return (
    <AuthFrame title="Choose a new password" footer={<Link to="/login">Back to sign in</Link>}>
      {!token ? (
        <Alert tone="error" title="This link is incomplete">
          <p className="alert-text">
            Open the link from the e-mail again, or <Link to="/forgot-password">ask for a new one</Link>.
          </p>
        </Alert>
      ) : reset.isSuccess ? (
        <Alert
          tone="success"
          title="Password changed"
          action={
            <Link to="/login" className="btn btn-primary btn-sm">
              Sign in
            </Link>
          }
        >
          <p className="alert-text">{reset.data.message}</p>
        </Alert>
      ) : (
        <form
          className="form"
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            reset.mutate();
          }}
        >
          <Field
            label="New password"
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            maxLength={128}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            hint="At least 8 characters. Every session is signed out."
            autoFocus
          />
          {reset.isError && <ErrorMessage error={reset.error} />}
          <Button type="submit" variant="primary" busy={reset.isPending} className="btn-block">
            Set the new password
          </Button>
        </form>
      )}
    </AuthFrame>
  );
}
