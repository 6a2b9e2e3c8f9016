// OpenTelemetry's own SDK in memory, for the tests of delivery-sdk/opentelemetry: the spans an
// in-memory exporter got and the metrics an in-memory reader collected.
import { type Attributes, SpanKind } from '@opentelemetry/api';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { DeliveryTelemetry } from '../../src/index.js';
import { type OpenTelemetryOptions, openTelemetry } from '../../src/telemetry/index.js';

/** A span as the tests compare it: name, kind, attributes, status, events, and its children in the order they started. */
export interface SpanNode {
  name: string;
  kind: 'INTERNAL' | 'CLIENT' | 'SERVER' | 'PRODUCER' | 'CONSUMER';
  attributes: Attributes;
  status: 'UNSET' | 'OK' | 'ERROR';
  events: Array<{ name: string; attributes: Attributes | undefined }>;
  children: SpanNode[];
}

/** One data point of a metric: a counter's sum, a histogram's count. */
export interface Point {
  attributes: Attributes;
  value: number;
}

export interface RecordedTelemetry {
  /** `openTelemetry()` over these providers. */
  readonly telemetry: DeliveryTelemetry;
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  /** Every span ended so far. */
  spans(): ReadableSpan[];
  /** The spans ended so far as trees, roots first, each level in the order it started. */
  trees(): SpanNode[];
  /** The points of a metric, collected now. */
  points(name: string): Promise<Point[]>;
  /** The instrumentation scopes of the metrics collected now, as `name@version`. */
  metricScopes(): Promise<string[]>;
}

const KINDS = {
  [SpanKind.INTERNAL]: 'INTERNAL',
  [SpanKind.CLIENT]: 'CLIENT',
  [SpanKind.SERVER]: 'SERVER',
  [SpanKind.PRODUCER]: 'PRODUCER',
  [SpanKind.CONSUMER]: 'CONSUMER',
} as const;
const STATUSES = ['UNSET', 'OK', 'ERROR'] as const;

const startOf = (span: ReadableSpan): number => span.startTime[0] * 1e9 + span.startTime[1];

/** `spans` as trees: a span's parent is the span whose id its parent context names (or none among them: a root). */
export function treesOf(spans: readonly ReadableSpan[]): SpanNode[] {
  const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
  const node = (span: ReadableSpan): SpanNode => ({
    name: span.name,
    kind: KINDS[span.kind],
    attributes: { ...span.attributes },
    status: STATUSES[span.status.code],
    events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
    children: spans
      .filter((child) => child.parentSpanContext?.spanId === span.spanContext().spanId)
      .sort((a, b) => startOf(a) - startOf(b))
      .map(node),
  });
  return spans
    .filter((span) => span.parentSpanContext === undefined || !byId.has(span.parentSpanContext.spanId))
    .sort((a, b) => startOf(a) - startOf(b))
    .map(node);
}

/** Fresh providers with an in-memory span exporter and an in-memory metric reader, and `openTelemetry()` over them. */
export function recordTelemetry(options: Omit<OpenTelemetryOptions, 'tracerProvider' | 'meterProvider'> = {}): RecordedTelemetry {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Never on a timer: the tests flush when they read.
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 2 ** 31 - 1 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    telemetry: openTelemetry({ tracerProvider, meterProvider, ...options }),
    tracerProvider,
    meterProvider,
    spans: () => exporter.getFinishedSpans(),
    trees: () => treesOf(exporter.getFinishedSpans()),
    points: async (name) => {
      await reader.forceFlush();
      const last = metricExporter.getMetrics().at(-1);
      const metric = last?.scopeMetrics.flatMap((scope) => scope.metrics).find((found) => found.descriptor.name === name);
      return (metric?.dataPoints ?? []).map((point) => ({
        attributes: point.attributes,
        value: typeof point.value === 'number' ? point.value : (point.value as { count: number }).count,
      }));
    },
    metricScopes: async () => {
      await reader.forceFlush();
      return (metricExporter.getMetrics().at(-1)?.scopeMetrics ?? []).map(({ scope }) => `${scope.name}@${scope.version}`);
    },
  };
}

/** Every attribute value of every span, event and metric point, as text: what the tests of secrets search. */
export async function everyRecordedValue(recorded: RecordedTelemetry, metricNames: readonly string[]): Promise<string[]> {
  const values: unknown[] = [];
  for (const span of recorded.spans()) {
    values.push(span.name, span.status.message, ...Object.values(span.attributes));
    for (const event of span.events) values.push(event.name, ...Object.values(event.attributes ?? {}));
  }
  for (const name of metricNames)
    for (const point of await recorded.points(name)) values.push(...Object.keys(point.attributes), ...Object.values(point.attributes));
  return values.filter((value) => value !== undefined).map(String);
}
