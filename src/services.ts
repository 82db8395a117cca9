import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Mailer } from './lib/mailer.js';
import { authRepository } from './modules/auth/repository.js';
import { authService, type RegisterHook } from './modules/auth/service.js';
import { complianceRepository } from './modules/compliance/repository.js';
import { complianceService } from './modules/compliance/service.js';
import { organizationsRepository } from './modules/organizations/repository.js';
import { organizationsService } from './modules/organizations/service.js';
import { workspacesRepository } from './modules/workspaces/repository.js';
import { workspacesService } from './modules/workspaces/service.js';

/**
 * The composition root: every service, wired once. Modules reach each other through
 * these services, never through another module's tables.
 */
export function createServices(deps: { config: Config; database: Database; mailer: Mailer; signAccessToken(userId: string): string }) {
  const { config, database, mailer } = deps;
  const db = database.db;
  const registerHooks: RegisterHook[] = [];
  const auth = authService({ repo: authRepository(db), mailer, config, signAccessToken: deps.signAccessToken, onRegistered: registerHooks });
  const compliance = complianceService(complianceRepository(db));
  const organizations = organizationsService({ repo: organizationsRepository(db), users: auth, mailer, config });
  // An invited user who registers with the invitation token joins the inviting organization.
  registerHooks.push(async (user, ctx) => {
    await organizations.onRegistered(user, ctx.invitationToken);
  });
  const workspaces = workspacesService({ repo: workspacesRepository(db), orgs: organizations, users: auth });
  return { auth, compliance, organizations, workspaces, registerHooks };
}
export type Services = ReturnType<typeof createServices>;
