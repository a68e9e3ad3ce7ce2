// What a process runs: the HTTP API, the job worker, or both (`all`, the embedded default). Each role
// reads its settings from the environment; an argument to main (`api`, `worker`) overrides ROLE.
import { Config, Duration, Effect, Layer, Option, Runtime } from "effect"
import { resolve } from "node:path"
import { Transcriber } from "../domain/ports/transcriber.ts"
import { WorkspaceStore } from "../domain/ports/workspace-store.ts"
import { HttpServerLive } from "../adapters/http/server.ts"
import type { BucketRule } from "../adapters/http/token-buckets.ts"
import { DEFAULT_DATA_DIR, DEFAULT_WHISPER_MODEL } from "../adapters/media/whisper-models.ts"
import { DEFAULT_RATE_LIMITS, type RateLimitSettings } from "../adapters/http/token-rate-limits.ts"
import { DEFAULT_REQUEST_LIMITS, type RequestLimitSettings } from "../adapters/http/request-limits.ts"
import packageJson from "../package.json" with { type: "json" }
import { LogFormatConfig } from "./kernel/logging.ts"
import { StartupRefused } from "./app-layer.ts"
import { processMetrics } from "../adapters/telemetry/process-metrics.ts"
import { servePrometheusEndpoint } from "../adapters/telemetry/prometheus-endpoint.ts"
import { randomToken, sha256Hex } from "./kernel/secrets.ts"
import { sampleQueueMetrics } from "./ops/queue/parts/sample-queue-metrics.ts"
import { clearAbandonedScratch } from "./kernel/scratch-space.ts"
import { DEFAULT_FILE_SWEEP_INTERVAL_MS, scheduleFileSweeps } from "./ops/files/sweep-expired-files.job.ts"
import { scheduleOAuthSweeps } from "./ops/oauth/sweep-oauth.job.ts"
import { scheduleMonthlyGrants } from "./ops/plans/grant-monthly-credits.job.ts"
import { createWorkspaceNow } from "./ops/workspaces/create-workspace.ts"
import { makeWorker } from "./worker.ts"

export const ROLES = ["api", "worker", "all"] as const
export type Role = (typeof ROLES)[number]

/** Running jobs get this long to finish after SIGTERM; fly.toml's kill_timeout leaves a margin above it. */
export const DEFAULT_SHUTDOWN_GRACE_SECONDS = 25

const atLeast = (min: number) => (config: Config.Config<number>) =>
  Config.validate(config, { message: `must be at least ${min}`, validation: (n) => n >= min })

/** A per-token budget from its rate and burst settings; a rate of 0 switches it off. */
const rateBudget = (rateName: string, burstName: string, defaults: BucketRule) =>
  Effect.gen(function*() {
    const perSecond = yield* Config.number(rateName).pipe(atLeast(0), Config.withDefault(defaults.perSecond))
    const burst = yield* Config.integer(burstName).pipe(atLeast(1), Config.withDefault(defaults.burst))
    return perSecond === 0 ? null : { perSecond, burst }
  })

