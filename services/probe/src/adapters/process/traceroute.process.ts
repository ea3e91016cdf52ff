import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import type { Logger } from 'pino';
import { errorText } from '@ipdata/common';
import type { ProbeTarget } from '../../tasks/probe-target.js';
import type { TraceEnd, Tracer } from '../../tasks/task-ports.js';
import { tracerouteArgs, type TraceLimits } from '../../traceroute/traceroute-args.js';
import { LineSplitter, parseHopLine, type TraceHop } from '../../traceroute/traceroute-output.parser.js';

/** What the process gets as its environment: no variable of ours (secrets) reaches it. */
const CHILD_ENV = { LC_ALL: 'C', PATH: '/usr/sbin:/usr/bin:/sbin:/bin' } as const;
/** Bytes of stderr kept for the log line of a failed run. */
const STDERR_KEPT = 2048;

/**
 * Runs Debian's traceroute as a child process: `spawn` with an argv array and `shell: false`
 * (nothing is ever parsed by a shell), the argv from tracerouteArgs only, a fixed minimal
 * environment, stdin closed. The child leads a process group of its own so that killing it
 * (abort: timeout or shutdown) also ends anything it started: SIGKILL to the whole group.
 * stdout is parsed line by line as it arrives; stderr only goes to the log.
 */
export class TracerouteProcess implements Tracer {
  constructor(
    private readonly binary: string,
    private readonly logger: Logger,
  ) {}

  async isAvailable(): Promise<boolean> {
    return access(this.binary, constants.X_OK).then(
      () => true,
      () => false,
    );
  }

  trace(target: ProbeTarget, limits: TraceLimits, onHop: (hop: TraceHop) => void, signal: AbortSignal): Promise<TraceEnd> {
    const args = tracerouteArgs(target, limits);
    return new Promise<TraceEnd>((resolve) => {
      if (signal.aborted) {
        resolve({ kind: 'aborted' });
        return;
      }
      const child = spawn(this.binary, args, {
        shell: false,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: CHILD_ENV,
        detached: true,
        windowsHide: true,
      });
      let spawnError: NodeJS.ErrnoException | undefined;
      let killed = false;
      let stderr = '';
      const lines = new LineSplitter();
      const emit = (line: string) => {
        const hop = parseHopLine(line);
        if (hop !== undefined) onHop(hop);
      };
      const kill = () => {
        killed = true;
        if (child.pid === undefined) return;
        try {
          // Negative pid: the child's process group (it was spawned detached, as its leader).
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      };
      signal.addEventListener('abort', kill, { once: true });

      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => lines.push(chunk).forEach(emit));
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        if (stderr.length < STDERR_KEPT) stderr = (stderr + chunk).slice(0, STDERR_KEPT);
      });
      child.on('error', (error: NodeJS.ErrnoException) => {
        // ENOENT / EACCES at spawn: there is no process; 'close' still follows.
        spawnError = error;
      });
      // 'close': the process exited and its output streams ended (every line was seen).
      child.on('close', (code, exitSignal) => {
        signal.removeEventListener('abort', kill);
        lines.end().forEach(emit);
        if (spawnError !== undefined && child.pid === undefined) {
          this.logger.error({ binary: this.binary, reason: errorText(spawnError) }, 'cannot run traceroute');
          resolve({ kind: 'unavailable', detail: spawnError.code ?? spawnError.message });
          return;
        }
        if (killed) {
          resolve({ kind: 'aborted' });
          return;
        }
        if (code === 0) {
          resolve({ kind: 'done' });
          return;
        }
        const detail = code !== null ? `exit code ${code}` : `signal ${exitSignal ?? '?'}`;
        this.logger.warn({ detail, stderr: stderr.trim() }, 'traceroute failed');
        resolve({ kind: 'exit', detail });
      });
    });
  }
}
