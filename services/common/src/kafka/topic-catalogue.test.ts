import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TOPIC_CATALOGUE } from './topic-catalogue.js';

const DAY_MS = 24 * 3600 * 1000;
const doc = readFileSync(new URL('../../../../proto/ipdata/events/v1/TOPICS.md', import.meta.url), 'utf8');
const protoSources = ['envelope', 'usage', 'dataset', 'user', 'billing', 'visit', 'downloads', 'probe', 'content'].map((name) =>
  readFileSync(new URL(`../../../../proto/ipdata/events/v1/${name}.proto`, import.meta.url), 'utf8'),
);

interface DocRow {
  topic: string;
  partitions: number;
  retentionDays: number;
  key: string;
  value: string;
  producers: string[];
  consumers: string[];
}

function documentedTopics(): DocRow[] {
  return doc
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const cells = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim().replace(/`/g, ''));
      const [topic, partitions, retention, key, value, producers, consumers] = cells as [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
      ];
      // "—" marks a topic nobody consumes yet (downloads.recorded.v1 is for the data team).
      const list = (text: string) =>
        text
          .split(',')
          .map((item) => item.trim())
          .filter((item) => item !== '' && item !== '—');
      return {
        topic,
        partitions: Number(partitions),
        retentionDays: Number(retention),
        key,
        value,
        producers: list(producers),
        consumers: list(consumers),
      };
    });
}

describe('topic catalogue document', () => {
  it('lists exactly the topics of the catalogue, with the same partitions, retention, key, value, producers and consumers', () => {
    const fromCode: DocRow[] = TOPIC_CATALOGUE.map((topic) => ({
      topic: topic.name,
      partitions: topic.partitions,
      retentionDays: topic.retentionMs / DAY_MS,
      key: topic.key,
      value: topic.eventType,
      producers: [...topic.producers],
      consumers: [...topic.consumers],
    }));
    expect(documentedTopics()).toEqual(fromCode);
  });

  it('names value types that exist as messages in the event protos, and versioned topic names', () => {
    for (const topic of TOPIC_CATALOGUE) {
      const message = topic.eventType.replace('ipdata.events.v1.', '');
      expect(protoSources.some((source) => source.includes(`message ${message} {`))).toBe(true);
      expect(topic.name).toMatch(/^[a-z]+(\.[a-z]+)*\.v\d+$/);
      // Every event carries its EventMeta (field 1), which the producer fills in.
      expect(Object.keys(topic.codec.decode(new Uint8Array()))).toContain('meta');
    }
  });
});
