import type { Kafka } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { topicEndOffsets } from './topic-offsets.js';

/** A client whose admins answer from a script: one entry per admin, i.e. per attempt. */
function scriptedKafka(answers: (Error | { partition: number; high: string; low: string }[])[]) {
  const admins: { connected: boolean }[] = [];
  const kafka = {
    admin() {
      const answer = answers[admins.length];
      const state = { connected: false };
      admins.push(state);
      return {
        connect: async () => void (state.connected = true),
        disconnect: async () => void (state.connected = false),
        fetchTopicOffsets: async () => {
          if (answer instanceof Error) throw answer;
          return answer;
        },
      };
    },
  } as unknown as Kafka;
  return { kafka, admins };
}

// What kafkajs throws: a KafkaJSProtocolError carrying the protocol error's type and retriable flag.
const notLeader = () =>
  Object.assign(new Error('This server is not the leader for that topic-partition'), {
    type: 'NOT_LEADER_FOR_PARTITION',
    retriable: true,
  });

describe('topicEndOffsets', () => {
  it('asks a new admin (fresh metadata) after "not the leader", and disconnects each', async () => {
    const ends = [{ partition: 0, high: '7', low: '0' }];
    const { kafka, admins } = scriptedKafka([notLeader(), notLeader(), ends]);
    await expect(topicEndOffsets(kafka, 'usage.lookup.v1')).resolves.toEqual(ends);
    expect(admins).toHaveLength(3);
    expect(admins.every((admin) => !admin.connected)).toBe(true);
  });

  it('does not retry an error that is not retriable', async () => {
    const { kafka, admins } = scriptedKafka([new Error('bad topic'), []]);
    await expect(topicEndOffsets(kafka, 'x')).rejects.toThrow('bad topic');
    expect(admins).toHaveLength(1);
  });
});
