import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { CrdSchemas, strictSchema, type CustomResource } from './crd-schemas.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const crds = CrdSchemas.inDirectory(join(ROOT, 'k8s/crds'));

/** The repo's own resources of that kind, as written in k8s/components. */
function component(file: string, kind: string): CustomResource & { spec: Record<string, unknown> } {
  const found = parseAllDocuments(readFileSync(join(ROOT, 'k8s/components', file), 'utf8'))
    .map((document) => document.toJS() as CustomResource & { spec: Record<string, unknown> })
    .find((resource) => resource.kind === kind);
  if (found === undefined) throw new Error(`no ${kind} in ${file}`);
  return found;
}

const edited = <T>(resource: T, edit: (copy: T) => void): T => {
  const copy = structuredClone(resource);
  edit(copy);
  return copy;
};

describe('CRD schemas (k8s/crds)', () => {
  it('serve the API versions the manifests use', () => {
    for (const [apiVersion, kind] of [
      ['kafka.strimzi.io/v1beta2', 'Kafka'],
      ['kafka.strimzi.io/v1beta2', 'KafkaNodePool'],
      ['kafka.strimzi.io/v1beta2', 'KafkaTopic'],
      ['mongodbcommunity.mongodb.com/v1', 'MongoDBCommunity'],
    ] as const) {
      expect(crds.covers({ apiVersion, kind }), `${apiVersion} ${kind}`).toBe(true);
    }
    expect(crds.covers({ apiVersion: 'kafka.strimzi.io/v1', kind: 'Kafka' })).toBe(false);
  });

  it('accept the components as written', () => {
    expect(crds.errors(component('kafka-strimzi/kafka.yaml', 'Kafka'))).toEqual([]);
    expect(crds.errors(component('kafka-strimzi/kafka.yaml', 'KafkaNodePool'))).toEqual([]);
    expect(crds.errors(component('kafka-strimzi/topics.yaml', 'KafkaTopic'))).toEqual([]);
    expect(crds.errors(component('mongodb-community/mongodb.yaml', 'MongoDBCommunity'))).toEqual([]);
  });

  it('refuse a misspelt field, which the API server would drop without a word', () => {
    const kafka = component('kafka-strimzi/kafka.yaml', 'Kafka');
    const misspelt = edited(kafka, (copy) => {
      const spec = copy.spec['kafka'] as Record<string, unknown>;
      spec['listners'] = spec['listeners'];
      delete spec['listeners'];
    });
    const errors = crds.errors(misspelt);
    expect(errors).toContain('/spec/kafka must NOT have additional properties: listners');
    expect(errors).toContain("/spec/kafka must have required property 'listeners'");
  });

  it('refuse wrong types and values outside an enum', () => {
    const topic = component('kafka-strimzi/topics.yaml', 'KafkaTopic');
    expect(crds.errors(edited(topic, (copy) => (copy.spec['partitions'] = 'twelve')))).toEqual([
      '/spec/partitions must be integer',
    ]);
    const pool = component('kafka-strimzi/kafka.yaml', 'KafkaNodePool');
    expect(crds.errors(edited(pool, (copy) => (copy.spec['roles'] = ['broker', 'zookeeper'])))).toEqual([
      '/spec/roles/1 must be equal to one of the allowed values',
    ]);
    const mongo = component('mongodb-community/mongodb.yaml', 'MongoDBCommunity');
    expect(crds.errors(edited(mongo, (copy) => (copy.spec['type'] = 'Sharded')))).toEqual([
      '/spec/type must be equal to one of the allowed values',
    ]);
  });

  it("keep Kubernetes' own leniencies: int-or-string quantities and fields kept as they are", () => {
    const pool = component('kafka-strimzi/kafka.yaml', 'KafkaNodePool');
    const cpu = (value: unknown) =>
      edited(pool, (copy) => ((copy.spec['resources'] as { requests: Record<string, unknown> }).requests['cpu'] = value));
    expect(crds.errors(cpu(2))).toEqual([]);
    expect(crds.errors(cpu('500m'))).toEqual([]);
    // Kafka's broker config is free-form (x-kubernetes-preserve-unknown-fields): any key passes.
    const kafka = component('kafka-strimzi/kafka.yaml', 'Kafka');
    const config = edited(
      kafka,
      (copy) =>
        (((copy.spec['kafka'] as Record<string, Record<string, unknown>>)['config'] as Record<string, unknown>)[
          'log.retention.hours'
        ] = 24),
    );
    expect(crds.errors(config)).toEqual([]);
  });

  it('makes only named-property objects strict', () => {
    expect(strictSchema({ type: 'object', properties: { a: { type: 'string' } } })).toMatchObject({
      additionalProperties: false,
    });
    expect(strictSchema({ type: 'object', additionalProperties: { type: 'string' } })).not.toHaveProperty(
      'additionalProperties',
      false,
    );
    expect(
      strictSchema({ type: 'object', properties: { a: {} }, 'x-kubernetes-preserve-unknown-fields': true }),
    ).not.toHaveProperty('additionalProperties');
  });
});
