import { Navigate, Outlet, useLocation } from 'react-router';
import { useMe, useOrganization } from '../auth/session';
import { ErrorMessage } from '../ui/Alert';
import { Loading } from '../ui/Spinner';

/**
 * Guards the signed-in part: no session -> sign-in (coming back here afterwards); no
 * organization yet -> onboarding (unless `organization` is false, for onboarding itself).
 */
export function RequireAuth({ organization = true }: { organization?: boolean }) {
  const location = useLocation();
  const me = useMe();
  const org = useOrganization(!!me.data);
  if (me.isPending) return <Loading label="Checking your session…" />;
  if (me.isError)
    return (
      <div className="page-center">
        <ErrorMessage error={me.error} title="The dashboard could not load your account" onRetry={() => me.refetch()} />
      </div>
    );
  if (!me.data) {
    const next = location.pathname + location.search;
    return <Navigate to={next && next !== '/' ? `/login?next=${encodeURIComponent(next)}` : '/login'} replace />;
  }
  if (org.isPending) return <Loading label="Loading your organization…" />;
  if (org.isError)
    return (
      <div className="page-center">
        <ErrorMessage error={org.error} title="Your organization could not be loaded" onRetry={() => org.refetch()} />
      </div>
    );
  if (organization && !org.data) return <Navigate to="/onboarding" replace />;
  if (!organization && org.data) return <Navigate to="/vendors" replace />;
  return <Outlet />;
}
