/**
 * The Kubernetes manifests (k8s/) checked against the code they deploy. k8s/render (run by
 * `make k8s`, built to var/tools/k8s-render) renders each overlay with kustomize and decodes
 * every built-in resource strictly into the Kubernetes API types; this file renders the overlays
 * again with it and checks what only the code knows: ports, every environment variable against
 * the service's own config schema (and that the service's config loader accepts the result),
 * secrets, probes, the gRPC identities and who may reach each gRPC port, the Kafka topics.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ConfigError, TOPICS, topicSpecs, type EnvVar, type GrpcAccessPolicy } from '@ipdata/common';
import { authEnvSchema, loadAuthConfig } from '../../services/auth/src/config.js';
import { authAccessPolicy } from '../../services/auth/src/adapters/grpc/auth.access-policy.js';
import { bffCnEnv, loadBffCnConfig } from '../../services/bff-cn/src/config.js';
import { bffEnEnv, loadBffEnConfig } from '../../services/bff-en/src/config.js';
import { billingEnv, loadBillingConfig } from '../../services/billing/src/config.js';
import { billingAccessPolicy } from '../../services/billing/src/adapters/grpc/billing.access-policy.js';
import { contentEnv, loadContentConfig } from '../../services/content/src/config.js';
import { contentAccessPolicy } from '../../services/content/src/adapters/grpc/content.access-policy.js';
import { downloadsEnv, loadDownloadsConfig } from '../../services/downloads/src/config.js';
import { downloadsAccessPolicy } from '../../services/downloads/src/adapters/grpc/downloads.access-policy.js';
import { loadLookupEngineConfig, lookupEngineEnv } from '../../services/lookup-engine/src/config.js';
import { lookupAccessPolicy } from '../../services/lookup-engine/src/grpc/lookup.access-policy.js';
import { loadProbeConfig, probeEnv } from '../../services/probe/src/config.js';
import { loadStatsConfig, statsEnv } from '../../services/stats/src/config.js';
import { statsAccessPolicy } from '../../services/stats/src/adapters/grpc/stats.access-policy.js';
import { CrdSchemas } from './crd-schemas.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RENDER = join(ROOT, 'var/tools/k8s-render');
const OVERLAYS = ['dev', 'prod'] as const;
type Overlay = (typeof OVERLAYS)[number];

interface ServiceUnderTest {
  readonly env: Readonly<Record<string, EnvVar<unknown>>>;
  readonly load: (source: NodeJS.ProcessEnv) => unknown;
  readonly policy?: GrpcAccessPolicy;
}

const SERVICES: Readonly<Record<string, ServiceUnderTest>> = {
  'lookup-engine': { env: lookupEngineEnv, load: loadLookupEngineConfig, policy: lookupAccessPolicy },
  auth: { env: authEnvSchema, load: loadAuthConfig, policy: authAccessPolicy },
  billing: { env: billingEnv, load: loadBillingConfig, policy: billingAccessPolicy },
  stats: { env: statsEnv, load: loadStatsConfig, policy: statsAccessPolicy },
  downloads: { env: downloadsEnv, load: loadDownloadsConfig, policy: downloadsAccessPolicy },
  content: { env: contentEnv, load: loadContentConfig, policy: contentAccessPolicy },
  probe: { env: probeEnv, load: loadProbeConfig },
  'bff-cn': { env: bffCnEnv, load: loadBffCnConfig },
  'bff-en': { env: bffEnEnv, load: loadBffEnConfig },
};

/** What each overlay's render is expected to refuse, and why (k8s/README.md). */
const REFUSED_AT_START: Readonly<Record<Overlay, Readonly<Record<string, RegExp>>>> = {
  dev: {},
  // The sandbox is the only payment provider built so far, and it is refused in production.
  prod: { billing: /PAYMENT_PROVIDER: "sandbox" .* refused in production/ },
};

// ---- the rendered manifests -------------------------------------------------------------------

interface Resource {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: unknown;
}

interface EnvEntry {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; fieldRef?: { fieldPath: string } };
}

interface Volume {
  name: string;
  secret?: { secretName: string };
  persistentVolumeClaim?: { claimName: string };
}

interface Container {
  image: string;
  args?: string[];
  env?: EnvEntry[];
  ports?: Array<{ name: string; containerPort: number }>;
  readinessProbe?: { httpGet?: unknown };
  livenessProbe?: { httpGet?: unknown };
  securityContext?: Record<string, unknown>;
  volumeMounts?: Array<{ name: string; mountPath: string }>;
}

