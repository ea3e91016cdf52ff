import { performance } from 'node:perf_hooks';
import {
  Server,
  type ServerUnaryCall,
  type ServiceDefinition,
  type UntypedServiceImplementation,
  type sendUnaryData,
} from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import type { Logger } from 'pino';
import { DeadlineExceededError, isDomainError } from '../errors/domain-errors.js';
import { toGrpcStatus } from '../errors/grpc-status.js';
import { rpcServerMetrics } from '../metrics/rpc-metrics.js';
import type { Component } from '../lifecycle/lifecycle.js';
import { accessPolicyInterceptor, type GrpcAccessPolicy } from './grpc-access.js';
import { DEFAULT_MAX_RECEIVE_MESSAGE_BYTES, grpcTransportProblems, type GrpcTls } from './grpc-env.js';
import { addReflection } from './grpc-reflection.js';
import { serverCredentialsFor } from './grpc-tls.js';

export interface GrpcServerConfig {
  /** Interface to bind (GRPC_HOST): 127.0.0.1 locally, 0.0.0.0 in Kubernetes. */
  host: string;
  port: number;
  /** Mutual TLS files, or 'insecure' (APP_ENV development/test only; no caller check). */
  tls: GrpcTls;
  /** Who may call which method; every method not listed is refused (health and reflection are open). */
  policy: GrpcAccessPolicy;
  /** Largest request accepted (GRPC_MAX_RECEIVE_MESSAGE_BYTES); default 1 MiB. */
  maxReceiveMessageBytes?: number;
  /** How long shutdown waits for in-flight calls before cancelling them. */
  drainTimeoutMs?: number;
}

export type UnaryHandler<Req, Res> = (request: Req, call: ServerUnaryCall<Req, Res>) => Promise<Res>;

/**
 * How a handler's failure is logged: domain errors a caller caused (not found, invalid input,
 * ...) at debug, with their kind and reason; anything else at error, with the stack.
 */
export function logHandlerError(logger: Logger, method: string, error: unknown): void {
  if (isDomainError(error) && error.kind !== 'internal') {
    logger.debug({ method, kind: error.kind, reason: error.reason }, error.message);
  } else {
    logger.error({ method, err: error }, 'gRPC handler failed');
  }
}

/**
 * Adapts an async handler to grpc-js: a thrown DomainError becomes its gRPC status, anything
 * else is logged and answered with INTERNAL "internal error" so no detail leaks. A call whose
 * deadline already passed is refused before the handler runs.
 */
export function unary<Req, Res>(logger: Logger, method: string, handler: UnaryHandler<Req, Res>) {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>): void => {
    const startedAt = performance.now();
    const metrics = rpcServerMetrics(call.getPath());
    const deadline = call.getDeadline();
    const deadlineMs = deadline instanceof Date ? deadline.getTime() : Number(deadline);
    if (Number.isFinite(deadlineMs) && deadlineMs > 0 && deadlineMs <= Date.now()) {
      const status = toGrpcStatus(new DeadlineExceededError('deadline exceeded before the call started'));
      metrics.record(status.code ?? 2, performance.now() - startedAt);
      callback(status, null);
      return;
    }
    handler(call.request, call).then(
      (response) => {
        metrics.record(0, performance.now() - startedAt);
        callback(null, response);
      },
      (error: unknown) => {
        logHandlerError(logger, method, error);
        const status = toGrpcStatus(error);
        metrics.record(status.code ?? 2, performance.now() - startedAt);
        callback(status, null);
      },
    );
  };
}

/** An IPv6 host goes in brackets in host:port. */
function hostPart(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * A gRPC server with the standard health service (grpc.health.v1.Health) and reflection on
 * the same port. With mutual TLS, the handshake refuses callers without a certificate of our
 * CA, and the access policy refuses methods the caller's identity (certificate CN) may not call.
 */
export class GrpcServer implements Component {
  readonly name = 'grpc-server';
  readonly health = new HealthImplementation({ '': 'NOT_SERVING' });
  private readonly server: Server;
  private readonly serviceNames: string[] = [];
  private port = 0;

  private constructor(
    private readonly config: GrpcServerConfig,
    private readonly logger: Logger,
  ) {
    this.server = new Server({
      'grpc.max_receive_message_length': config.maxReceiveMessageBytes ?? DEFAULT_MAX_RECEIVE_MESSAGE_BYTES,
      // Without TLS there is no caller identity to check: insecure mode trusts every caller.
      interceptors: config.tls === 'insecure' ? [] : [accessPolicyInterceptor(config.policy, logger)],
    });
    this.health.addToServer(this.server);
  }

  /** Refuses 'insecure' unless APP_ENV is development or test (the same rule as the config check). */
  static fromConfig(config: GrpcServerConfig, logger: Logger): GrpcServer {
    const problems = config.tls === 'insecure' ? grpcTransportProblems({ GRPC_TRANSPORT: 'insecure' }) : [];
    if (problems.length > 0) throw new Error(problems.join('; '));
    return new GrpcServer(config, logger);
  }

  addService(serviceName: string, definition: ServiceDefinition, implementation: UntypedServiceImplementation): this {
    this.server.addService(definition, implementation);
    this.serviceNames.push(serviceName);
    this.health.setStatus(serviceName, 'NOT_SERVING');
    return this;
  }

  get boundPort(): number {
    return this.port;
  }

  /** host:port as bound, e.g. `127.0.0.1:50051`. */
  get boundAddress(): string {
    return `${hostPart(this.config.host)}:${this.port}`;
  }

  async start(): Promise<void> {
    const described = addReflection(this.server, this.serviceNames);
    const credentials = serverCredentialsFor(this.config.tls);
    const address = `${hostPart(this.config.host)}:${this.config.port}`;
    this.port = await new Promise<number>((resolve, reject) => {
      this.server.bindAsync(address, credentials, (error, port) =>
        error ? reject(new Error(`cannot listen for gRPC on ${address}: ${error.message}`)) : resolve(port),
      );
    });
    this.setServing(true);
    const security = this.config.tls === 'insecure' ? 'insecure (no TLS, every caller trusted)' : 'mutual TLS';
    const log = { address: this.boundAddress, security, services: this.serviceNames, reflection: described };
    if (this.config.tls === 'insecure') this.logger.warn(log, 'gRPC server listening without TLS');
    else this.logger.info(log, 'gRPC server listening');
  }

  setServing(serving: boolean): void {
    const status = serving ? 'SERVING' : 'NOT_SERVING';
    this.health.setStatus('', status);
    for (const name of this.serviceNames) this.health.setStatus(name, status);
  }

  async shutdown(): Promise<void> {
    this.setServing(false);
    const drained = new Promise<boolean>((resolve) => this.server.tryShutdown(() => resolve(true)));
    const timeout = new Promise<boolean>((resolve) =>
      setTimeout(() => resolve(false), this.config.drainTimeoutMs ?? 10_000).unref(),
    );
    if (!(await Promise.race([drained, timeout]))) {
      this.logger.warn('in-flight gRPC calls did not finish in time, cancelling them');
      this.server.forceShutdown();
    }
  }
}
