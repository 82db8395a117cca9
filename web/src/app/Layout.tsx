import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LogOut, Menu, UserRound, X } from 'lucide-react';
import { Suspense, useEffect, useRef, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { post } from '../api/client';
import { resetSession, useMe, useOrganization } from '../auth/session';
import { Loading } from '../ui/Spinner';
import { useToast } from '../ui/Toasts';
import { NotificationStreamProvider } from '../notifications/stream';
import { ViewerProvider } from '../viewer/DocumentViewer';
import { NAV } from './nav';
import { TopBarSlot } from './TopBar';

/**
 * The frame of every signed-in screen: navigation on the left, the screen on the right. Below
 * 900 px the navigation is a drawer behind the menu button of the top bar (docs/dashboard.md,
 * "Every size").
 */
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
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const drawer = useRef<HTMLElement>(null);
  const location = useLocation();
  // A link followed in the drawer closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is the trigger
  useEffect(() => setMenuOpen(false), [location.pathname]);
  useEffect(() => {
    if (!menuOpen) return;
    drawer.current?.querySelector<HTMLElement>('a, button')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);
  return (
    <NotificationStreamProvider>
      <div className="shell">
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        {menuOpen && <div className="drawer-backdrop" aria-hidden="true" onClick={() => setMenuOpen(false)} />}
        <aside id="sidebar" ref={drawer} className={`sidebar${menuOpen ? ' open' : ''}`} aria-label="Navigation">
          <button type="button" className="icon-btn drawer-close" aria-label="Close the menu" onClick={() => setMenuOpen(false)}>
            <X size={20} aria-hidden="true" />
          </button>
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
            <button
              ref={menuButton}
              type="button"
              className="icon-btn menu-button"
              aria-label="Menu"
              aria-expanded={menuOpen}
              aria-controls="sidebar"
              onClick={() => setMenuOpen(!menuOpen)}
            >
              <Menu size={22} aria-hidden="true" />
            </button>
            <span className="topbar-brand">
              <img src="/favicon.svg" alt="" width="22" height="22" /> DORA Vendors
            </span>
            <TopBarSlot />
          </header>
          <main id="main" className="main" tabIndex={-1}>
            <ViewerProvider>
              <Suspense fallback={<Loading label="Loading…" />}>
                <Outlet />
              </Suspense>
            </ViewerProvider>
          </main>
        </div>
      </div>
    </NotificationStreamProvider>
  );
}
