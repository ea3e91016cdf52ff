/**
 * Checks custom resources (Strimzi's Kafka, KafkaNodePool and KafkaTopic; MongoDB Community's
 * MongoDBCommunity) against their operators' CustomResourceDefinitions, vendored in k8s/crds/.
 * The CRD's openAPIV3Schema becomes a JSON Schema for ajv, made strict the way
 * `kubectl apply --validate=strict` is: a field the schema does not name is an error, unless the
 * schema keeps unknown fields (`x-kubernetes-preserve-unknown-fields`). Without that, the API
 * server would silently drop a misspelt field and the operator would run with its default.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { parseAllDocuments } from 'yaml';

type Schema = Record<string, unknown>;

interface CrdDocument {
  kind: string;
  spec: {
    group: string;
    names: { kind: string };
    versions: Array<{ name: string; served: boolean; schema?: { openAPIV3Schema: Schema } }>;
  };
}

export interface CustomResource {
  apiVersion: string;
  kind: string;
  metadata?: { name?: string };
}

/** The schema with Kubernetes' structural-schema rules spelt out for ajv (see the file comment). */
export function strictSchema(schema: Schema): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isSchema(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, strictSchema(child as Schema)]));
    } else if ((key === 'items' || key === 'additionalProperties' || key === 'not') && isSchema(value)) {
      out[key] = strictSchema(value);
    } else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) {
      out[key] = value.map((child: Schema) => strictSchema(child));
    } else if (key === 'pattern' && typeof value === 'string' && !isJsPattern(value)) {
      // A Go regexp JavaScript cannot compile (prometheus-operator's `(?i)` flags): left to the API server.
    } else {
      out[key] = value;
    }
  }
  if (schema['x-kubernetes-int-or-string'] === true) {
    delete out['type'];
    out['anyOf'] = [{ type: 'integer' }, { type: 'string' }];
  }
  const keepsUnknown = schema['x-kubernetes-preserve-unknown-fields'] === true;
  if (
    schema['type'] === 'object' &&
    isSchema(schema['properties']) &&
    !keepsUnknown &&
    schema['additionalProperties'] === undefined
  ) {
    out['additionalProperties'] = false;
  }
  return out;
}

function isJsPattern(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const keyOf = (resource: CustomResource) => `${resource.apiVersion} ${resource.kind}`;

/** Validators for every served version of the CRDs in `files`, by `<group>/<version> <Kind>`. */
export class CrdSchemas {
  private readonly validators = new Map<string, ValidateFunction>();

  /** The CRDs vendored in `dir` (every `.yaml` file in it; k8s/crds). */
  static inDirectory(dir: string): CrdSchemas {
    return new CrdSchemas(
      readdirSync(dir)
        .filter((name) => name.endsWith('.yaml'))
        .map((name) => join(dir, name)),
    );
  }

  constructor(files: readonly string[]) {
    // Formats (int32, date-time, ...) are not what these checks are for; the API server is lenient with them too.
    const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    for (const file of files) {
      for (const document of parseAllDocuments(readFileSync(file, 'utf8'))) {
        const crd = document.toJS() as CrdDocument;
        if (crd.kind !== 'CustomResourceDefinition') continue;
        for (const version of crd.spec.versions) {
          const schema = version.schema?.openAPIV3Schema;
          if (!version.served || schema === undefined) continue;
          const key = keyOf({ apiVersion: `${crd.spec.group}/${version.name}`, kind: crd.spec.names.kind });
          this.validators.set(key, ajv.compile(strictSchema(schema)));
        }
      }
    }
  }

  /** Whether a CRD of these files serves that apiVersion and kind. */
  covers(resource: CustomResource): boolean {
    return this.validators.has(keyOf(resource));
  }

  /** What the CRD refuses in `resource`, one line per error; empty when it is accepted. */
  errors(resource: CustomResource): string[] {
    const validate = this.validators.get(keyOf(resource));
    if (validate === undefined) return [`no served CRD version for ${keyOf(resource)}`];
    if (validate(resource)) return [];
    return (validate.errors ?? []).map((error) => {
      const extra = (error.params as { additionalProperty?: string }).additionalProperty;
      return `${error.instancePath || '/'} ${error.message ?? error.keyword}${extra === undefined ? '' : `: ${extra}`}`;
    });
  }
}
