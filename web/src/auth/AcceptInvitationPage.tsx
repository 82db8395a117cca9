import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { post } from '../api/client';
import { useTitle } from '../lib/useTitle';
import { Alert, ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { Loading } from '../ui/Spinner';
import { AuthFrame } from './AuthFrame';
import { orgKey, useMe } from './session';

/** The link of an organization invitation: join now if signed in, else register or sign in with it. */
export function AcceptInvitationPage() {
  useTitle('Invitation');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const me = useMe();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const accept = useMutation({
    mutationFn: () => post('/organizations/invitations/accept', { token }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: orgKey });
      navigate('/vendors', { replace: true });
    },
  });
  const here = `/accept-invitation?token=${encodeURIComponent(token)}`;
  return (
    <AuthFrame title="Join your organization">
      {!token ? (
        <Alert tone="error" title="This link is incomplete">
          <p className="alert-text">Open the link from the invitation e-mail again.</p>
        </Alert>
      ) : me.isPending ? (
        <Loading />
      ) : me.data ? (
        <div className="form">
          <p>
            You are signed in as <strong>{me.data.email}</strong>. The invitation must have been sent to this address.
          </p>
          {accept.isError && <ErrorMessage error={accept.error} />}
          <Button variant="primary" busy={accept.isPending} onClick={() => accept.mutate()} className="btn-block">
            Accept the invitation
          </Button>
        </div>
      ) : (
        <div className="form">
          <p>Create an account with the invited e-mail address, or sign in if you already have one.</p>
          <Link className="btn btn-primary btn-md btn-block" to={`/register?invitation=${encodeURIComponent(token)}`}>
            Create an account
          </Link>
          <Link className="btn btn-secondary btn-md btn-block" to={`/login?next=${encodeURIComponent(here)}`}>
            Sign in
          </Link>
        </div>
      )}
    </AuthFrame>
  );
}
