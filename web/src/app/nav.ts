import { BarChart3, Building2, FileSpreadsheet, Network, Users, type LucideIcon } from 'lucide-react';

/**
 * The main navigation. A new section is one entry here plus its routes in App.tsx
 * (docs/dashboard.md, "Adding a screen"). `orgRoles` limits an entry to some organization roles.
 */
export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
  orgRoles?: string[];
}

export const NAV: NavItem[] = [
  { to: '/vendors', label: 'Vendors', icon: Building2 },
  { to: '/register-of-information', label: 'Register', icon: FileSpreadsheet },
  { to: '/concentration', label: 'Concentration', icon: Network },
  { to: '/analytics', label: 'Analytics', icon: BarChart3 },
  { to: '/organization', label: 'Organization', icon: Users },
];
