import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { apiWithMessage } from '../api/client';
import { useTitle } from '../lib/useTitle';
import { Alert, ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { Field } from '../ui/Field';
import { AuthFrame } from './AuthFrame';

export function ForgotPasswordPage() {
  useTitle('Forgot password');
  const [email, setEmail] = useState('');
  const send = useMutation({ mutationFn: () => apiWithMessage('POST', '/auth/forgot-password', { body: { email }, noRefresh: true }) });
  return (
    <AuthFrame title="Reset your password" intro={<p>We send a link to reset it to your e-mail address.</p>} footer={<Link to="/login">Back to sign in</Link>}>
      {send.isSuccess ? (
        <Alert tone="success" title="Check your inbox">
          <p className="alert-text">{send.data.message}</p>
        </Alert>
      ) : (
        <form
          className="form"
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            send.mutate();
          }}
        >
          <Field label="E-mail" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />
          {send.isError && <ErrorMessage error={send.error} />}
          <Button type="submit" variant="primary" busy={send.isPending} className="btn-block">
            Send the reset link
          </Button>
        </form>
      )}
    </AuthFrame>
  );
}
