/** Reads a V8 .cpuprofile (node --cpu-prof) into its top self-time functions: where the hot path spends its time. */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { repoRoot } from './bench-support.js';

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  readonly function: string;
  readonly where: string;
  readonly self_ms: number;
  readonly self_percent: number;
}

/**
 * Self time per function (summed over every node of the same function and place) and per file,
 * highest first, in percent of the busy time: "(idle)" (the event loop waiting) is left out,
 * "(garbage collector)" and "(program)" (native code outside JS) stay in.
 */
export function topSelfTime(
  file: string,
  count = 10,
): {
  top_self_time: SelfTime[];
  top_files: SelfTime[];
  inclusive_by_part: Array<{ part: string; percent: number }>;
  top_self_by_part: Record<string, SelfTime[]>;
} {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inclusive = new Map<string, number>();
  const byFunction = new Map<string, { name: string; where: string; us: number }>();
  const byFile = new Map<string, { name: string; where: string; us: number }>();
  const byPart = new Map<string, typeof byFile>();
  const add = (totals: typeof byFunction, key: string, name: string, where: string, us: number) => {
    const total = totals.get(key) ?? { name, where, us: 0 };
    total.us += us;
    totals.set(key, total);
  };
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const frame = nodes.get(id)?.callFrame;
    const us = profile.timeDeltas[i] ?? 0;
    if (frame === undefined || frame.functionName === '(idle)') return;
    busy += us;
    const url = frame.url.replace(/^file:\/\//, '');
    const path = url === '' ? '' : url.startsWith(repoRoot) ? relative(repoRoot, url) : url;
    const where = path === '' ? '' : `${path}:${frame.lineNumber + 1}`;
    const name = frame.functionName || '(anonymous)';
    add(byFunction, `${name}@${where}`, name, where, us);
    add(byFile, path || name, path || name, '', us);
    const own = partOf(url);
    if (own !== undefined) {
      if (!byPart.has(own)) byPart.set(own, new Map());
      add(byPart.get(own) as typeof byFile, `${name}@${where}`, name, where, us);
    }
    // Inclusive time per part (package or service folder): each part on the sample's stack once.
    const parts = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const part = partOf(nodes.get(at)?.callFrame.url ?? '');
      if (part !== undefined) parts.add(part);
    }
    for (const part of parts) inclusive.set(part, (inclusive.get(part) ?? 0) + us);
  });
  const top = (totals: typeof byFunction) =>
    [...totals.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, count)
      .map((total) => ({
        function: total.name,
        where: total.where,
        self_ms: Math.round(total.us / 1000),
        self_percent: +((100 * total.us) / Math.max(1, busy)).toFixed(1),
      }));
  const parts = [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, 15);
  return {
    top_self_time: top(byFunction),
    top_files: top(byFile),
    inclusive_by_part: parts.map(([part, us]) => ({ part, percent: +((100 * us) / Math.max(1, busy)).toFixed(1) })),
    // Inside each of the 8 heaviest parts: its own functions' self time (what to tune there).
    top_self_by_part: Object.fromEntries(
      parts
        .slice(0, 8)
        .map(([part]) => [
          part,
          top(byPart.get(part) ?? new Map<string, { name: string; where: string; us: number }>()).slice(0, 5),
        ]),
    ),
  };
}

/** The package (node_modules/<name>) or service folder (services/<svc>/src/<dir>, or dist/<dir> as built) a script URL belongs to. */
function partOf(url: string): string | undefined {
  const path = url.replace(/^file:\/\//, '');
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (module) return module[1];
  const service = /services\/([^/]+)\/(?:src|dist)\/([^/]+)/.exec(path);
  if (service) return `${service[1]}/${service[2]}`;
  return undefined;
}
