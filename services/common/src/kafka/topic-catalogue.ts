import { SubscriptionChanged, UsageRollup } from '@ipdata/proto/events/v1/billing';
import { FeedbackReceived } from '@ipdata/proto/events/v1/content';
import { DatasetPublished } from '@ipdata/proto/events/v1/dataset';
import { DownloadRecorded } from '@ipdata/proto/events/v1/downloads';
import { ProbeResult, ProbeTask } from '@ipdata/proto/events/v1/probe';
import { UsageEvent } from '@ipdata/proto/events/v1/usage';
import { UserEvent } from '@ipdata/proto/events/v1/user';
import { SiteVisit } from '@ipdata/proto/events/v1/visit';
import { defineTopic, type TopicDefinition } from './topic-definition.js';

const DAY_MS = 24 * 3600 * 1000;

/**
 * The one topic catalogue. Topic creation (partitions, retention) reads it, and the document
 * for the data team (proto/ipdata/events/v1/TOPICS.md) is tested against it. A topic joins the
 * catalogue together with its event message; every topic gets a `.dlq` twin.
 */
export const TOPICS = {
  usageLookup: defineTopic({
    name: 'usage.lookup.v1',
    eventType: 'ipdata.events.v1.UsageEvent',
    codec: UsageEvent,
    partitions: 12,
    retentionMs: 30 * DAY_MS,
    key: 'api key id, or visitor id for anonymous lookups',
    producers: ['bff-en', 'bff-cn'],
    consumers: ['stats'],
    description: 'One event per accepted lookup; the usage ledger behind quotas, rollups, invoices and trends.',
  }),
  usageRollup: defineTopic({
    name: 'usage.rollup.v1',
    eventType: 'ipdata.events.v1.UsageRollup',
    codec: UsageRollup,
    partitions: 6,
    retentionMs: 400 * DAY_MS,
    key: 'account id',
    producers: ['stats'],
    consumers: ['billing'],
    description: 'Accepted lookups per account (and key) per hour, day and month; closed months are invoiced.',
  }),
  siteVisit: defineTopic({
    name: 'site.visit.v1',
    eventType: 'ipdata.events.v1.SiteVisit',
    codec: SiteVisit,
    partitions: 6,
    retentionMs: 30 * DAY_MS,
    key: 'visitor id',
    producers: ['bff-cn'],
    consumers: ['stats'],
    description: 'One page view of either site; stats counts page views and unique visitors per day and page.',
  }),
  authUser: defineTopic({
    name: 'auth.user.v1',
    eventType: 'ipdata.events.v1.UserEvent',
    codec: UserEvent,
    partitions: 6,
    retentionMs: 90 * DAY_MS,
    key: 'account id',
    producers: ['auth'],
    consumers: ['billing', 'bff-en', 'content'],
    description: 'Account registered, activated, updated; API keys created, rotated, revoked.',
  }),
  billingSubscription: defineTopic({
    name: 'billing.subscription.v1',
    eventType: 'ipdata.events.v1.SubscriptionChanged',
    codec: SubscriptionChanged,
    partitions: 6,
    retentionMs: 400 * DAY_MS,
    key: 'account id',
    producers: ['billing'],
    consumers: ['auth', 'downloads', 'bff-en', 'stats', 'content'],
    description: 'An account plan changed (created, upgraded, downgraded, canceled, renewed), with its limits and period.',
  }),
  datasetPublished: defineTopic({
    name: 'dataset.published.v1',
    eventType: 'ipdata.events.v1.DatasetPublished',
    codec: DatasetPublished,
    partitions: 1,
    retentionMs: 90 * DAY_MS,
    key: 'dataset version',
    producers: ['dataset'],
    consumers: ['lookup-engine', 'downloads'],
    description: 'A new dataset version is built and its files are in place.',
  }),
  downloadsRecorded: defineTopic({
    name: 'downloads.recorded.v1',
    eventType: 'ipdata.events.v1.DownloadRecorded',
    codec: DownloadRecorded,
    partitions: 3,
    retentionMs: 400 * DAY_MS,
    key: 'account id',
    producers: ['downloads'],
    consumers: [],
    description: 'An account started downloading a dataset file (once per signed link, when first served).',
  }),
  probeTask: defineTopic({
    name: 'probe.task.v1',
    eventType: 'ipdata.events.v1.ProbeTask',
    codec: ProbeTask,
    partitions: 6,
    retentionMs: 1 * DAY_MS,
    key: 'task id',
    producers: ['bff-cn'],
    consumers: ['probe'],
    description: 'A traceroute or ping a visitor asked for; one probe worker of the site runs it.',
  }),
  probeResult: defineTopic({
    name: 'probe.result.v1',
    eventType: 'ipdata.events.v1.ProbeResult',
    codec: ProbeResult,
    partitions: 6,
    retentionMs: 1 * DAY_MS,
    key: 'task id, or worker id for heartbeats',
    producers: ['probe'],
    consumers: ['bff-cn'],
    description: 'Hops of a running task as they are measured, its end (done or failed), and worker heartbeats.',
  }),
  contentFeedback: defineTopic({
    name: 'content.feedback.v1',
    eventType: 'ipdata.events.v1.FeedbackReceived',
    codec: FeedbackReceived,
    partitions: 3,
    retentionMs: 400 * DAY_MS,
    key: 'submission id',
    producers: ['content'],
    consumers: ['auth'],
    description:
      'Feedback, IP-error and position reports, cooperation requests and contact-form messages, after content stored them.',
  }),
} as const satisfies Record<string, TopicDefinition>;

export const TOPIC_CATALOGUE: readonly TopicDefinition[] = Object.values(TOPICS);
