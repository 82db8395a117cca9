import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LogOut, UserRound } from 'lucide-react';
import { Suspense } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { post } from '../api/client';
import { resetSession, useMe, useOrganization } from '../auth/session';
import { Loading } from '../ui/Spinner';
import { useToast } from '../ui/Toasts';
import { NotificationStreamProvider } from '../notifications/stream';
import { NAV } from './nav';
import { TopBarSlot } from './TopBar';

/** The frame of every signed-in screen: navigation on the left, the screen on the right. */
export function Layout() {
  const me = useMe().data!;
  const org = useOrganization().data;
  const qc = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const logout = useMutation({
    mutationFn: () => post('/auth/logout', undefined, { noRefresh: true }),
    onSettled: async () => {
      await resetSession(qc, null);
      navigate('/login', { replace: true });
      toast.show('You are signed out');
    },
  });
  const nav = NAV.filter((n) => !n.orgRoles || (org && n.orgRoles.includes(org.myRole)));
  return (
    <NotificationStreamProvider>
      <div className="shell">
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        <aside className="sidebar">
          <div className="brand">
            <img src="/favicon.svg" alt="" width="28" height="28" />
            <div>
              <div className="brand-name">DORA Vendors</div>
              {org && (
                <div className="brand-org" title={org.name}>
                  {org.name}
                </div>
              )}
            </div>
          </div>
          <nav aria-label="Main" className="nav">
            <ul>
              {nav.map((n) => (
                <li key={n.to}>
                  <NavLink to={n.to} className={({ isActive }) => `nav-link${isActive ? ' active' : ''}`}>
                    <n.icon size={18} aria-hidden="true" />
                    <span>{n.label}</span>
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="sidebar-foot">
            <NavLink to="/account" className={({ isActive }) => `nav-link${isActive ? ' active' : ''}`}>
              <UserRound size={18} aria-hidden="true" />
              <span className="user-label">
                <span className="user-name">{me.name}</span>
                <span className="user-email">{me.email}</span>
              </span>
            </NavLink>
            <button type="button" className="nav-link nav-button" onClick={() => logout.mutate()} disabled={logout.isPending}>
              <LogOut size={18} aria-hidden="true" />
              <span>{logout.isPending ? 'Signing out…' : 'Sign out'}</span>
            </button>
          </div>
        </aside>
        <div className="main-col">
          <header className="topbar">
            <TopBarSlot />
          </header>
          <main id="main" className="main" tabIndex={-1}>
            <Suspense fallback={<Loading label="Loading…" />}>
              <Outlet />
            </Suspense>
          </main>
        </div>
      </div>
    </NotificationStreamProvider>
  );
}
