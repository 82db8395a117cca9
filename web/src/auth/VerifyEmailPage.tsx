import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { post } from '../api/client';
import { useTitle } from '../lib/useTitle';
import { Alert, ErrorMessage } from '../ui/Alert';
import { Loading } from '../ui/Spinner';
import { AuthFrame } from './AuthFrame';
import { meKey } from './session';

/** The link of the verification e-mail lands here and verifies at once. */
export function VerifyEmailPage() {
  useTitle('Verify e-mail');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const qc = useQueryClient();
  const verify = useMutation({
    mutationFn: () => post('/auth/verify-email', { token }, { noRefresh: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: meKey }),
  });
  const started = useRef(false);
  useEffect(() => {
    if (token && !started.current) {
      started.current = true;
      verify.mutate();
    }
  }, [token, verify]);
  return (
    <AuthFrame title="Verify your e-mail address" footer={<Link to="/vendors">Go to the dashboard</Link>}>
      {!token ? (
        <Alert tone="error" title="This link is incomplete">
          <p className="alert-text">Open the link from the e-mail again; from your account page you can ask for a new one.</p>
        </Alert>
      ) : verify.isSuccess ? (
        <Alert tone="success" title="E-mail address verified">
          <p className="alert-text">Thank you. You can continue in the dashboard.</p>
        </Alert>
      ) : verify.isError ? (
        <ErrorMessage error={verify.error} title="The address could not be verified" />
      ) : (
        <Loading label="Verifying…" />
      )}
    </AuthFrame>
  );
}
