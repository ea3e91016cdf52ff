import type { TraceLimits } from '../traceroute/traceroute-args.js';
import type { TraceHop } from '../traceroute/traceroute-output.parser.js';
import type { ProbeTarget } from './probe-target.js';

/** How a trace ended, as the process runner saw it. */
export type TraceEnd =
  | { kind: 'done' }
  /** The binary is missing or cannot be executed. */
  | { kind: 'unavailable'; detail: string }
  /** It exited with a non-zero code or a signal it did not get from us. */
  | { kind: 'exit'; detail: string }
  /** We killed it: the abort signal fired (timeout or shutdown, see the signal's reason). */
  | { kind: 'aborted' };

/** Runs traceroute (adapters/process). */
export interface Tracer {
  /**
   * Traces `target`, calling `onHop` for every complete hop line as it arrives. Resolves once the
   * child exited (it is killed, with anything it started, when `signal` fires). Never rejects.
   */
  trace(target: ProbeTarget, limits: TraceLimits, onHop: (hop: TraceHop) => void, signal: AbortSignal): Promise<TraceEnd>;
  /** Whether the binary is there and executable (readiness). */
  isAvailable(): Promise<boolean>;
}

/** The task a result belongs to. */
export interface TaskRef {
  taskId: string;
  /** Id of the ProbeTask event: the correlation id of every result of the task. */
  eventId: string;
}

/** Where results go (adapters/kafka: probe.result.v1). Rejects when the record could not be sent. */
export interface ProbeResultSink {
  /** The task runs (first call: no hops yet), with the hops measured since the previous call. */
  running(task: TaskRef, hops: readonly TraceHop[]): Promise<void>;
  done(task: TaskRef): Promise<void>;
  /** `error` is shown to the visitor: short, Chinese, no internals. */
  failed(task: TaskRef, error: string): Promise<void>;
}

/** Texts of FAILED results (shown to visitors, so nothing from the process or the system). */
export const FAILURE_TEXT = {
  invalidTarget: '目标地址无效',
  refusedTarget: '不允许探测内网、本机或保留地址',
  unsupportedKind: '不支持的检测类型',
  expired: '任务已过期，未执行',
  unavailable: '探针暂不可用',
  exit: '探测失败',
  timeout: '探测超时',
  stopped: '探针停止',
} as const;
