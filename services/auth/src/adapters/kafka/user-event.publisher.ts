import { randomUUID } from 'node:crypto';
import { TOPICS, type EventProducer } from '@ipdata/common';
import { UserEvent, UserEventKind } from '@ipdata/proto/events/v1/user';
import type { Logger } from 'pino';
import type { UserEventInput, UserEventPublisher } from '../../accounts/account.js';
import type { Clock } from '../../shared/clock.js';
import type { MongoOutboxRepository, OutboxEntry } from '../mongo/outbox.repository.js';

/** Entries younger than this are left to the caller's own send, so relay and caller rarely overlap. */
const RELAY_MIN_AGE_MS = 10_000;

/**
 * Publishes on auth.user.v1 (key = account id) through an outbox: the event is written to MongoDB
 * after the domain write, then sent at once; if Kafka is down the call still succeeds and the
 * relay sends it later. An event may rarely be sent twice (sent, then the process died before
 * deleting it): it keeps its id, and consumers de-duplicate on the id. Per-account order is kept:
 * a new event waits while older ones of the same account are pending.
 */
export class OutboxUserEventPublisher implements UserEventPublisher {
  constructor(
    private readonly outbox: MongoOutboxRepository,
    private readonly producer: EventProducer,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async publish(input: UserEventInput): Promise<void> {
    const entry: OutboxEntry = {
      id: randomUUID(),
      accountId: input.account.id,
      kind: input.kind,
      channel: input.account.channel,
      email: input.account.email,
      apiKeyId: input.apiKeyId ?? '',
      eventTime: this.clock.now(),
      createdAt: new Date(),
    };
    await this.outbox.add(entry);
    if (await this.outbox.hasOlder(entry.accountId, entry)) return;
    await this.trySend(entry);
  }

  /** Sends what the immediate path could not; returns how many were sent. */
  async relay(limit = 100, minAgeMs = RELAY_MIN_AGE_MS): Promise<number> {
    let sent = 0;
    const blocked = new Set<string>();
    for (const entry of await this.outbox.pending(new Date(Date.now() - minAgeMs), limit)) {
      // After a failure, later events of the same account wait for the next round.
      if (blocked.has(entry.accountId)) continue;
      if (await this.trySend(entry)) sent++;
      else blocked.add(entry.accountId);
    }
    return sent;
  }

  private async trySend(entry: OutboxEntry): Promise<boolean> {
    const event = UserEvent.fromPartial({
      meta: { id: entry.id, source: 'auth', time: entry.eventTime },
      kind: entry.kind,
      accountId: entry.accountId,
      channel: entry.channel,
      email: entry.email,
      apiKeyId: entry.apiKeyId,
    });
    try {
      await this.producer.send(TOPICS.authUser, event, { key: entry.accountId });
    } catch (error) {
      this.logger.warn(
        { err: error, eventId: entry.id, kind: UserEventKind[entry.kind], accountId: entry.accountId },
        'user event not sent yet, the outbox relay will retry',
      );
      return false;
    }
    await this.outbox.remove(entry.id);
    return true;
  }
}
