import type { SyncSchedule } from '../../db/schema/workspaces.js';
import type { SyncScheduleRepository } from './repository.js';
import type { Log } from '../../domain/log.js';

/**
 * Scheduled syncs (docs/sync-schedule.md). Every `intervalSec` each instance that runs
 * workers calls `tick()`: it reads the workspaces whose `syncSchedule.enabled` is true
 * (not paused), claims those whose last scheduled run is older than `intervalHours`
 * (one conditional UPDATE: exactly one instance wins a due workspace), and queues a
 * sync of every data source and MCP source of each claimed workspace.
 *
 * The scheduler runs outside any request and has no user: it works on plain workspace
 * ids (the targets pass `{ workspaceId }` to the sources' services), and its state is
 * keyed by workspace id, not by a `Scope`.
 */

/** Something a workspace can sync (data sources, MCP sources): queues syncs of all its items. */
export interface SyncTarget {
  name: string;
  syncWorkspace(workspaceId: string): Promise<{ queued: number; errors: string[] }>;
}

export interface TickResult {
  /** Workspaces with an enabled schedule. */
  scheduled: number;
  /** Workspaces this tick claimed (due, and not claimed by another instance). */
  claimed: string[];
  /** Syncs queued (or already queued) for the claimed workspaces. */
  queued: number;
  errors: string[];
}

/** Scheduled syncs of the workspaces. */
export interface SyncScheduleService {
  /** One scheduler pass (tests call it directly instead of waiting); concurrent calls in one process share a pass. */
  tick(): Promise<TickResult>;
  /** Starts ticking every `intervalSec` (first tick after one interval). */
  start(intervalSec: number): void;
  /** Stops ticking, waiting for a pass under way. */
  stop(): Promise<void>;
  /** The last scheduled run of a workspace, or null when it never ran. */
  state(workspaceId: string): Promise<{ lastRunAt: Date | null; lastRunSources: number; lastRunErrors: string[] } | null>;
}

export function syncScheduleService(deps: {
  repo: SyncScheduleRepository;
  workspaces: { withScheduleEnabled(): Promise<{ id: string; syncSchedule: SyncSchedule }[]> };
  targets: () => SyncTarget[];
  log?: Log;
}): SyncScheduleService {
  const { repo } = deps;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<TickResult> | null = null;

  async function tick(): Promise<TickResult> {
    const scheduled = (await deps.workspaces.withScheduleEnabled()).filter((w) => w.syncSchedule.enabled);
    const claimed = await repo.claimDue(scheduled.map((w) => ({ workspaceId: w.id, intervalHours: w.syncSchedule.intervalHours })));
    let queued = 0;
    const errors: string[] = [];
    for (const workspaceId of claimed) {
      let n = 0;
      const errs: string[] = [];
      for (const target of deps.targets()) {
        try {
          const r = await target.syncWorkspace(workspaceId);
          n += r.queued;
          errs.push(...r.errors);
        } catch (err) {
          errs.push(`${target.name}: ${(err as Error).message}`);
        }
      }
      await repo.record(workspaceId, n, errs).catch((err) => deps.log?.error({ err, workspaceId }, 'sync scheduler: could not record the run'));
      queued += n;
      errors.push(...errs.map((e) => `${workspaceId}: ${e}`));
    }
    if (claimed.length) deps.log?.info?.({ claimed: claimed.length, queued, errors: errors.length }, 'scheduled syncs queued');
    return { scheduled: scheduled.length, claimed, queued, errors };
  }

  const service: SyncScheduleService = {
    /** One scheduler pass (tests call it directly instead of waiting). Concurrent calls in one process share a pass. */
    async tick(): Promise<TickResult> {
      running ??= tick().finally(() => {
        running = null;
      });
      return running;
    },

    /** Starts ticking every `intervalSec` (first tick after one interval). */
    start(intervalSec: number) {
      if (timer || intervalSec <= 0) return;
      timer = setInterval(() => {
        service.tick().catch((err) => deps.log?.error({ err }, 'sync scheduler tick failed'));
      }, intervalSec * 1000);
      timer.unref();
    },

    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => {});
    },

    state: (workspaceId) => repo.state(workspaceId),
  };
  return service;
}
