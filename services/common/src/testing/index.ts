/**
 * Helpers for integration tests. The test harness (scripts/test/global-setup.ts) starts the
 * real stack and exports its addresses as KAFKA_BROKERS, MONGO_URL and REDIS_URL.
 */
export {
  filesContainingSymbol,
  listServicesByReflection,
  testGrpcEnv,
  testGrpcTls,
  testPkiDir,
  type ReflectedFile,
} from './grpc-identity.js';
export { ManualClock } from './manual-clock.js';
export {
  TopicRecorder,
  rawTopic,
  type RawValue,
  type RecordableTopic,
  type RecordedEvent,
  type TopicRecorderOptions,
} from './topic-recorder.js';
export { grpcCaller, type GrpcCaller } from './grpc-caller.js';
export { mongoUrlWithDatabase, seededRandom, stackAddresses, uniqueName, waitFor, type StackAddresses } from './stack.js';
export { DNS_RCODE, startLocalDnsServer, type LocalDnsEntry, type LocalDnsServer } from './local-dns-server.js';