export const roleSettings = Effect.gen(function*() {
  const role = yield* Config.literal(...ROLES)("ROLE").pipe(Config.withDefault("all" as const))
  const port = yield* Config.integer("PORT").pipe(Config.withDefault(8080))
  const dataDir = resolve(yield* Config.string("DATA_DIR").pipe(Config.withDefault(DEFAULT_DATA_DIR)))
  const baseUrl = (yield* Config.string("BASE_URL").pipe(Config.withDefault(`http://localhost:${port}`))).replace(/\/+$/, "")
  const devToken = yield* Config.option(Config.string("DEV_API_TOKEN"))
  const givenAdminToken = yield* Config.option(Config.string("ADMIN_TOKEN"))
  const mediaConcurrency = yield* Config.integer("WORKER_CONCURRENCY").pipe(atLeast(1), Config.withDefault(1))
  const webhookConcurrency = yield* Config.integer("WEBHOOK_CONCURRENCY").pipe(atLeast(1), Config.withDefault(4))
  // Shorter leases reclaim a crashed worker's job sooner; they are renewed every third of their length.
  const leaseSeconds = yield* Config.number("JOB_LEASE_SECONDS").pipe(atLeast(1), Config.withDefault(60))
  // Files past their plan's retention answer 410 at once; their bytes go at the next sweep.
  const fileSweepSeconds = yield* Config.number("FILE_SWEEP_INTERVAL_SECONDS").pipe(
    atLeast(60),
    Config.withDefault(DEFAULT_FILE_SWEEP_INTERVAL_MS / 1000)
  )
  const graceSeconds = yield* Config.number("SHUTDOWN_GRACE_SECONDS").pipe(
    atLeast(0),
    Config.withDefault(DEFAULT_SHUTDOWN_GRACE_SECONDS)
  )
  // Off unless set: /metrics has no token, so its port must not be public (fly.toml keeps it private).
  const metricsPort = yield* Config.option(Config.port("METRICS_PORT"))
  const metricsHost = yield* Config.string("METRICS_HOST").pipe(Config.withDefault("127.0.0.1"))
  const rateLimits: RateLimitSettings = {
    reads: yield* rateBudget("RATE_LIMIT_PER_SECOND", "RATE_LIMIT_BURST", DEFAULT_RATE_LIMITS.reads),
    writes: yield* rateBudget("RATE_LIMIT_WRITES_PER_SECOND", "RATE_LIMIT_WRITES_BURST", DEFAULT_RATE_LIMITS.writes)
  }
  const d = DEFAULT_REQUEST_LIMITS
  const requestLimits: RequestLimitSettings = {
    ...d,
    jsonBytes: yield* Config.integer("MAX_JSON_BODY_BYTES").pipe(atLeast(1024), Config.withDefault(d.jsonBytes)),
    formParts: yield* Config.integer("MAX_FORM_PARTS").pipe(atLeast(1), Config.withDefault(d.formParts)),
    headersSeconds: yield* Config.number("HEADERS_TIMEOUT_SECONDS").pipe(atLeast(1), Config.withDefault(d.headersSeconds)),
    bodyIdleSeconds: yield* Config.number("BODY_IDLE_SECONDS").pipe(atLeast(1), Config.withDefault(d.bodyIdleSeconds)),
    bodyMinBytesPerSecond: yield* Config.number("BODY_MIN_BYTES_PER_SECOND").pipe(atLeast(0), Config.withDefault(d.bodyMinBytesPerSecond)),
    maxConnections: yield* Config.integer("MAX_CONNECTIONS").pipe(atLeast(1), Config.withDefault(d.maxConnections))
  }
  return {
    role,
    port,
    dataDir,
    baseUrl,
    workDir: `${dataDir}/work`,
    devToken,
    adminToken: Option.getOrElse(givenAdminToken, () => randomToken("rwadmin_")),
    /** A token made here may be shown at start for local use; one from the environment never is. */
    adminTokenGenerated: Option.isNone(givenAdminToken),
    mediaConcurrency,
    webhookConcurrency,
    leaseSeconds,
    fileSweepSeconds,
    graceSeconds,
    rateLimits,
    requestLimits,
    metrics: Option.map(metricsPort, (p) => ({ port: p, host: metricsHost })),
    logFormat: yield* LogFormatConfig
  }
})

export type RoleSettings = Effect.Effect.Success<typeof roleSettings>

/** What the banner says about the adapters in use. */
export interface StoreDescription {
  readonly inMemory: boolean
  readonly store: string
  readonly blobStore: string
}

/**
 * The development workspace: created at every embedded start (the memory store begins empty); with a
 * database only when DEV_API_TOKEN is set, and then once, found again by its token on later starts.
 */
const devWorkspace = (s: RoleSettings, inMemory: boolean) =>
  Effect.gen(function*() {
    const fresh = (token: Option.Option<string>) =>
      createWorkspaceNow({
        name: "Development",
        ownerEmail: "dev@localhost.localdomain",
        plan: "pro",
        credits: 10_000,
        ...Option.match(token, { onNone: () => ({}), onSome: (t) => ({ token: t }) })
      }).pipe(Effect.map((dev) => Option.some({ ...dev, note: "plan pro, 10000 credits" })))
    if (inMemory) return yield* fresh(s.devToken)
    if (Option.isNone(s.devToken)) return Option.none()
    const token = s.devToken.value
    const existing = yield* (yield* WorkspaceStore).findTokenByHash(sha256Hex(token))
    return yield* Option.match(existing, {
      onNone: () => fresh(s.devToken),
      onSome: (t) => Effect.succeed(Option.some({ workspaceId: t.workspaceId, token, note: "created at an earlier start" }))
    })
  })

