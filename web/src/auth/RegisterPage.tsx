import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { post } from '../api/client';
import { useTitle } from '../lib/useTitle';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { Field } from '../ui/Field';
import { AuthFrame } from './AuthFrame';
import { orgKey, resetSession } from './session';

export function RegisterPage() {
  useTitle('Create an account');
  const [params] = useSearchParams();
  const invitation = params.get('invitation') ?? undefined;
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const register = useMutation({
    mutationFn: () => post('/auth/register', { name, email, password, ...(invitation ? { invitationToken: invitation } : {}) }, { noRefresh: true }),
    onSuccess: async () => {
      await resetSession(qc, null);
      await qc.refetchQueries({ queryKey: ['me'] });
      // An invitation makes the new user a member at once; otherwise onboarding comes next.
      await qc.invalidateQueries({ queryKey: orgKey });
      navigate('/vendors', { replace: true });
    },
  });
  return (
    <AuthFrame
      title="Create your account"
      intro={
        invitation ? (
          <p>You were invited to an organization: you join it when the account is created.</p>
        ) : (
          <p>You create or join your company's organization in the next step.</p>
        )
      }
      footer={
        <p>
          Already registered? <Link to="/login">Sign in</Link>
        </p>
      }
    >
      <form
        className="form"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          register.mutate();
        }}
      >
        <Field
          label="Full name"
          name="name"
          autoComplete="name"
          required
          minLength={2}
          maxLength={100}
          value={name}
          onChange={(e) => setName(e.target.value)}
          autoFocus
        />
        <Field label="Work e-mail" type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={128}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          hint="At least 8 characters, not your e-mail address."
        />
        {register.isError && <ErrorMessage error={register.error} />}
        <Button type="submit" variant="primary" busy={register.isPending} className="btn-block">
          Create account
        </Button>
      </form>
    </AuthFrame>
  );
}
