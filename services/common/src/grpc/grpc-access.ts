import {
  Metadata,
  ServerInterceptingCall,
  ServerListenerBuilder,
  ResponderBuilder,
  status,
  type ServerInterceptor,
} from '@grpc/grpc-js';
import type { Logger } from 'pino';
import { callerIdentity } from './grpc-tls.js';

/**
 * The service identities the local PKI issues (infra/local/pki.sh) and Kubernetes names its
 * cert-manager Certificates after: every service of the root README's service map, and `operator`,
 * the people's certificate, which policies allow only read-only methods.
 */
export const GRPC_IDENTITIES = [
  'lookup-engine',
  'auth',
  'billing',
  'stats',
  'downloads',
  'content',
  'probe',
  'bff-cn',
  'bff-en',
  'dataset',
  'operator',
] as const;

export type GrpcIdentity = (typeof GRPC_IDENTITIES)[number];

/** Method path (`/ipdata.lookup.v1.LookupService/Lookup`) → the identities allowed to call it. */
export type GrpcAccessPolicy = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * Open to every caller that passed the TLS handshake: health checks (Kubernetes probes use the
 * HTTP /readyz instead, so gRPC health is for operators and load balancers) and reflection, which
 * only describes the contracts that are in the repository anyway.
 */
const OPEN_SERVICES = [
  '/grpc.health.v1.Health/',
  '/grpc.reflection.v1.ServerReflection/',
  '/grpc.reflection.v1alpha.ServerReflection/',
];

/**
 * One service's allow-list, keyed by the generated definition's method keys so that a method
 * added to the .proto does not compile until someone decides who may call it.
 */
export function defineAccessPolicy<D extends Record<string, { path: string }>>(
  definition: D,
  allowed: { readonly [K in keyof D]: readonly GrpcIdentity[] },
): GrpcAccessPolicy {
  const policy = new Map<string, ReadonlySet<string>>();
  for (const [key, method] of Object.entries(definition)) {
    policy.set(method.path, new Set(allowed[key as keyof D]));
  }
  return policy;
}

/** Several services on one server: one policy. */
export function mergeAccessPolicies(...policies: GrpcAccessPolicy[]): GrpcAccessPolicy {
  return new Map(policies.flatMap((policy) => [...policy]));
}

/** The decision for one call: undefined when allowed, else the status to answer with. */
export function accessDecision(
  policy: GrpcAccessPolicy,
  path: string,
  caller: string | undefined,
): { code: status; details: string } | undefined {
  if (caller === undefined) {
    return { code: status.UNAUTHENTICATED, details: 'the client certificate names no caller (Subject CN)' };
  }
  if (OPEN_SERVICES.some((prefix) => path.startsWith(prefix))) return undefined;
  // Default deny: a method missing from the policy is refused like a method the caller may not call.
  if (policy.get(path)?.has(caller)) return undefined;
  return { code: status.PERMISSION_DENIED, details: `caller "${caller}" may not call ${path}` };
}

/**
 * Server interceptor enforcing the policy on the caller named by its TLS client certificate.
 * The refusal happens when the call's metadata arrives, before the request is read or any
 * handler runs; it names the method and the caller's own identity, nothing of the server.
 */
export function accessPolicyInterceptor(policy: GrpcAccessPolicy, logger: Logger): ServerInterceptor {
  return (methodDescriptor, call) => {
    const listener = new ServerListenerBuilder()
      .withOnReceiveMetadata((metadata, next) => {
        const caller = callerIdentity(call.getAuthContext().sslPeerCertificate);
        const refusal = accessDecision(policy, methodDescriptor.path, caller);
        if (refusal === undefined) {
          next(metadata);
          return;
        }
        logger.warn({ method: methodDescriptor.path, caller, peer: call.getPeer() }, 'gRPC call refused by the access policy');
        // The reason trailer lets fromGrpcError rebuild a PermissionDeniedError with a stable reason.
        const trailers = new Metadata();
        trailers.set('x-error-reason', refusal.code === status.PERMISSION_DENIED ? 'caller_not_allowed' : 'caller_unknown');
        call.sendStatus({ code: refusal.code, details: refusal.details, metadata: trailers });
      })
      .build();
    return new ServerInterceptingCall(call, new ResponderBuilder().withStart((next) => next(listener)).build());
  };
}
