import { ClipboardCheck, FileText, IdCard, ListChecks, MessageSquareText, Settings, type LucideIcon } from 'lucide-react';
import { Suspense, useEffect, useRef } from 'react';
import { NavLink, Outlet, useLocation, useParams } from 'react-router';
import type { Workspace } from '../api/types';
import { useTitle } from '../lib/useTitle';
import { ErrorMessage } from '../ui/Alert';
import { plural } from '../ui/format';
import { Loading } from '../ui/Spinner';
import { useVendor } from './api';
import { SyncStatusBadge } from './SyncStatusBadge';

/**
 * The tabs of a vendor. A new vendor screen (profile, assessments, questionnaires...) is one
 * entry here plus a child route of `/vendors/:slug` in app/App.tsx (docs/dashboard.md).
 */
export interface VendorTab {
  to: string;
  label: string;
  icon: LucideIcon;
  /** Shown only to members holding this permission. */
  permission?: keyof Workspace['permissions'];
}
export const VENDOR_TABS: VendorTab[] = [
  { to: 'documents', label: 'Documents', icon: FileText, permission: 'canViewSources' },
  { to: 'ask', label: 'Ask', icon: MessageSquareText, permission: 'canQuery' },
  { to: 'profile', label: 'Profile', icon: IdCard },
  { to: 'assessments', label: 'Assessments', icon: ClipboardCheck, permission: 'canQuery' },
  { to: 'questionnaires', label: 'Questionnaires', icon: ListChecks, permission: 'canQuery' },
  { to: 'settings', label: 'Settings', icon: Settings },
];

/** What a vendor tab receives through the router outlet. */
export interface VendorOutletContext {
  vendor: Workspace;
}

/** One vendor workspace: its header and its tabs. */
export default function VendorPage() {
  const { slug = '' } = useParams();
  const vendor = useVendor(slug);
  useTitle(vendor.data?.workspaceName ?? 'Vendor');
  // On a narrow screen the tabs scroll sideways: the current one is scrolled into sight.
  const tabsRef = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: another tab (or the vendor loaded) moves the active tab
  useEffect(() => {
    const nav = tabsRef.current;
    if (!nav) return;
    const center = () => {
      const active = nav.querySelector<HTMLElement>('.tab.active');
      if (!active) return;
      const left = active.getBoundingClientRect().left - nav.getBoundingClientRect().left + nav.scrollLeft;
      nav.scrollLeft = Math.max(0, left - (nav.clientWidth - active.offsetWidth) / 2);
    };
    center();
    const ro = new ResizeObserver(center);
    ro.observe(nav);
    return () => ro.disconnect();
  }, [pathname, vendor.data]);
  if (vendor.isPending) return <Loading label="Loading the vendor…" />;
  if (vendor.isError) return <ErrorMessage error={vendor.error} title="This vendor could not be opened" onRetry={() => vendor.refetch()} />;
  const w = vendor.data;
  const tabs = VENDOR_TABS.filter((t) => !t.permission || w.permissions[t.permission]);
  // Ask takes the window: a wider page and a shorter header leave the conversation the room.
  const ask = /\/ask(\/|$)/.test(pathname);
  return (
    <div className={`page${ask ? ' page-ask' : ''}`}>
      <header className="page-header vendor-header">
        <div>
          <div className="breadcrumb">
            <NavLink to="/vendors">Vendors</NavLink> / {w.workspaceId}
          </div>
          <h1>{w.workspaceName}</h1>
          <p className="page-sub">
            {plural(w.stats.totalDocuments, 'document')} · {plural(w.stats.totalDatabases, 'data source')} · your role: {w.myRole} · {w.lifecycle ?? 'active'}
            {w.vendorOwnerId
              ? ` · owner: ${(w as Workspace & { members?: { user: { id: string; name: string } }[] }).members?.find((m) => m.user.id === w.vendorOwnerId)?.user.name ?? 'named'}`
              : ''}
          </p>
        </div>
        <SyncStatusBadge status={w.syncStatus} />
      </header>
      <nav ref={tabsRef} className="tabs" aria-label={`${w.workspaceName} sections`}>
        {tabs.map((t) => (
          <NavLink key={t.to} to={t.to} className={({ isActive }) => `tab${isActive ? ' active' : ''}`}>
            <t.icon size={16} aria-hidden="true" />
            {t.label}
          </NavLink>
        ))}
      </nav>
      <Suspense fallback={<Loading label="Loading…" />}>
        <Outlet context={{ vendor: w } satisfies VendorOutletContext} />
      </Suspense>
    </div>
  );
}
