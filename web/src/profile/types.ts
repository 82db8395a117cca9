import type { Workspace } from '../api/types';

/** The vendor profile as the API keeps it (docs/organizations-and-workspaces.md, "Vendor profile"), from the API's types. */
export type VendorProfile = Workspace['vendorProfile'];
export type Contract = NonNullable<VendorProfile['contracts']>[number];
export type Subcontractor = NonNullable<VendorProfile['subcontractors']>[number];
export type Certification = NonNullable<VendorProfile['certifications']>[number];
export type ExitPlan = NonNullable<VendorProfile['exitPlan']>;
