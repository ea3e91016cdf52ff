/**
 * One way for every service to handle development secrets (issue 10): `make up` runs with
 * APP_ENV=development and must work without a secrets file, so obviously fake values are filled
 * in there, and only there; everywhere else those values and short secrets are refused.
 */

export const MIN_SECRET_LENGTH = 32;

/**
 * True unless the environment explicitly says development or test: APP_ENV unset counts as
 * production, and NODE_ENV=production (set explicitly) wins over APP_ENV, the same rule as
 * `grpcTransportProblems`.
 */
export function isProductionEnv(source: NodeJS.ProcessEnv): boolean {
  const appEnv = source['APP_ENV'];
  return !(appEnv === 'development' || appEnv === 'test') || source['NODE_ENV'] === 'production';
}

/**
 * The source with development values filled in for variables that are unset or blank, only when
 * APP_ENV=development; any other source is returned unchanged, so production and tests must set
 * every secret themselves. Pass the result to `loadConfig`.
 */
export function withDevelopmentValues(source: NodeJS.ProcessEnv, values: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  if (source['APP_ENV'] !== 'development') return source;
  const filled: NodeJS.ProcessEnv = { ...source };
  for (const [name, value] of Object.entries(values)) {
    const current = source[name];
    if (current === undefined || current.trim() === '') filled[name] = value;
  }
  return filled;
}

export interface WeakSecretRules {
  /** Variables holding secrets that sign, verify or authenticate something. */
  names: readonly string[];
  /** Values that are public (this release's development values and retired ones). */
  developmentValues: Iterable<string>;
  minLength?: number;
  /** `isProductionEnv(source)`: development values are refused only there. */
  production: boolean;
}

/**
 * Problems for `ConfigError`: a secret shorter than `minLength` (32) is refused everywhere (the
 * development values are long enough, so nothing needs a short one), and a secret equal to a
 * development value is refused in production, where it would be known to anyone with the repo.
 * Values are never echoed.
 */
export function weakSecretProblems(config: Readonly<Record<string, unknown>>, rules: WeakSecretRules): string[] {
  const minLength = rules.minLength ?? MIN_SECRET_LENGTH;
  const publicValues = new Set(rules.developmentValues);
  const problems: string[] = [];
  for (const name of rules.names) {
    const value = config[name];
    if (typeof value !== 'string') {
      problems.push(`${name}: missing, expected a secret of at least ${minLength} characters`);
      continue;
    }
    if (value.length < minLength) problems.push(`${name}: expected at least ${minLength} characters`);
    if (rules.production && publicValues.has(value)) {
      problems.push(`${name}: a development value is refused in production (APP_ENV/NODE_ENV)`);
    }
  }
  return problems;
}
