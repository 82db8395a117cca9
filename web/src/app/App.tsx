import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { AcceptInvitationPage } from '../auth/AcceptInvitationPage';
import { ForgotPasswordPage } from '../auth/ForgotPasswordPage';
import { LoginPage } from '../auth/LoginPage';
import { OnboardingPage } from '../auth/OnboardingPage';
import { RegisterPage } from '../auth/RegisterPage';
import { ResetPasswordPage } from '../auth/ResetPasswordPage';
import { useSessionExpiry } from '../auth/session';
import { VerifyEmailPage } from '../auth/VerifyEmailPage';
import { Loading } from '../ui/Spinner';
import { AccountPage } from './AccountPage';
import { Layout } from './Layout';
import { NotFoundPage } from './NotFoundPage';
import { RequireAuth } from './RequireAuth';

// Screens behind sign-in load on demand: the sign-in page stays small.
const VendorsPage = lazy(() => import('../vendors/VendorsPage'));
const VendorPage = lazy(() => import('../vendors/VendorPage'));
const DocumentsTab = lazy(() => import('../vendors/DocumentsTab'));
const AskTab = lazy(() => import('../chat/AskTab'));
const NotificationsPage = lazy(() => import('../notifications/NotificationsPage'));
const ProfileTab = lazy(() => import('../profile/ProfileTab'));
const AssessmentsTab = lazy(() => import('../assessments/AssessmentsTab'));
const AssessmentPage = lazy(() => import('../assessments/AssessmentPage'));
const QuestionnairesTab = lazy(() => import('../questionnaires/QuestionnairesTab'));
const QuestionnairePage = lazy(() => import('../questionnaires/QuestionnairePage'));
const VendorQuestionnairePage = lazy(() => import('../questionnaires/VendorQuestionnairePage'));
const VendorSettingsTab = lazy(() => import('../admin/VendorSettingsTab'));
const RoiRegisterPage = lazy(() => import('../register/RegisterPage'));
const AnalyticsPage = lazy(() => import('../analytics/AnalyticsPage'));
const ConcentrationPage = lazy(() => import('../concentration/ConcentrationPage'));
const OrganizationPage = lazy(() => import('../admin/OrganizationPage'));

/** Every route of the dashboard (docs/dashboard.md). */
export function App() {
  useSessionExpiry();
  return (
    <Suspense fallback={<Loading label="Loading the dashboard…" />}>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/register" element={<RegisterPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route path="/verify-email" element={<VerifyEmailPage />} />
        <Route path="/accept-invitation" element={<AcceptInvitationPage />} />
        <Route path="/vendor-questionnaire" element={<VendorQuestionnairePage />} />
        <Route element={<RequireAuth organization={false} />}>
          <Route path="/onboarding" element={<OnboardingPage />} />
        </Route>
        <Route element={<RequireAuth />}>
          <Route element={<Layout />}>
            <Route index element={<Navigate to="/vendors" replace />} />
            <Route path="/vendors" element={<VendorsPage />} />
            <Route path="/vendors/:slug" element={<VendorPage />}>
              <Route index element={<Navigate to="documents" replace />} />
              <Route path="documents" element={<DocumentsTab />} />
              <Route path="documents/:documentId" element={<DocumentsTab />} />
              <Route path="ask/:conversationId?" element={<AskTab />} />
              <Route path="profile" element={<ProfileTab />} />
              <Route path="assessments" element={<AssessmentsTab />} />
              <Route path="assessments/:assessmentId" element={<AssessmentPage />} />
              <Route path="questionnaires" element={<QuestionnairesTab />} />
              <Route path="questionnaires/:questionnaireId" element={<QuestionnairePage />} />
              <Route path="settings" element={<VendorSettingsTab />} />
            </Route>
            <Route path="/register-of-information" element={<RoiRegisterPage />} />
            <Route path="/concentration" element={<ConcentrationPage />} />
            <Route path="/analytics" element={<AnalyticsPage />} />
            <Route path="/organization" element={<OrganizationPage />} />
            <Route path="/account" element={<AccountPage />} />
            <Route path="/notifications" element={<NotificationsPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Route>
      </Routes>
    </Suspense>
  );
}