interface PodSpec {
  containers: Container[];
  volumes?: Volume[];
  securityContext?: { runAsNonRoot?: boolean };
  terminationGracePeriodSeconds?: number;
}

interface WorkloadSpec {
  replicas: number;
  template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
  volumeClaimTemplates?: Array<{ metadata: { name: string } }>;
}

type Workload = Resource & { spec: WorkloadSpec };
type CronJobSpec = { jobTemplate: { spec: { template: { spec: PodSpec } } } };
type ServicePort = { name: string; port: number };

function renderAll(): Record<Overlay, Resource[]> {
  if (!existsSync(RENDER)) throw new Error(`${RENDER} is missing: run make k8s (builds k8s/render with Go)`);
  const out = mkdtempSync(join(tmpdir(), 'ipdata-k8s-'));
  execFileSync(RENDER, ['-out', out, ...OVERLAYS.map((overlay) => join(ROOT, 'k8s/overlays', overlay))], { stdio: 'pipe' });
  const read = (overlay: Overlay) =>
    parseAllDocuments(readFileSync(join(out, `${overlay}.yaml`), 'utf8')).map((doc) => doc.toJS() as Resource);
  return { dev: read('dev'), prod: read('prod') };
}

const RENDERED = renderAll();
const CRDS = CrdSchemas.inDirectory(join(ROOT, 'k8s/crds'));
/** API groups whose resources an operator serves: each must match its vendored CRD. */
const OPERATOR_GROUPS = ['kafka.strimzi.io/', 'mongodbcommunity.mongodb.com/', 'monitoring.coreos.com/'];

/** The one resource of that kind and name; its spec typed as the caller reads it. */
function find<Spec>(resources: Resource[], kind: string, name: string): Resource & { spec: Spec } {
  const found = resources.filter((resource) => resource.kind === kind && resource.metadata.name === name);
  if (found.length !== 1) throw new Error(`expected one ${kind} ${name}, found ${found.length}`);
  return found[0] as Resource & { spec: Spec };
}

function ofKind<Spec>(resources: Resource[], kind: string): Array<Resource & { spec: Spec }> {
  return resources.filter((resource) => resource.kind === kind) as Array<Resource & { spec: Spec }>;
}

function workloadOf(resources: Resource[], service: string): Workload {
  const found = resources.filter(
    (resource) => (resource.kind === 'Deployment' || resource.kind === 'StatefulSet') && resource.metadata.name === service,
  );
  if (found.length !== 1) throw new Error(`expected one Deployment or StatefulSet ${service}, found ${found.length}`);
  return found[0] as Workload;
}

function containerOf(workload: Workload): Container {
  const containers = workload.spec.template.spec.containers;
  if (containers.length !== 1) throw new Error(`${workload.metadata.name}: expected one container, found ${containers.length}`);
  return containers[0] as Container;
}

function envOf(workload: Workload): EnvEntry[] {
  return containerOf(workload).env ?? [];
}

function literal(workload: Workload, name: string): string | undefined {
  return envOf(workload).find((entry) => entry.name === name)?.value;
}

function portsByName(ports: ServicePort[]): Record<string, number> {
  return Object.fromEntries(ports.map((port) => [port.name, port.port]));
}

// ---- the port registry (infra/ports.json) --------------------------------------------------------

interface RegistryService {
  name: string;
  path: string;
  ports: Record<string, number>;
}
const REGISTRY = (JSON.parse(readFileSync(join(ROOT, 'infra/ports.json'), 'utf8')) as { services: RegistryService[] }).services;
const registryPorts = (service: string) => {
  const row = REGISTRY.find((entry) => entry.name === service);
  if (!row) throw new Error(`${service} is not in infra/ports.json`);
  return row.ports;
};

/** A strong stand-in for each Secret key; URLs where the schema wants one. */
const SECRET_STAND_INS: Readonly<Record<string, string>> = {
  MONGO_URL: 'mongodb://ipdata:stand-in@ipdata-mongo-svc:27017/ipdata?replicaSet=ipdata-mongo',
  REDIS_URL: 'rediss://:stand-in@redis.example:6380',
  SMTP_URL: 'smtps://mailer:stand-in@smtp.example:465',
};

