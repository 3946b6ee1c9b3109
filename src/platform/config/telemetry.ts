import type { Reader } from './values.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** What the process tells its operators: logs, metrics and traces. */
export interface TelemetrySettings {
  logLevel: (typeof LOG_LEVELS)[number];
  /** Prometheus metrics at /metrics. */
  metricsEnabled: boolean;
  /** OpenTelemetry traces are exported over OTLP/HTTP when set (the SDK is loaded only then). */
  otelEndpoint: string | undefined;
}

export function telemetrySection(read: Reader): TelemetrySettings {
  const logLevel = (read.str('LOG_LEVEL') ?? 'info') as TelemetrySettings['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) read.problem(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  return {
    logLevel,
    metricsEnabled: read.bool('METRICS_ENABLED', true),
    otelEndpoint: read.url('OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:']),
  };
}
