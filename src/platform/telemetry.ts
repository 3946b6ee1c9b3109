import { register } from 'node:module';
import type { Config } from './config.js';

export interface Telemetry {
  /** Flushes spans still buffered, so the last requests before exit are not lost. */
  shutdown(): Promise<void>;
}

/**
 * OpenTelemetry traces over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT (the standard OTEL_* variables,
 * e.g. OTEL_SERVICE_NAME or OTEL_EXPORTER_OTLP_HEADERS, apply too). Loaded only when that is set, and
 * before the modules it instruments: incoming HTTP (REST and /graphql), GraphQL parse/validate/execute of
 * the gateway and every in-process subgraph, PostgreSQL statements and outgoing fetch (upstreams).
 */
export async function startTelemetry(config: Config): Promise<Telemetry> {
  // ESM modules (MikroORM imports pg this way) are only instrumented through the loader hook.
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  // Instrumentation first: the exporter itself loads `http`, which must already be hooked by then.
  const [
    { registerInstrumentations },
    { HttpInstrumentation },
    { GraphQLInstrumentation },
    { PgInstrumentation },
    { UndiciInstrumentation },
  ] = await Promise.all([
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-graphql'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-undici'),
  ]);
  registerInstrumentations({
    instrumentations: [
      // Probes and the metrics scrape every few seconds would bury the traces worth reading.
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => /^\/(healthz|readyz|metrics)\b/.test(request.url ?? ''),
        // The exporter's own calls to the collector are not the service's work.
        ignoreOutgoingRequestHook: () => true,
      }),
      new GraphQLInstrumentation({ mergeItems: true, ignoreTrivialResolveSpans: true }),
      new PgInstrumentation(),
      new UndiciInstrumentation(),
    ],
  });
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
    ]);
  const endpoint = config.otelEndpoint?.replace(/\/+$/, '');
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME ?? 'cipgate' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }))],
  });
  provider.register();
  return { shutdown: () => provider.shutdown() };
}
