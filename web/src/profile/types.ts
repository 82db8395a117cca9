/** The vendor profile as the API keeps it (docs/organizations-and-workspaces.md, "Vendor profile"). */
export interface Contract {
  id?: string;
  reference: string;
  arrangementType?: 'standalone' | 'overarching' | 'subsequent';
  overarchingReference?: string;
  functionIds?: string[];
  terminationReason?: string;
  ictServiceType?: string;
  startDate: string;
  endDate?: string | null;
  noticePeriodDaysEntity?: number;
  noticePeriodDaysProvider?: number;
  governingLaw?: string;
  annualCost?: { amount: number; currency: string };
  storesData?: boolean;
  dataStorageLocations?: string[];
  dataProcessingLocations?: string[];
  processesData?: boolean;
  dataSensitivity?: 'low' | 'medium' | 'high';
  serviceLocations?: string[];
  renewal?: string;
  personalData?: boolean;
  auditRights?: string;
  exitProvisions?: string;
}
export interface Subcontractor {
  name: string;
  role?: string;
  country?: string;
  identifier?: { type: string; value: string };
}
export interface Certification {
  type: string;
  issuer?: string;
  validUntil?: string;
  status: string;
}
export interface ExitPlan {
  exists: boolean;
  lastTestedDate?: string;
  reintegrationPossibility?: string;
  alternativeProvidersIdentified?: boolean;
  alternativeProviders?: string[];
  notes?: string;
}
export interface VendorProfile {
  legalName?: string;
  identifier?: { type: string; value: string };
  country?: string;
  ictServiceType?: string;
  criticalityTier?: string;
  supportsCriticalFunction?: boolean;
  description?: string;
  website?: string;
  contracts?: Contract[];
  certifications?: Certification[];
  substitutability?: string;
  discontinuationImpact?: string;
  exitPlan?: ExitPlan;
  nextReviewDate?: string;
  lastAuditDate?: string;
  subcontractors?: Subcontractor[];
}
