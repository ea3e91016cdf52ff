import {
  Server,
  ServerCredentials,
  type ServerUnaryCall,
  type ServiceDefinition,
  type UntypedServiceImplementation,
  type sendUnaryData,
} from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import type { Logger } from 'pino';
import { DeadlineExceededError, isDomainError } from '../errors/domain-errors.js';
import { toGrpcStatus } from '../errors/grpc-status.js';
import type { Component } from '../lifecycle/lifecycle.js';

export interface GrpcServerConfig {
  host?: string;
  port: number;
  /** How long shutdown waits for in-flight calls before cancelling them. */
  drainTimeoutMs?: number;
}

export type UnaryHandler<Req, Res> = (request: Req, call: ServerUnaryCall<Req, Res>) => Promise<Res>;

/**
 * Adapts an async handler to grpc-js: a thrown DomainError becomes its gRPC status, anything
 * else is logged and answered with INTERNAL "internal error" so no detail leaks. A call whose
 * deadline already passed is refused before the handler runs.
 */
export function unary<Req, Res>(logger: Logger, method: string, handler: UnaryHandler<Req, Res>) {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>): void => {
    const deadline = call.getDeadline();
    const deadlineMs = deadline instanceof Date ? deadline.getTime() : Number(deadline);
    if (Number.isFinite(deadlineMs) && deadlineMs > 0 && deadlineMs <= Date.now()) {
      callback(toGrpcStatus(new DeadlineExceededError('deadline exceeded before the call started')), null);
      return;
    }
    handler(call.request, call).then(
      (response) => callback(null, response),
      (error: unknown) => {
        if (isDomainError(error) && error.kind !== 'internal') {
          logger.debug({ method, kind: error.kind, reason: error.reason }, error.message);
        } else {
          logger.error({ method, err: error }, 'gRPC handler failed');
        }
        callback(toGrpcStatus(error), null);
      },
    );
  };
}

/** A gRPC server with the standard health service (grpc.health.v1.Health) on the same port. */
export class GrpcServer implements Component {
  readonly name = 'grpc-server';
  readonly health = new HealthImplementation({ '': 'NOT_SERVING' });
  private readonly server = new Server({ 'grpc.max_receive_message_length': 16 * 1024 * 1024 });
  private readonly serviceNames: string[] = [];
  private port = 0;

  private constructor(
    private readonly config: GrpcServerConfig,
    private readonly logger: Logger,
  ) {
    this.health.addToServer(this.server);
  }

  static fromConfig(config: GrpcServerConfig, logger: Logger): GrpcServer {
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

  async start(): Promise<void> {
    const address = `${this.config.host ?? '0.0.0.0'}:${this.config.port}`;
    this.port = await new Promise<number>((resolve, reject) => {
      this.server.bindAsync(address, ServerCredentials.createInsecure(), (error, port) =>
        error ? reject(new Error(`cannot listen for gRPC on ${address}: ${error.message}`)) : resolve(port),
      );
    });
    this.setServing(true);
    this.logger.info({ port: this.port, services: this.serviceNames }, 'gRPC server listening');
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
