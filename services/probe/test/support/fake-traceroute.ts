import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const FIXTURES = new URL('../fixtures/', import.meta.url);

/** A copy of a stand-in traceroute script in a folder of its own (its pid and argv files go there). */
export function fakeTraceroute(name: 'slow-traceroute.sh' | 'failing-traceroute.sh'): { binary: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'probe-fake-'));
  const binary = join(dir, name);
  copyFileSync(new URL(name, FIXTURES), binary);
  chmodSync(binary, 0o755);
  return { binary, dir };
}

/** The pid a stand-in wrote ("script.pid", "child.pid"), or undefined before it did. */
export function writtenPid(dir: string, file: string): number | undefined {
  const path = join(dir, file);
  if (!existsSync(path)) return undefined;
  const pid = Number(readFileSync(path, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** The argv the stand-in got, one element per line, or undefined when it never ran. */
export function writtenArgv(dir: string): string[] | undefined {
  const path = join(dir, 'argv.txt');
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').slice(0, -1) : undefined;
}

/** Whether a process runs (a zombie waiting for its reaper counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
