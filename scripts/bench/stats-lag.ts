/**
 * stats' consumer lag on the usage ledger while the public API benchmark loads bff-en (issue 12:
 * stats must keep up with bff-en's peak rate). Every `intervalMs` it reads the ledger's end
 * offsets and the stats group's committed offsets; `stop()` waits until the group has caught up
 * (or `drainTimeoutMs` passed) and returns what one JSON line needs: events produced and consumed
 * per second over the window the ledger grew in, the largest lag seen, and how long stats took to
 * catch up after the last event was written. Committed offsets trail what stats has counted by up
 * to one commit: the lag read here is an upper bound.
 */
import type { Admin, Kafka } from 'kafkajs';
import { TOPICS } from '@ipdata/common';

interface Sample {
  at: number;
  end: number;
  committed: number;
}

const round = (value: number, digits = 0) => Math.round(value * 10 ** digits) / 10 ** digits;

export class StatsLagSampler {
  private readonly samples: Sample[] = [];
  private timer: NodeJS.Timeout | undefined;
  private reading: Promise<void> = Promise.resolve();

  private constructor(
    private readonly admin: Admin,
    private readonly groupId: string,
    private readonly intervalMs: number,
  ) {}

  static async start(kafka: Kafka, groupId: string, intervalMs = 250): Promise<StatsLagSampler> {
    const admin = kafka.admin();
    await admin.connect();
    const sampler = new StatsLagSampler(admin, groupId, intervalMs);
    await sampler.sample();
    sampler.timer = setInterval(() => {
      // One read at a time: a slow broker answer must not pile reads up.
      sampler.reading = sampler.reading
        .then(() => sampler.sample())
        .then(
          () => undefined,
          () => undefined,
        );
    }, intervalMs);
    return sampler;
  }

  /** Stops sampling once stats has committed everything written so far; returns the figures. */
  async stop(drainTimeoutMs = 60_000): Promise<Record<string, number>> {
    clearInterval(this.timer);
    await this.reading;
    const deadline = Date.now() + drainTimeoutMs;
    let last = await this.sample();
    while (last.committed < last.end && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, this.intervalMs));
      last = await this.sample();
    }
    await this.admin.disconnect();
    return this.figures();
  }

  private async sample(): Promise<Sample> {
    const topic = TOPICS.usageLookup.name;
    const [ends, [committed]] = await Promise.all([
      this.admin.fetchTopicOffsets(topic),
      this.admin.fetchOffsets({ groupId: this.groupId, topics: [topic] }),
    ]);
    const low = new Map(ends.map((row) => [row.partition, Number(row.low)]));
    const sample: Sample = {
      at: Date.now(),
      end: ends.reduce((sum, row) => sum + Number(row.high), 0),
      // A partition the group has not committed yet counts from its first offset.
      committed: ends.reduce((sum, row) => {
        const offset = Number(committed?.partitions.find((p) => p.partition === row.partition)?.offset ?? -1);
        return sum + (offset >= 0 ? offset : (low.get(row.partition) ?? 0));
      }, 0),
    };
    this.samples.push(sample);
    return sample;
  }

  private figures(): Record<string, number> {
    const first = this.samples[0]!;
    const last = this.samples.at(-1)!;
    // The load comes in bursts (the benchmark interleaves bff-en with servers that write no
    // events): rates are over the intervals the ledger grew in, catch-up is per burst.
    let grownEvents = 0;
    let grownMs = 0;
    const burstEnds: Sample[] = [];
    for (let i = 1; i < this.samples.length; i++) {
      const [before, sample] = [this.samples[i - 1]!, this.samples[i]!];
      if (sample.end > before.end) {
        grownEvents += sample.end - before.end;
        grownMs += sample.at - before.at;
        const next = this.samples[i + 1];
        if (next === undefined || next.end <= sample.end) burstEnds.push(sample);
      }
    }
    const catchUps = burstEnds.map((end) => {
      const caughtUp = this.samples.find((sample) => sample.at >= end.at && sample.committed >= end.end);
      return caughtUp ? caughtUp.at - end.at : Number.POSITIVE_INFINITY;
    });
    return {
      stats_events_produced: last.end - first.end,
      stats_events_committed: last.committed - first.committed,
      stats_produced_per_s_while_loaded: round(grownEvents / Math.max(grownMs / 1000, 0.001)),
      stats_max_lag_events: Math.max(...this.samples.map((sample) => sample.end - sample.committed)),
      stats_lag_at_end: last.end - last.committed,
      // -1: stats had not caught up with a burst when sampling stopped.
      stats_max_catch_up_ms: catchUps.some((ms) => !Number.isFinite(ms)) ? -1 : Math.max(0, ...catchUps),
    };
  }
}