const say = (lines: ReadonlyArray<string>) => Effect.sync(() => process.stdout.write(["", ...lines, ""].join("\n") + "\n"))

const storeLines = (d: StoreDescription) => [
  `  Store:          ${d.store}${d.inMemory ? ". Records (workspaces, tokens, videos, credits) do NOT survive a restart." : ""}`,
  `  Blobs:          ${d.blobStore}`
]

const storeFacts = (d: StoreDescription) => ({ store: d.store, blobs: d.blobStore, inMemory: d.inMemory })

/** Which engine captions are made with; pocketsphinx is said plainly to be poor, with the one command that fixes it. */
const POCKETSPHINX_REAL_SPEECH_NOTE = "about half the words wrong on real recordings, bench/recognition.ts"

const captionLine = Effect.map(Transcriber, (t) =>
  t.name === "pocketsphinx"
    ? `  Captions:       pocketsphinx (${t.model}): poor on real speech (${POCKETSPHINX_REAL_SPEECH_NOTE}). For whisper.cpp: npm run models -- pull ${DEFAULT_WHISPER_MODEL}`
    : `  Captions:       ${t.name === "whisper" ? "whisper.cpp" : "an OpenAI-compatible service"} (${t.model})`)

const captionFacts = Effect.map(Transcriber, (t) => ({ captions: { engine: t.name, model: t.model } }))

const budgetText = (name: string, rule: BucketRule | null): string =>
  rule === null ? `${name} unlimited` : `${name} ${rule.perSecond}/s (bursts of ${rule.burst})`

/**
 * The start, logged at info with the role and versions. JSON lines carry every fact the banner shows
 * (no banner: it would not be a JSON line); in the pretty format, for a person, the banner follows.
 */
const announce = (
  s: RoleSettings,
  start: { readonly message: string; readonly facts: Record<string, unknown> },
  details: Record<string, unknown>,
  banner: ReadonlyArray<string>
) => {
  const facts = { role: s.role, ...start.facts, version: packageJson.version, node: process.version }
  return s.logFormat === "json"
    ? Effect.logInfo(start.message).pipe(Effect.annotateLogs({ ...facts, ...details }))
    : Effect.zipRight(Effect.logInfo(start.message).pipe(Effect.annotateLogs(facts)), say(banner))
}

const announceApi = (s: RoleSettings, d: StoreDescription) =>
  Effect.gen(function*() {
    const dev = yield* devWorkspace(s, d.inMemory)
    // Only tokens made here are shown, for local use; one set in the environment is named, never printed.
    const apiToken = Option.isNone(s.devToken) ? Option.map(dev, (w) => w.token) : Option.none()
    const adminToken = s.adminTokenGenerated ? Option.some(s.adminToken) : Option.none()
    yield* announce(
      s,
      { message: `Reelwright is listening on ${s.baseUrl}`, facts: { port: s.port, baseUrl: s.baseUrl } },
      {
        ...Option.match(dev, { onNone: () => ({}), onSome: (w) => ({ devWorkspaceId: w.workspaceId }) }),
        ...Option.match(apiToken, { onNone: () => ({}), onSome: (token) => ({ apiToken: token }) }),
        ...Option.match(adminToken, { onNone: () => ({}), onSome: (token) => ({ adminToken: token }) }),
        dataDir: s.dataDir,
        ...storeFacts(d),
        ...yield* captionFacts,
        rateLimits: s.rateLimits,
        jobs: s.role === "all" ? { media: s.mediaConcurrency, webhooks: s.webhookConcurrency } : "none"
      },
      [
        `  API docs:       ${s.baseUrl}/docs`,
        Option.match(dev, {
          onNone: () => "  API token:      none yet; create a workspace with the CLI (workspace:create)",
          onSome: (w) => `  API token:      ${Option.getOrElse(apiToken, () => "from DEV_API_TOKEN")}   (workspace ${w.workspaceId}, ${w.note})`
        }),
        `  Admin token:    ${Option.match(adminToken, {
          onNone: () => "from ADMIN_TOKEN",
          onSome: (token) => `${token}   (for the CLI: ADMIN_TOKEN=... npm run cli -- ...)`
        })}`,
        `  Files:          ${s.dataDir}`,
        ...storeLines(d),
        yield* captionLine,
        `  Rate limits:    per token, in this process: ${budgetText("reads", s.rateLimits.reads)}, ` +
        budgetText("writes and /mcp", s.rateLimits.writes),
        s.role === "all"
          ? `  Jobs:           run here (media ${s.mediaConcurrency} at once, webhooks ${s.webhookConcurrency})`
          : "  Jobs:           not run here; start worker processes (npm run start:worker)"
      ]
    )
  })

