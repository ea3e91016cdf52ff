import { randomUUID } from 'node:crypto';
import { rateLimitKey } from '@ipdata/common/ip';
import { InvalidArgumentError, NotFoundError, ResourceExhaustedError, UnavailableError, type Logger } from '@ipdata/common';
import { checkAddress, type CheckedAddress } from '@ipdata/lookup-engine/client';
import { IpInfo, ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import type { CallContext } from '../face-a/face-a-call.js';
import { ipView } from '../lookups/ip-view.js';
import type { IpLookupEngine } from '../lookups/lookup.ports.js';
import { aliveSites, foldProgress, pickSite, type ProbeSiteView, type StoredHop } from './task-progress.js';
import type { ProbeStateStore, ProbeTaskLimiter, ProbeTaskPublisher, TargetResolver } from './traceroute.ports.js';

export const TASK_LIMIT_MSG = '检测任务过于频繁，请稍后再试';
export const PRIVATE_TARGET_MSG = '不允许探测内网、本机或保留地址';
export const NO_SITE_MSG = '暂无可用的探测节点，请稍后再试';
export const TASK_NOT_FOUND_MSG = '检测任务不存在或已过期';

export interface TracerouteOptions {
  /** Private, loopback and other reserved targets allowed (tests, a lab); multicast and :: / 0.0.0.0 never. */
  allowPrivate: boolean;
  maxHops: number;
  /** A task not started by then is dropped by the worker. */
  taskTtlMs: number;
  /** After expiry, how long a started task may still run before it counts as timed out. */
  resultGraceMs: number;
}

export interface TracerouteDeps {
  publisher: ProbeTaskPublisher;
  store: ProbeStateStore;
  limiter: ProbeTaskLimiter;
  resolver: TargetResolver;
  engine: IpLookupEngine;
  logger: Logger;
  now?: () => number;
}

/** Where a hop is, for the map: Chinese names first (ip-view.ts), null where the dataset has nothing. */
export interface HopLocation {
  area: string;
  country: string | null;
  province: string | null;
  city: string | null;
  isp: string | null;
  country_code: string | null;
  latitude: number | null;
  longitude: number | null;
}

const NEVER_PROBED = new Set([ReservedReason.RESERVED_REASON_MULTICAST, ReservedReason.RESERVED_REASON_UNSPECIFIED_ADDRESS]);

/**
 * traceroute_task_add / _get / _site: validates and resolves the target, picks a live probe site,
 * records the task in the shared store and publishes it; answers progress from the store (fed by
 * probe.result.v1, adapters/kafka/probe.result-consumer.ts), each hop looked up for the map.
 */
export class TracerouteService {
  private readonly now: () => number;

  constructor(
    private readonly options: TracerouteOptions,
    private readonly deps: TracerouteDeps,
  ) {
    this.now = deps.now ?? Date.now;
  }

  async add(context: CallContext, input: { ip?: CheckedAddress; domain?: string; site?: string }) {
    if (input.ip !== undefined && input.domain !== undefined) throw new InvalidArgumentError('IP 地址和域名只能填写一个');
    if (input.ip === undefined && input.domain === undefined) throw new InvalidArgumentError('请输入IP 地址或域名');
    const target = input.ip ?? (await this.resolveDomain(input.domain as string));
    this.checkTarget(target);
    const sites = aliveSites(await this.deps.store.heartbeats(), this.now());
    const site = input.site === undefined ? pickSite(sites) : sites.find((alive) => alive.site === input.site);
    if (site === undefined) {
      if (input.site !== undefined) throw new InvalidArgumentError('该探测节点不可用，请选择其他节点');
      throw new UnavailableError(NO_SITE_MSG, { expose: true });
    }
    // Counted only for a task that will be published: bad input costs the visitor nothing.
    const key = rateLimitKey(context.clientIp);
    if (key === undefined) throw new InvalidArgumentError('无法识别您的 IP 地址');
    if (!(await this.deps.limiter.take(key)).allowed) throw new ResourceExhaustedError(TASK_LIMIT_MSG);

    const createdAt = this.now();
    const task = {
      taskId: randomUUID(),
      target: target.text,
      targetInput: input.domain ?? target.text,
      // Always named: a task with an empty site would run once per site (one group per site).
      site: site.site,
      createdAt,
      expiresAt: createdAt + this.options.taskTtlMs,
    };
    // Stored before it is published, so its first results find it.
    await this.deps.store.saveTask(task);
    await this.deps.publisher.publish({ ...task, maxHops: this.options.maxHops, visitorId: context.visitorId });
    return {
      task_id: task.taskId,
      target: task.target,
      target_input: task.targetInput,
      site: site.site,
      site_name: site.name,
      expires_at: new Date(task.expiresAt).toISOString(),
    };
  }

  async get(taskId: string) {
    const stored = await this.deps.store.loadTask(taskId);
    if (stored === undefined) throw new NotFoundError(TASK_NOT_FOUND_MSG);
    const { task } = stored;
    const view = foldProgress(task, stored.progress, this.now(), this.options.resultGraceMs);
    const locations = await this.locate(view.hops);
    return {
      task_id: task.taskId,
      state: view.state,
      error: view.error,
      target: task.target,
      target_input: task.targetInput,
      site: task.site,
      created_at: new Date(task.createdAt).toISOString(),
      expires_at: new Date(task.expiresAt).toISOString(),
      hops: view.hops.map((hop) => ({
        ttl: hop.ttl,
        ip: hop.ip === '' ? null : hop.ip,
        rtt_ms: hop.rttMs,
        sent: hop.sent,
        lost: hop.lost,
        other_ips: hop.otherIps,
        annotations: hop.annotations,
        location: locations.get(hop.ip) ?? null,
      })),
    };
  }

  async sites(): Promise<ProbeSiteView[]> {
    return aliveSites(await this.deps.store.heartbeats(), this.now());
  }

  private async resolveDomain(domain: string): Promise<CheckedAddress> {
    const addresses = await this.deps.resolver.resolve(domain);
    const checked = addresses.map((address) => checkAddress(address)).filter((a): a is CheckedAddress => a !== undefined);
    // Prefer an address that may be probed, so a name with one private record still works.
    const usable = checked.find((address) => this.mayProbe(address)) ?? checked[0];
    if (usable === undefined) throw new InvalidArgumentError('域名没有解析到 IP 地址');
    return usable;
  }

  private mayProbe(address: CheckedAddress): boolean {
    if (address.reserved === ReservedReason.RESERVED_REASON_UNSPECIFIED) return true;
    return this.options.allowPrivate && !NEVER_PROBED.has(address.reserved);
  }

  private checkTarget(address: CheckedAddress): void {
    if (!this.mayProbe(address)) throw new InvalidArgumentError(PRIVATE_TARGET_MSG);
  }

  /**
   * Each distinct hop address once, in parallel; reserved ones without the engine (ip-view's
   * Chinese words). These lookups are neither rate-limited nor usage events: the page polls, and
   * the visitor did not ask for these addresses. A failed lookup leaves that hop without a place.
   */
  private async locate(hops: readonly StoredHop[]): Promise<Map<string, HopLocation>> {
    const addresses = [...new Set(hops.map((hop) => hop.ip).filter((ip) => ip !== ''))];
    const found = await Promise.all(
      addresses.map(async (ip): Promise<[string, HopLocation] | undefined> => {
        const checked = checkAddress(ip);
        if (checked === undefined) return undefined;
        try {
          const info =
            checked.reserved === ReservedReason.RESERVED_REASON_UNSPECIFIED
              ? await this.deps.engine.lookup(checked.text)
              : IpInfo.fromPartial({ ip: checked.text, reserved: checked.reserved });
          const view = ipView(info);
          const { area, country, province, city, isp, country_code, latitude, longitude } = view;
          return [ip, { area, country, province, city, isp, country_code, latitude, longitude }];
        } catch (error) {
          this.deps.logger.warn({ err: error, ip }, 'hop lookup failed');
          return undefined;
        }
      }),
    );
    return new Map(found.filter((entry): entry is [string, HopLocation] => entry !== undefined));
  }
}
