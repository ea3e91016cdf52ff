import type { Logger } from 'pino';
import {
  moduleLogger,
  OutboxRelay,
  startupStep,
  TOPICS,
  type Clock,
  type Component,
  type EventProducer,
  type MongoConnection,
} from '@ipdata/common';
import { ProducerRunningTotalSender } from '../adapters/kafka/rollup-events.js';
import { MongoClosedRecords, MongoClosingUsage } from '../adapters/mongo/closed-rollups.store.js';
import { MongoClosingStateStore } from '../adapters/mongo/closing-state.store.js';
import type { StatsConfig } from '../config.js';
import type { CountedEvent } from '../ledger/ledger-ports.js';
import { InProcessClosingGate } from './closing-gate.js';
import { HourCloser } from './hour-closer.js';
import { LiveMonthPublisher } from './live-month.publisher.js';

export interface ClosingComponentsDeps {
  connection: MongoConnection['connection'];
  producer: EventProducer;
  /** The live usage_rollups collection name, resolved per call (RollupGeneration.usageCollection). */
  usageCollection: () => string;
  clock: Clock;
  config: Pick<StatsConfig, 'HOUR_CLOSE_DELAY_MS' | 'CLOSE_INTERVAL_MS' | 'LIVE_ROLLUP_INTERVAL_MS'>;
  /** Whether the ledger consumer is consuming now (closing waits while it is not). */
  isLedgerReady: () => boolean;
}

export interface ClosingComponents {
  /** Pass to the ledger handler (ClosingGate). Loaded by `closer.start()`. */
  gate: InProcessClosingGate;
  /** Start-up step: indexes of usage_closed. */
  indexes: Component;
  closer: HourCloser;
  livePublisher: LiveMonthPublisher;
  /** Re-sends closed rollups Kafka did not acknowledge (usage_closed outbox). */
  relay: OutboxRelay;
  /** The ledger handler calls it after each round's writes with the round's counted events. */
  onCounted: (events: readonly CountedEvent[]) => void;
}

/**
 * Closing for billing, wired. Register in this order, after mongo and the producer and BEFORE
 * the ledger consumer (the closer's start loads the gate's boundary): indexes, closer, relay,
 * livePublisher.
 */
export function closingComponents(deps: ClosingComponentsDeps, logger: Logger): ClosingComponents {
  const gate = new InProcessClosingGate();
  const records = new MongoClosedRecords(deps.connection);
  const usage = new MongoClosingUsage(deps.connection, deps.usageCollection);
  const relay = OutboxRelay.fromConfig(
    {
      name: 'usage-closed-outbox',
      collection: records.collection,
      producer: deps.producer,
      topics: [TOPICS.usageRollup],
      intervalMs: deps.config.CLOSE_INTERVAL_MS,
      clock: deps.clock,
    },
    moduleLogger(logger, 'usage-closed-outbox'),
  );
  const closer = new HourCloser(
    { closeDelayMs: deps.config.HOUR_CLOSE_DELAY_MS, intervalMs: deps.config.CLOSE_INTERVAL_MS },
    {
      gate,
      state: new MongoClosingStateStore(deps.connection),
      usage,
      records,
      publisher: { publishPending: (id) => relay.publishPending(id) },
      clock: deps.clock,
      isLedgerReady: deps.isLedgerReady,
    },
    moduleLogger(logger, 'hour-closer'),
  );
  const livePublisher = new LiveMonthPublisher(
    deps.config.LIVE_ROLLUP_INTERVAL_MS,
    { usage, sender: new ProducerRunningTotalSender(deps.producer), clock: deps.clock },
    moduleLogger(logger, 'live-month-rollups'),
  );
  return {
    gate,
    indexes: startupStep('usage-closed-indexes', () => records.createIndexes()),
    closer,
    livePublisher,
    relay,
    onCounted: livePublisher.onCounted,
  };
}
