import { Worker } from 'node:worker_threads';
import { AppError } from '../lib/errors.js';
import { corruptFile, documentTooLarge } from './errors.js';
import type { ParsedFile } from './parse.js';
import type { ParseReply, ParseTask } from './parseWorker.js';
import type { ParseLimits } from './types.js';

/**
 * Parsing off the main thread (docs/data-sources.md, "Parsing"). Files are parsed in a
 * small pool of worker threads, each with a heap budget (V8 resource limits) and a time
 * budget per file: a file that needs more memory or time than its budget is refused
 * with 422 `DOCUMENT_TOO_LARGE` naming it, and its worker is replaced. The parsers
 * (pdfjs, mammoth, exceljs) are loaded only inside the workers, on first use; workers
 * are started on demand and leave after a while idle, so an instance that parses
 * nothing holds none of them.
 */
export interface ParsePoolOptions {
  /** Most worker threads at once (files beyond wait in line). */
  size: number;
  /** Time budget of one file in milliseconds. */
  timeoutMs: number;
  /** Heap budget of one worker in MB (V8 old generation). */
  memoryMb: number;
  /** A worker idle this long exits (ms); default 30 s. */
  idleMs?: number;
}

export interface ParseInput {
  content: Buffer;
  filename: string;
  declaredType: string | null;
  limits: ParseLimits;
  /** Aborting gives up the file (its worker is stopped if it is being parsed). */
  signal?: AbortSignal;
  /**
   * Only check the file: the answer carries no blocks (`doc.blocks` empty, `chars` counted), so
   * the main thread does not copy in the text of a file it only vets (an upload's check).
   */
  summary?: boolean;
}

export interface ParsePool {
  parse(input: ParseInput): Promise<ParsedFile>;
  /** Workers running now, and files waiting for one. */
  stats(): { workers: number; busy: number; queued: number };
  /** Stops every worker; files under way or waiting are refused. */
  close(): Promise<void>;
}

interface Task {
  id: number;
  input: ParseInput;
  resolve(parsed: ParsedFile): void;
  reject(err: unknown): void;
  timer?: NodeJS.Timeout;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  task: Task | null;
  idle?: NodeJS.Timeout;
}

const RUNS_AS_TS = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(RUNS_AS_TS ? './parseWorker.ts' : './parseWorker.js', import.meta.url);

/**
 * A worker thread does not inherit the TypeScript loader of the main thread (tsx):
 * when this module runs from source, the worker registers tsx itself, then imports
 * the worker module.
 */
function startWorker(options: ConstructorParameters<typeof Worker>[1]): Worker {
  if (!RUNS_AS_TS) return new Worker(WORKER_URL, options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((t) => { t.register(); return import(${JSON.stringify(WORKER_URL.href)}); });`;
  return new Worker(boot, { ...options, eval: true });
}

export function createParsePool(opts: ParsePoolOptions): ParsePool {
  const slots: Slot[] = [];
  const queue: Task[] = [];
  const idleMs = opts.idleMs ?? 30_000;
  let nextId = 1;
  let closed = false;

  function settle(task: Task) {
    clearTimeout(task.timer);
    if (task.onAbort) task.input.signal?.removeEventListener('abort', task.onAbort);
  }

  /** Ends a worker; its file (if any) is refused with `err`. */
  function retire(slot: Slot, err?: unknown) {
    const i = slots.indexOf(slot);
    if (i >= 0) slots.splice(i, 1);
    clearTimeout(slot.idle);
    const task = slot.task;
    slot.task = null;
    if (task) {
      settle(task);
      task.reject(err ?? corruptFile(task.input.filename, 'the parser stopped unexpectedly'));
    }
    void slot.worker.terminate().catch(() => {});
    pump();
  }

  function spawn(): Slot {
    const worker = startWorker({
      resourceLimits: {
        maxOldGenerationSizeMb: opts.memoryMb,
        maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.floor(opts.memoryMb / 8))),
        stackSizeMb: 4,
      },
      stdout: false,
      stderr: false,
    });
    const slot: Slot = { worker, task: null };
    worker.on('message', (reply: ParseReply) => {
      const task = slot.task;
      if (!task || reply.id !== task.id) return;
      slot.task = null;
      settle(task);
      if (reply.ok) task.resolve(reply.parsed);
      else {
        const e = reply.error;
        task.reject(
          e.statusCode && e.code ? new AppError(e.statusCode, e.code, e.message, e.details) : corruptFile(task.input.filename, e.message.slice(0, 200)),
        );
      }
      rest(slot);
      pump();
    });
    worker.on('error', (err: Error & { code?: string }) => {
      const name = slot.task?.input.filename ?? 'file';
      retire(
        slot,
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? documentTooLarge(name, `parsing it needs more than the ${opts.memoryMb} MB memory budget`)
          : corruptFile(name, `the parser failed: ${err.message.slice(0, 200)}`),
      );
    });
    worker.on('exit', () => {
      if (slots.includes(slot)) retire(slot);
    });
    slots.push(slot);
    return slot;
  }

  /** An idle worker does not keep the process alive, and leaves after `idleMs`. */
  function rest(slot: Slot) {
    slot.worker.unref();
    clearTimeout(slot.idle);
    if (idleMs > 0) slot.idle = setTimeout(() => retire(slot), idleMs).unref();
  }

  function run(slot: Slot, task: Task) {
    clearTimeout(slot.idle);
    slot.task = task;
    slot.worker.ref();
    task.timer = setTimeout(() => {
      if (slot.task === task) retire(slot, documentTooLarge(task.input.filename, `parsing it takes longer than the ${opts.timeoutMs / 1000} s time budget`));
    }, opts.timeoutMs);
    // One copy of the bytes, moved (not copied again) to the worker.
    const content = new Uint8Array(task.input.content);
    const message: ParseTask = {
      id: task.id,
      content,
      filename: task.input.filename,
      declaredType: task.input.declaredType,
      limits: task.input.limits,
      summary: task.input.summary,
    };
    slot.worker.postMessage(message, [content.buffer]);
  }

  function pump() {
    while (queue.length && !closed) {
      const slot = slots.find((s) => !s.task) ?? (slots.length < opts.size ? spawn() : null);
      if (!slot) return;
      run(slot, queue.shift()!);
    }
  }

  return {
    parse(input) {
      return new Promise<ParsedFile>((resolve, reject) => {
        if (closed) return reject(new Error('the parse pool is closed'));
        const { signal } = input;
        if (signal?.aborted) return reject(signal.reason);
        const task: Task = { id: nextId++, input, resolve, reject };
        if (signal) {
          task.onAbort = () => {
            const q = queue.indexOf(task);
            if (q >= 0) {
              queue.splice(q, 1);
              settle(task);
              reject(signal.reason);
              return;
            }
            const slot = slots.find((s) => s.task === task);
            if (slot) retire(slot, signal.reason);
          };
          signal.addEventListener('abort', task.onAbort, { once: true });
        }
        queue.push(task);
        pump();
      });
    },
    stats: () => ({ workers: slots.length, busy: slots.filter((s) => s.task).length, queued: queue.length }),
    async close() {
      closed = true;
      for (const task of queue.splice(0)) {
        settle(task);
        task.reject(new Error('the parse pool is closed'));
      }
      const stopping = slots.splice(0).map((slot) => {
        clearTimeout(slot.idle);
        if (slot.task) {
          settle(slot.task);
          slot.task.reject(new Error('the parse pool is closed'));
          slot.task = null;
        }
        return slot.worker.terminate().catch(() => {});
      });
      await Promise.all(stopping);
    },
  };
}