const announceWorker = (s: RoleSettings, d: StoreDescription) =>
  Effect.gen(function*() {
    yield* announce(
      s,
      { message: "Reelwright worker started", facts: {} },
      {
        jobs: { media: s.mediaConcurrency, webhooks: s.webhookConcurrency },
        graceSeconds: s.graceSeconds,
        ...storeFacts(d),
        ...yield* captionFacts
      },
      [
        `  Jobs:           media ${s.mediaConcurrency} at once, webhooks ${s.webhookConcurrency}, ${s.graceSeconds} s grace on shutdown`,
        ...storeLines(d),
        yield* captionLine
      ]
    )
  })

/**
 * Logs the signal that begins a shutdown as it arrives: NodeRuntime turns it into an interruption,
 * which names no signal, and running jobs may take their grace period before anything else is logged.
 */
const logShutdownSignal = (role: Role) =>
  Effect.gen(function*() {
    const runtime = yield* Effect.runtime<never>()
    const log = (signal: NodeJS.Signals) =>
      Runtime.runSync(runtime)(Effect.logInfo("shutting down").pipe(Effect.annotateLogs({ role, signal })))
    yield* Effect.acquireRelease(
      Effect.sync(() => {
        process.once("SIGTERM", log)
        process.once("SIGINT", log)
      }),
      () =>
        Effect.sync(() => {
          process.off("SIGTERM", log)
          process.off("SIGINT", log)
        })
    )
  })

/**
 * Clears the scratch that killed processes left (of jobs no one runs any more), queues this month's
 * credit grant, this period's expired-file sweep and this hour's OAuth sweep (once each, whatever the
 * number of workers), then runs jobs.
 */
const work = (s: RoleSettings) =>
  Effect.all([clearAbandonedScratch, scheduleMonthlyGrants, scheduleFileSweeps(s.fileSweepSeconds * 1000), scheduleOAuthSweeps]).pipe(Effect.zipRight(
    makeWorker({ leaseMs: s.leaseSeconds * 1000, fileSweepIntervalMs: s.fileSweepSeconds * 1000 }).run({
      pollInterval: "1 second",
      concurrency: { media: s.mediaConcurrency, webhooks: s.webhookConcurrency },
      grace: Duration.seconds(s.graceSeconds)
    })
  ))

/**
 * Runs the role until interrupted (SIGTERM/SIGINT through NodeRuntime.runMain). The listener and
 * the worker stop side by side: the server closes at once while running jobs get their grace.
 */
/** METRICS_PORT: /metrics for the process's scope, with the queue's and the process's gauges sampled at each scrape. */
const serveMetrics = (s: RoleSettings) =>
  Option.match(s.metrics, {
    onNone: () => Effect.void,
    onSome: ({ port, host }) =>
      Effect.gen(function*() {
        const sampleProcess = yield* processMetrics
        const url = yield* servePrometheusEndpoint(
          { port, host, serviceName: "reelwright", serviceVersion: packageJson.version },
          Effect.all([sampleProcess, sampleQueueMetrics], { discard: true })
        )
        yield* Effect.logInfo(`metrics at ${url}`).pipe(Effect.annotateLogs({ role: s.role, metricsPort: port }))
      }).pipe(
        // The process does not start without the metrics it was asked for.
        Effect.catchTag("MetricsPortUnavailable", (e) => new StartupRefused({ message: e.message }))
      )
  })

export const runRole = (s: RoleSettings, d: StoreDescription) => {
  const serve = Effect.scoped(
    Effect.gen(function*() {
      yield* Layer.build(HttpServerLive(s.port, s.requestLimits))
      yield* announceApi(s, d)
      return yield* Effect.never
    })
  )
  const run = () => {
    switch (s.role) {
      case "api":
        return serve
      case "worker":
        return Effect.zipRight(announceWorker(s, d), work(s))
      case "all":
        return Effect.all([serve, work(s)], { concurrency: "unbounded", discard: true })
    }
  }
  return Effect.scoped(Effect.all([logShutdownSignal(s.role), serveMetrics(s)], { discard: true }).pipe(Effect.zipRight(run())))
}
