// /metrics in Prometheus's text format on its own port (METRICS_PORT), never on the API's: it needs no
// token because it is not exposed (on Fly.io the platform scrapes it over the private network, fly.toml's
// [metrics]). The Effect metrics are turned into the text by OpenTelemetry's Prometheus exporter; the
// gauges read from the store or the process are sampled first, at each scrape.
import { Metrics, Resource } from "@effect/opentelemetry"
import { PrometheusExporter } from "@opentelemetry/exporter-prometheus"
import { Data, Effect, Layer, Runtime, type Scope } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

export interface PrometheusEndpointSettings {
  readonly port: number
  readonly host: string
  readonly serviceName: string
  readonly serviceVersion: string
}

/** The port could not be listened on (in use, or not allowed): the operator's to fix. */
export class MetricsPortUnavailable extends Data.TaggedError("MetricsPortUnavailable")<{ readonly message: string }> {}

/** Serves /metrics for the scope; `sample` runs before each scrape. Answers the address it listens on. */
export const servePrometheusEndpoint = <R>(
  settings: PrometheusEndpointSettings,
  sample: Effect.Effect<void, never, R>
): Effect.Effect<string, MetricsPortUnavailable, R | Scope.Scope> =>
  Effect.gen(function*() {
    const exporter = new PrometheusExporter({ preventServerStart: true })
    yield* Layer.buildWithScope(
      Metrics.layer(() => exporter).pipe(
        Layer.provide(Resource.layer({ serviceName: settings.serviceName, serviceVersion: settings.serviceVersion }))
      ),
      yield* Effect.scope
    )
    const runtime = yield* Effect.runtime<R>()
    const server = createServer((request, response) => {
      if (request.method !== "GET" || request.url?.split("?", 1)[0] !== "/metrics") {
        response.writeHead(404, { "content-type": "text/plain" }).end("Only GET /metrics is served here.\n")
        return
      }
      // A sample that fails (the store is away) leaves the gauges at their last values: the scrape still answers.
      Runtime.runCallback(runtime)(Effect.catchAllCause(sample, (cause) => Effect.logWarning("metrics sample failed", cause)), {
        onExit: () => exporter.getMetricsRequestHandler(request, response)
      })
    })
    yield* Effect.acquireRelease(
      Effect.async<void, MetricsPortUnavailable>((resume) => {
        server.once("error", (error) =>
          resume(new MetricsPortUnavailable({ message: `METRICS_PORT ${settings.port} on ${settings.host} could not be listened on: ${error.message}` })))
        server.listen(settings.port, settings.host, () => resume(Effect.void))
      }),
      () =>
        Effect.async<void>((resume) => {
          server.close(() => resume(Effect.void))
        })
    )
    const { address, port } = server.address() as AddressInfo
    return `http://${address.includes(":") ? `[${address}]` : address}:${port}/metrics`
  })
