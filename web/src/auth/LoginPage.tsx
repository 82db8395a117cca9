import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { post } from '../api/client';
import { useTitle } from '../lib/useTitle';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { Field } from '../ui/Field';
import { Loading } from '../ui/Spinner';
import { AuthFrame } from './AuthFrame';
import { resetSession, useMe } from './session';

/** Only paths of this dashboard are followed after sign-in (no open redirect). */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/vendors';
}

export function LoginPage() {
  useTitle('Sign in');
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const me = useMe();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useMutation({
    mutationFn: () => post('/auth/login', { email, password }, { noRefresh: true }),
    onSuccess: async () => {
      await resetSession(qc, null);
      await qc.refetchQueries({ queryKey: ['me'] });
      navigate(next, { replace: true });
    },
  });
  if (me.isPending) return <Loading label="Checking your session…" />;
  if (me.data && !login.isPending && !login.isSuccess) return <Navigate to={next} replace />;
  return (
    <AuthFrame
      title="Sign in"
      intro={<p>Vendor documents, questions with cited sources and the DORA register, in one place.</p>}
      footer={
        <p>
          New here?{' '}
          <Link to={`/register${params.get('invitation') ? `?invitation=${encodeURIComponent(params.get('invitation')!)}` : ''}`}>Create an account</Link>
        </p>
      }
    >
      <form
        className="form"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          login.mutate();
        }}
      >
        <Field label="E-mail" type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />
        <Field
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {login.isError && <ErrorMessage error={login.error} />}
        <Button type="submit" variant="primary" busy={login.isPending} className="btn-block">
          Sign in
        </Button>
        <p className="form-aside">
          <Link to="/forgot-password">Forgot your password?</Link>
        </p>
      </form>
    </AuthFrame>
  );
}
