import { z } from 'zod';

/**
 * One environment variable: how to parse it, what a valid value looks like (for the start-up
 * error message) and whether it is a secret (never echoed, redacted when config is logged).
 */
export interface EnvVar<T> {
  readonly schema: z.ZodType<T>;
  readonly expected: string;
  readonly secret: boolean;
  readonly defaultValue: string | undefined;
}

function envVar<T>(schema: z.ZodType<T>, expected: string, defaultValue?: string): EnvVar<T> {
  return { schema, expected, secret: false, defaultValue };
}

const hostPort = /^[A-Za-z0-9.-]+:\d{1,5}$/;

export const env = {
  string(options: { default?: string; expected?: string } = {}): EnvVar<string> {
    return envVar(z.string().trim().min(1), options.expected ?? 'a non-empty string', options.default);
  },

  /** Comma-separated values, possibly none (default: empty): `TRUSTED_PROXIES=10.0.0.0/8,10.1.0.0/16`. */
  /** A DNS domain name such as a cookie's Domain ("example.com"); '' allowed (= none). */
  domainName(options: { default?: string; expected?: string } = {}): EnvVar<string> {
    const name = /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
    return envVar(
      z
        .string()
        .trim()
        .refine((text) => text === '' || name.test(text)),
      options.expected ?? 'a domain name such as example.com, or empty',
      options.default,
    );
  },
  list(options: { default?: string; expected?: string } = {}): EnvVar<string[]> {
    return envVar(
      z.string().transform((text) =>
        text
          .split(',')
          .map((item) => item.trim())
          .filter((item) => item.length > 0),
      ),
      options.expected ?? 'a comma-separated list (may be empty)',
      options.default ?? '',
    );
  },

  port(defaultPort?: number): EnvVar<number> {
    return envVar(
      z.coerce.number().int().min(0).max(65535),
      'a TCP port number (0-65535)',
      defaultPort === undefined ? undefined : String(defaultPort),
    );
  },

  int(options: { min?: number; max?: number; default?: number } = {}): EnvVar<number> {
    const min = options.min ?? Number.MIN_SAFE_INTEGER;
    const max = options.max ?? Number.MAX_SAFE_INTEGER;
    const range = options.min === undefined && options.max === undefined ? '' : ` between ${min} and ${max}`;
    return envVar(
      z.coerce.number().int().min(min).max(max),
      `an integer${range}`,
      options.default === undefined ? undefined : String(options.default),
    );
  },

  /** Positive flag: "true" or "false" (services/README.md: no negative flag names). */
  flag(defaultValue: boolean): EnvVar<boolean> {
    return envVar(
      z.enum(['true', 'false']).transform((value) => value === 'true'),
      '"true" or "false"',
      String(defaultValue),
    );
  },

  oneOf<const V extends readonly [string, ...string[]]>(values: V, defaultValue?: V[number]): EnvVar<V[number]> {
    return envVar(z.enum(values), `one of ${values.join(', ')}`, defaultValue);
  },

  url(protocols: readonly string[], defaultValue?: string): EnvVar<string> {
    const schema = z
      .string()
      .trim()
      .refine((value) => {
        try {
          return protocols.includes(new URL(value).protocol.replace(/:$/, ''));
        } catch {
          return false;
        }
      });
    return envVar(schema, `a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`, defaultValue);
  },

  /** host:port, e.g. a gRPC address. */
  address(defaultValue?: string): EnvVar<string> {
    return envVar(z.string().trim().regex(hostPort), 'host:port', defaultValue);
  },

  /** Comma-separated host:port list, e.g. KAFKA_BROKERS. */
  addressList(defaultValue?: string): EnvVar<string[]> {
    const schema = z
      .string()
      .transform((value) =>
        value
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part.length > 0),
      )
      .pipe(z.array(z.string().regex(hostPort)).min(1));
    return envVar(schema, 'a comma-separated list of host:port', defaultValue);
  },

  /** Marks a variable as secret: its value is never printed and is redacted in logs. */
  secret<T>(inner: EnvVar<T>): EnvVar<T> {
    return { ...inner, secret: true };
  },
};