/** The environment a pod of the workload starts with: Secrets as stand-ins, /app as this checkout. */
function podEnvironment(workload: Workload): NodeJS.ProcessEnv {
  const source: NodeJS.ProcessEnv = {};
  for (const entry of envOf(workload)) {
    if (entry.valueFrom?.secretKeyRef) {
      const key = entry.valueFrom.secretKeyRef.key;
      source[entry.name] = SECRET_STAND_INS[key] ?? randomBytes(32).toString('base64url');
    } else if (entry.valueFrom?.fieldRef) {
      expect(entry.valueFrom.fieldRef.fieldPath).toBe('metadata.name');
      source[entry.name] = `${workload.metadata.name}-0`;
    } else {
      source[entry.name] = (entry.value ?? '').replace(/^\/app\//, ROOT);
    }
  }
  return source;
}

describe.each(OVERLAYS)('k8s overlay %s', (overlay) => {
  const resources = RENDERED[overlay];

  describe.each(Object.keys(SERVICES))('%s', (service) => {
    const spec = SERVICES[service] as ServiceUnderTest;
    const workload = workloadOf(resources, service);
    const container = containerOf(workload);
    const ports = registryPorts(service);

    it('runs the built service from the platform image, in the namespace of its overlay', () => {
      expect(container.args).toEqual([`services/${service}/dist/main.js`]);
      expect(existsSync(join(ROOT, 'services', service, 'src/main.ts'))).toBe(true);
      expect(container.image).toMatch(/(^|\/)ipdata\/platform:[\w.-]+$/);
      expect(workload.metadata.namespace).toBe(overlay === 'dev' ? 'ipdata-dev' : 'ipdata');
      expect(workload.spec.template.metadata.labels).toMatchObject({
        'app.kubernetes.io/name': service,
        'app.kubernetes.io/part-of': 'ipdata',
      });
    });

    it("sets only variables the service's config schema knows, and every one it requires", () => {
      const names = envOf(workload).map((entry) => entry.name);
      expect(new Set(names).size).toBe(names.length);
      expect(names.filter((name) => !(name in spec.env))).toEqual([]);
      const required = Object.entries(spec.env)
        .filter(([, variable]) => variable.defaultValue === undefined)
        .map(([name]) => name);
      expect(required.filter((name) => !names.includes(name))).toEqual([]);
    });

    it("takes every secret from the service's own Secret, never from a literal", () => {
      for (const entry of envOf(workload)) {
        const secret = spec.env[entry.name]?.secret === true;
        if (secret) expect(entry.valueFrom?.secretKeyRef, entry.name).toEqual({ name: `${service}-secrets`, key: entry.name });
        else expect(entry.valueFrom?.secretKeyRef, entry.name).toBeUndefined();
      }
    });

    it("starts: the service's own config loader accepts the pod's environment", () => {
      const refused = REFUSED_AT_START[overlay][service];
      const load = () => spec.load(podEnvironment(workload));
      if (refused === undefined) {
        expect(load).not.toThrow();
        return;
      }
      expect(load).toThrow(ConfigError);
      expect(load).toThrow(refused);
    });

    it('listens where the port registry says, behind a Service of its name, with its probes on the health port', () => {
      const env = podEnvironment(workload);
      expect(Number(env['HEALTH_PORT'])).toBe(ports['http']);
      const containerPorts = portsByName((container.ports ?? []).map((port) => ({ name: port.name, port: port.containerPort })));
      expect(containerPorts['http']).toBe(ports['http']);
      if (ports['grpc'] !== undefined) {
        expect(Number(env['GRPC_PORT'])).toBe(ports['grpc']);
        expect(env['GRPC_HOST']).toBe('0.0.0.0');
        expect(containerPorts['grpc']).toBe(ports['grpc']);
      }
      if (env['WEBHOOK_PORT'] !== undefined) expect(containerPorts['webhook']).toBe(Number(env['WEBHOOK_PORT']));
      expect(portsByName(find<{ ports: ServicePort[] }>(resources, 'Service', service).spec.ports)).toEqual(containerPorts);
      expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
      expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
    });

    it('is given longer to stop than the service takes to drain, and keeps one replica up in a disruption', () => {
      const drainMs = Number(literal(workload, 'SHUTDOWN_TIMEOUT_MS') ?? spec.env['SHUTDOWN_TIMEOUT_MS']?.defaultValue);
      expect((workload.spec.template.spec.terminationGracePeriodSeconds ?? 30) * 1000).toBeGreaterThan(drainMs);
      const budget = find<{ selector: { matchLabels: Record<string, string> } }>(resources, 'PodDisruptionBudget', service);
      expect(budget.spec.selector.matchLabels).toEqual({
        'app.kubernetes.io/name': service,
      });
    });

    it('runs as a non-root user on a read-only root file system, without privileges', () => {
      expect(workload.spec.template.spec.securityContext?.runAsNonRoot).toBe(true);
      expect(container.securityContext).toMatchObject({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      });
    });

    it('mounts every volume it names, and every claim it names exists', () => {
      const volumes = workload.spec.template.spec.volumes ?? [];
      const templates = (workload.spec.volumeClaimTemplates ?? []).map((template) => template.metadata.name);
      const mounts = (container.volumeMounts ?? []).map((mount) => mount.name);
      expect([...mounts].sort()).toEqual([...volumes.map((volume) => volume.name), ...templates].sort());
      for (const volume of volumes) {
        if (volume.persistentVolumeClaim) find(resources, 'PersistentVolumeClaim', volume.persistentVolumeClaim.claimName);
      }
    });

    if (service !== 'probe') {
      it('has its gRPC identity from cert-manager, mounted where its GRPC_TLS_* variables point', () => {
        const env = podEnvironment(workload);
        const certificate = find<{ usages: string[] }>(resources, 'Certificate', `${service}-grpc`);
        expect(certificate.spec).toMatchObject({
          secretName: `${service}-grpc-tls`,
          commonName: service,
          dnsNames: [service],
          issuerRef: { name: 'ipdata-grpc-ca', kind: 'Issuer' },
        });
        expect(certificate.spec.usages).toEqual(expect.arrayContaining(['server auth', 'client auth']));
        find(resources, 'Issuer', 'ipdata-grpc-ca');
        const volume = (workload.spec.template.spec.volumes ?? []).find(
          (entry) => entry.secret?.secretName === `${service}-grpc-tls`,
        );
        const mount = (container.volumeMounts ?? []).find((entry) => entry.name === volume?.name);
        expect(mount).toBeDefined();
        // cert-manager's Secret keys: ca.crt, tls.crt, tls.key.
        expect([env['GRPC_TLS_CA_FILE'], env['GRPC_TLS_CERT_FILE'], env['GRPC_TLS_KEY_FILE']]).toEqual(
          ['ca.crt', 'tls.crt', 'tls.key'].map((key) => `${mount?.mountPath}/${key}`),
        );
      });
    }

    if (spec.policy !== undefined) {
      it('lets only the callers its gRPC access policy names reach its gRPC port', () => {
        const callers = new Set<string>();
        for (const identities of (spec.policy as GrpcAccessPolicy).values())
          for (const identity of identities) callers.add(identity);
        // operator: a person with the operator certificate, through `kubectl port-forward` (not a pod).
        callers.delete('operator');
        type Peer = { podSelector: { matchLabels: Record<string, string> } };
        const policy = find<{ ingress: Array<{ ports: Array<{ port: string }>; from?: Peer[] }> }>(
          resources,
          'NetworkPolicy',
          service,
        );
        const grpcRules = policy.spec.ingress.filter((rule) => rule.ports.some((port) => port.port === 'grpc'));
        expect(grpcRules).toHaveLength(1);
        const from = grpcRules[0]?.from ?? [];
        expect(from.map((peer) => peer.podSelector.matchLabels['app.kubernetes.io/name']).sort()).toEqual([...callers].sort());
      });
    }
  });

  it('points every gRPC client address at a Service exposing that gRPC port', () => {
    for (const service of Object.keys(SERVICES)) {
      for (const entry of envOf(workloadOf(resources, service)).filter((variable) => variable.name.endsWith('_GRPC_ADDR'))) {
        const [host, port] = (entry.value ?? '').split(':');
        const target = find<{ ports: ServicePort[] }>(resources, 'Service', host ?? '');
        expect(portsByName(target.spec.ports)['grpc'], `${service} ${entry.name}`).toBe(Number(port));
      }
    }
  });

  it("points every KAFKA_BROKERS at the Kafka cluster's bootstrap Service and listener", () => {
    const kafka = ofKind<{ kafka: { listeners: Array<{ port: number }> } }>(resources, 'Kafka');
    expect(kafka).toHaveLength(1);
    const bootstrap = `${kafka[0]?.metadata.name}-kafka-bootstrap:${kafka[0]?.spec.kafka.listeners[0]?.port}`;
    const containers = [
      ...[...ofKind<WorkloadSpec>(resources, 'Deployment'), ...ofKind<WorkloadSpec>(resources, 'StatefulSet')].map(containerOf),
      ...ofKind<CronJobSpec>(resources, 'CronJob').flatMap((job) => job.spec.jobTemplate.spec.template.spec.containers),
    ];
    const brokers = containers.flatMap((item) => (item.env ?? []).filter((entry) => entry.name === 'KAFKA_BROKERS'));
    expect(brokers.length).toBeGreaterThanOrEqual(9);
    for (const entry of brokers) expect(entry.value).toBe(bootstrap);
  });

  it('creates every topic of the catalogue and its .dlq twin with their partitions and retention', () => {
    const topics = ofKind<{ topicName: string; partitions: number; config: Record<string, unknown> }>(
      resources,
      'KafkaTopic',
    ).map((topic) => ({
      name: topic.spec.topicName,
      partitions: topic.spec.partitions,
      retentionMs: Number(topic.spec.config['retention.ms']),
      cluster: topic.metadata.labels?.['strimzi.io/cluster'],
    }));
    const kafkaName = resources.find((resource) => resource.kind === 'Kafka')?.metadata.name;
    const expected = topicSpecs(Object.values(TOPICS)).map((topic) => ({ ...topic, cluster: kafkaName }));
    expect([...topics].sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      [...expected].sort((a, b) => a.name.localeCompare(b.name)),
    );
  });

  it("matches every operator resource (Kafka, node pool, topics, MongoDB, alerting rules) against its operator's CRD, unknown fields refused", () => {
    const custom = resources.filter((resource) => OPERATOR_GROUPS.some((group) => resource.apiVersion.startsWith(group)));
    expect(new Set(custom.map((resource) => resource.kind))).toEqual(
      new Set(['Kafka', 'KafkaNodePool', 'KafkaTopic', 'MongoDBCommunity', 'PrometheusRule']),
    );
    const refused = custom
      .map((resource) => ({ resource: `${resource.kind} ${resource.metadata.name}`, errors: CRDS.errors(resource) }))
      .filter((result) => result.errors.length > 0);
    expect(refused).toEqual([]);
  });

  it('scales the lookup engine and both BFFs on CPU, each HPA aimed at an existing workload', () => {
    type Hpa = { scaleTargetRef: { kind: string; name: string }; minReplicas: number; maxReplicas: number };
    const hpas = ofKind<Hpa>(resources, 'HorizontalPodAutoscaler');
    expect(hpas.map((hpa) => hpa.metadata.name).sort()).toEqual(['bff-cn', 'bff-en', 'lookup-engine']);
    for (const hpa of hpas) {
      const target = workloadOf(resources, hpa.spec.scaleTargetRef.name);
      expect(hpa.spec.scaleTargetRef.kind).toBe(target.kind);
      expect(hpa.spec.minReplicas).toBeLessThanOrEqual(hpa.spec.maxReplicas);
    }
  });

  it('builds the dataset on a schedule into the volume the lookup engine reads', () => {
    const pod = find<CronJobSpec>(resources, 'CronJob', 'dataset-build').spec.jobTemplate.spec.template.spec;
    const job = pod.containers[0];
    expect(job?.args).toEqual(['services/dataset/dist/main.js', '--publish']);
    const datasetsDir = job?.env?.find((entry) => entry.name === 'DATASETS_DIR')?.value;
    const engine = workloadOf(resources, 'lookup-engine');
    expect(literal(engine, 'DATASETS_DIR')).toBe(datasetsDir);
    const claimAt = (spec: PodSpec, container: Container | undefined) => {
      const mount = container?.volumeMounts?.find((entry) => entry.mountPath === datasetsDir);
      return spec.volumes?.find((volume) => volume.name === mount?.name)?.persistentVolumeClaim?.claimName;
    };
    expect(claimAt(pod, job)).toBe('datasets');
    expect(claimAt(engine.spec.template.spec, containerOf(engine))).toBe('datasets');
  });
});

describe('k8s overlays differ where they should', () => {
  it('dev runs one replica of each workload, prod the base replicas with autoscaling', () => {
    for (const service of Object.keys(SERVICES)) {
      expect(workloadOf(RENDERED.dev, service).spec.replicas, service).toBe(1);
    }
    expect(workloadOf(RENDERED.prod, 'bff-en').spec.replicas).toBeGreaterThanOrEqual(2);
    expect(workloadOf(RENDERED.prod, 'lookup-engine').spec.replicas).toBeGreaterThanOrEqual(2);
  });

  it('prod runs no Redis of its own (a managed one, through the REDIS_URL secrets); dev does', () => {
    expect(RENDERED.prod.some((resource) => resource.metadata.name === 'redis')).toBe(false);
    expect(find<WorkloadSpec>(RENDERED.dev, 'StatefulSet', 'redis').spec.replicas).toBe(1);
  });
});
