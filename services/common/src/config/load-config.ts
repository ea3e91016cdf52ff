import type { EnvVar } from './env-vars.js';

export type EnvSchema = Record<string, EnvVar<unknown>>;

export type ConfigOf<S extends EnvSchema> = { readonly [K in keyof S]: S[K] extends EnvVar<infer T> ? T : never };

/**
 * A configuration file (plan catalogue, contacts, seeds, ...) is wrong: one error naming the file
 * and every problem at once, so an operator fixes them in one go. Subclasses name the kind.
 */
export class ConfigFileError extends Error {
  constructor(
    what: string,
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(
      `invalid ${what} ${source} (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n  ${problems.join('\n  ')}`,
    );
    this.name = 'ConfigFileError';
  }
}

/** Start-up fails with one ConfigError naming every bad variable and what was expected. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses every variable of the schema from `source` at once and returns a frozen config.
 * Empty strings count as unset, so `FOO=` in a .env file falls back to the default.
 */
export function loadConfig<S extends EnvSchema>(schema: S, source: NodeJS.ProcessEnv = process.env): ConfigOf<S> {
  const problems: string[] = [];
  const config: Record<string, unknown> = {};
  for (const [name, variable] of Object.entries(schema)) {
    const raw = source[name];
    const value = raw === undefined || raw.trim() === '' ? variable.defaultValue : raw;
    if (value === undefined) {
      problems.push(`${name}: missing, expected ${variable.expected}`);
      continue;
    }
    const parsed = variable.schema.safeParse(value);
    if (parsed.success) {
      config[name] = parsed.data;
    } else {
      const shown = variable.secret ? '(secret value hidden)' : JSON.stringify(value);
      problems.push(`${name}: got ${shown}, expected ${variable.expected}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config) as ConfigOf<S>;
}

/** The config as it may be logged: secret values replaced. */
export function redactConfig<S extends EnvSchema>(schema: S, config: ConfigOf<S>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(config).map(([name, value]) => [name, schema[name]?.secret ? '[redacted]' : value]));
}

/**
 * For a service's main.ts: runs the config loader and, on a ConfigError, prints its message
 * (every bad variable) as one block on stderr and exits 1, instead of a stack trace.
 */
export function loadConfigOrExit<T>(service: string, load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${service}: ${error.message}\n`);
    process.exit(1);
  }
}
