// Traces, when an OpenTelemetry collector is configured: the spans every service method opens
// (withSpan) are sent with OTLP over HTTP (JSON) in batches, and the last batch is flushed at shutdown.
// With no endpoint the tracer is switched off: recording spans nobody reads (their stack traces
// included) would be a large share of a request's CPU time. The variables are OpenTelemetry's own.
import { OtlpSerialization, OtlpTracer } from "@effect/opentelemetry"
import { NodeHttpClient } from "@effect/platform-node"
import { Config, Effect, Layer, Option } from "effect"
import { SamplingRatioConfig, sampledTracer } from "./trace-sampler.ts"

/** `OTEL_EXPORTER_OTLP_HEADERS`: `key=value` pairs separated by commas, values URL-encoded (the specification's form). */
export const parseOtlpHeaders = (text: string): Record<string, string> =>
  Object.fromEntries(
    text.split(",").map((pair) => pair.trim()).filter((pair) => pair.includes("=")).map((pair) => {
      const at = pair.indexOf("=")
      return [pair.slice(0, at).trim().toLowerCase(), decodeURIComponent(pair.slice(at + 1).trim())]
    })
  )

export const TracingConfig = Config.all({
  /** The collector's base URL; `/v1/traces` is added. */
  endpoint: Config.option(Config.nonEmptyString("OTEL_EXPORTER_OTLP_ENDPOINT")),
  /** The full URL for traces, when the collector's differs from the base URL + `/v1/traces`. */
  tracesEndpoint: Config.option(Config.nonEmptyString("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")),
  headers: Config.string("OTEL_EXPORTER_OTLP_HEADERS").pipe(Config.withDefault("")),
  serviceName: Config.nonEmptyString("OTEL_SERVICE_NAME").pipe(Config.withDefault("reelwright")),
  /** How long spans wait before a batch is sent. */
  exportIntervalMs: Config.integer("OTEL_BSP_SCHEDULE_DELAY").pipe(Config.withDefault(5_000)),
  /** The share of new traces recorded (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG); all by default. */
  samplingRatio: SamplingRatioConfig
})

export interface TracingSettings {
  readonly serviceVersion: string
  /** Tells this process's spans from another's of the same service. */
  readonly instanceId: string
}

/** The OTLP tracer when an endpoint is set, else tracing off. */
export const tracingLayer = (settings: TracingSettings) =>
  Layer.unwrapEffect(Effect.map(TracingConfig, (config) => {
    const url = Option.orElse(config.tracesEndpoint, () => Option.map(config.endpoint, (base) => `${base.replace(/\/+$/, "")}/v1/traces`))
    if (Option.isNone(url) || config.samplingRatio === 0) return Layer.setTracerEnabled(false)
    const exporting = OtlpTracer.make({
      url: url.value,
      headers: parseOtlpHeaders(config.headers),
      exportInterval: `${config.exportIntervalMs} millis`,
      resource: {
        serviceName: config.serviceName,
        serviceVersion: settings.serviceVersion,
        attributes: { "service.instance.id": settings.instanceId }
      }
    })
    return Layer.unwrapScoped(Effect.map(exporting, (tracer) => Layer.setTracer(sampledTracer(tracer, config.samplingRatio)))).pipe(
      Layer.provide(OtlpSerialization.layerJson),
      Layer.provide(NodeHttpClient.layerUndici)
    )
  }))
