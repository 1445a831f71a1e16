/** What trace mode records of each executed step, kept small enough to send back to the client. */
import { isBinaryContent, stringifyBounded } from '../values';

export interface TraceLogLine {
  level: string;
  message: string;
}

export interface TraceStep {
  index: number;
  command: string;
  /** Set for steps run inside a `foreach`: the 0-based iteration. */
  iteration?: number;
  skipped?: boolean;
  params?: Record<string, unknown>;
  input?: unknown;
  output?: unknown;
  durationMs: number;
  logs: TraceLogLine[];
  error?: { code: string; message: string };
}

const MAX_TRACE_VALUE_CHARS = 16 * 1024;

/** A JSON-safe, size-bounded copy of a value for the trace. */
export function traceValue(value: unknown): unknown {
  if (value === undefined) return undefined;
  if (isBinaryContent(value)) return value.toJSON();
  if (value instanceof Uint8Array) return { $binary: true, size: value.byteLength };
  if (typeof value === 'string') {
    return value.length > MAX_TRACE_VALUE_CHARS
      ? `${value.slice(0, MAX_TRACE_VALUE_CHARS)}… (${value.length} characters)`
      : value;
  }
  if (value === null || typeof value !== 'object') return value;
  const json = stringifyBounded(value, MAX_TRACE_VALUE_CHARS);
  if (json.ok) return JSON.parse(json.text) as unknown;
  return json.reason === 'too-large'
    ? { $truncated: true, over: MAX_TRACE_VALUE_CHARS }
    : { $unserializable: json.reason };
}
