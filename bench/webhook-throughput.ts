// How fast the worker's webhook lane empties: 1,000 due deliveries (outbox events with their jobs, on a
// scratch PostgreSQL database) to a loopback https receiver, until every one is delivered.
//   ours: the job runner with deliverWebhookJob, 8 loops (each claims batches of jobs and runs them until
//         none is due), at most 8 POSTs at once, through the production transport (verified TLS,
//         connections kept alive per host)
//   ours, memory stores (for information): the same worker with the in-memory stores
//   bare (for information): the same 1,000 signed POSTs with plain node:https, 8 at a time, a new connection each
//   bare with keep-alive: the same over 8 reused connections, as ours
// Each sender runs in a child process, which trusts the test CA through NODE_EXTRA_CA_CERTS (read only at
// start-up) and may reach loopback (OUTBOUND_ALLOW_LOOPBACK=1). The receiver answers 200 from this process.
// Each sender times its second round of DELIVERIES: the first warms it up (see drainTimed), and counts the
// CPU time its process spent on it, a steadier figure than the rate on a machine whose speed moves. Runs alternate
// (BENCH_RUNS rounds, default 1); each figure is their median.
import { randomUUID } from "node:crypto"
import { Agent, request } from "node:https"
import { mkdtemp, rm } from "node:fs/promises"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Layer, LogLevel, Option, Redacted } from "effect"
import { MemoryStoresLive } from "../adapters/memory/memory-layer.ts"
import { OutboundClientLive } from "../adapters/outbound/outbound-client.ts"
import { PgStoresLive } from "../adapters/postgres/pg-layer.ts"
import { tracingLayer } from "../adapters/telemetry/otlp-tracing.ts"
import { HttpsWebhookTransportLive } from "../adapters/webhooks/https-transport.ts"
import { JobQueue } from "../domain/ports/job-queue.ts"
import { Outbox, type OutboxEvent } from "../domain/ports/outbox.ts"
import { WebhookSecretStore } from "../domain/ports/webhook-secret-store.ts"
import { WorkspaceStore } from "../domain/ports/workspace-store.ts"
import { webhookMessage } from "../domain/webhooks.ts"
import { makeJobRunner } from "../src/kernel/job-runner.ts"
import { loggingLayer } from "../src/kernel/logging.ts"
import { ServiceConfig } from "../src/kernel/service-config.ts"
import { DeliverWebhook } from "../src/kernel/job-catalogue.ts"
import { newId, newWebhookSecret } from "../src/kernel/secrets.ts"
import { signWebhook } from "../src/kernel/webhook-signature.ts"
import { WORKER_ID } from "../src/kernel/worker-id.ts"
import { deliverWebhookJob } from "../src/ops/webhooks/deliver-webhook.job.ts"
import { startHttpsReceiver } from "../test/support/https-receiver.ts"
import { createTestTls } from "../test/support/tls.ts"
import { forkBenchChild, tellParent } from "./bench-child.ts"
import { type Figure, isEntryPoint, median, report } from "./figures.ts"
import { createScratchDatabase } from "./scratch-database.ts"

const BENCH = "webhook-throughput"
const DELIVERIES = 1_000
const CONCURRENCY = 8
const SENDER = "webhook-sender"
const SENDERS = ["ours", "ours-memory", "bare", "bare-keepalive"] as const
type Sender = (typeof SENDERS)[number]

/** The receiver's secret path, as a real webhook URL carries one. */
const hookUrl = (receiverUrl: string): string => `${receiverUrl}/hooks/reelwright?key=bench`

/** A video.completed snapshot the size of a real one. */
const snapshot = (id: string, at: string) => ({
  video: {
    id,
    kind: "caption",
    status: "completed",
    step: "completed",
    render: true,
    createdAt: at,
    editorUrl: `https://reelwright.example/editor/${randomUUID().replaceAll("-", "")}`,
    templateId: 1,
    videoUrl: `https://reelwright.example/media/${randomUUID().replaceAll("-", "")}/clip.mp4`,
    thumbnailUrl: `https://reelwright.example/media/${randomUUID().replaceAll("-", "")}/clip.jpg`,
    duration: 61.25,
    width: 1080,
    height: 1920
  }
})

const newEvent = (workspaceId: string, url: string, at: string): OutboxEvent => {
  const subjectId = randomUUID()
  return {
    id: randomUUID(),
    workspaceId,
    name: "video.completed",
    subjectId,
    dedupeKey: `video:${subjectId}:0`,
    payload: snapshot(subjectId, at),
    url,
    createdAt: at,
    state: "pending"
  }
}

/** Stores a signing workspace and its due events with their delivery jobs; returns the events' ids. */
const seed = (url: string) =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const at = new Date(now).toISOString()
    const workspaceId = randomUUID()
    yield* (yield* WorkspaceStore).insert({
      id: workspaceId,
      name: "Bench",
      ownerEmail: "bench@localhost.localdomain",
      plan: "pro",
      byok: false,
      lastTemplateId: null,
      createdAt: at
    })
    const secret = { id: newId(), workspaceId, secret: newWebhookSecret(), createdAt: at, expiresAt: null }
    yield* (yield* WebhookSecretStore).add(secret, 1)
    const outbox = yield* Outbox
    const queue = yield* JobQueue
    return yield* Effect.forEach(Array.from({ length: DELIVERIES }), () => {
      const event = newEvent(workspaceId, url, at)
      return outbox.add(event).pipe(
        Effect.zipRight(queue.enqueue({ lane: "webhooks", kind: DeliverWebhook.kind, payload: { eventId: event.id }, runAt: now, dedupeKey: `deliver:${event.id}` })),
        Effect.as(event.id)
      )
    })
  })

/** Earlier rounds' rows would lengthen every claim's scan. */
const emptyTables = Effect.flatMap(SqlClient.SqlClient, (sql) => sql`TRUNCATE jobs, delivery_attempts, outbox_events`).pipe(Effect.orDie)

interface SenderResult {
  readonly seconds: number
  readonly delivered: number
  /** The sender process's CPU time (user and system) over the timed round, in ms. */
  readonly cpuMs: number
}

/** CPU time since `from`, in ms. */
const cpuMsSince = (from: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(from)
  return (used.user + used.system) / 1000
}

/**
 * The webhook lane of the worker, CONCURRENCY loops (each claims batches and runs them until none is due),
 * CONCURRENCY POSTs at once. An untimed round of DELIVERIES goes first, and `reset` clears what it left: a
 * worker delivers for days, so the figure is its steady pace, not its first second of compiling.
 */
const drainTimed = <R>(receiverUrl: string, reset: Effect.Effect<void, never, R>) =>
  Effect.gen(function*() {
    const runner = makeJobRunner([deliverWebhookJob])
    yield* seed(hookUrl(receiverUrl))
    yield* runner.drain("webhooks", CONCURRENCY)
    yield* reset
    const ids = yield* seed(hookUrl(receiverUrl))
    const started = performance.now()
    const cpu = process.cpuUsage()
    yield* runner.drain("webhooks", CONCURRENCY)
    const cpuMs = cpuMsSince(cpu)
    const seconds = (performance.now() - started) / 1000
    const outbox = yield* Outbox
    const events = yield* Effect.forEach(ids, (id) => outbox.get(id))
    return { seconds, cpuMs, delivered: events.filter(Option.exists((e) => e.state === "delivered")).length }
  })

// The job runner clears each job's scratch folder: deliveries make none, but it needs a work folder. The
// worker's own logger writes its lines (JSON, to the pipe the parent drains), and its tracing is set up
// as the service's: off unless an OTLP endpoint is configured (Effect's default tracer would record
// every span in memory, which the service never does).
const workerServices = Layer.mergeAll(
  HttpsWebhookTransportLive.pipe(Layer.provide(OutboundClientLive)),
  ServiceConfig.layer({ baseUrl: "http://127.0.0.1:1", workDir: join(tmpdir(), `reelwright-bench-${process.pid}`) }),
  loggingLayer({ format: "json", level: LogLevel.Info }),
  tracingLayer({ serviceVersion: "bench", instanceId: WORKER_ID })
)

/** In the child: deliveries through the worker, on PostgreSQL, or in memory when no database is given. */
const sendThroughWorker = (receiverUrl: string, databaseUrl: string): Promise<SenderResult> =>
  Effect.runPromise(
    databaseUrl === ""
      ? drainTimed(receiverUrl, Effect.void).pipe(Effect.provide(Layer.merge(MemoryStoresLive, workerServices)))
      : Effect.zipRight(emptyTables, drainTimed(receiverUrl, emptyTables)).pipe(
        Effect.provide(Layer.merge(PgStoresLive({ url: Redacted.make(databaseUrl) }), workerServices))
      )
  )

/** One POST; resolves with the status once the answer has been read. */
const post = (url: URL, headers: Readonly<Record<string, string>>, body: Buffer, agent: Agent | false): Promise<number> =>
  new Promise((done, fail) => {
    const outgoing = request(url, { method: "POST", agent, headers: { ...headers, "content-length": String(body.length) } }, (response) => {
      response.resume()
      response.once("end", () => done(response.statusCode ?? 0))
      response.once("error", fail)
    })
    outgoing.once("error", fail)
    outgoing.end(body)
  })

/** In the child: the same signed messages with node:https, CONCURRENCY at a time. */
const sendPlain = async (receiverUrl: string, keepAlive: boolean): Promise<SenderResult> => {
  const secret = newWebhookSecret()
  const at = new Date().toISOString()
  const timestamp = Math.floor(Date.now() / 1000)
  const messages = Array.from({ length: DELIVERIES }, () => {
    const event = newEvent(randomUUID(), hookUrl(receiverUrl), at)
    const message = webhookMessage({ ...event, eventId: event.id, timestampSeconds: timestamp })
    const headers = { ...message.headers, "webhook-signature": signWebhook(secret, event.id, timestamp, message.body) }
    return { headers, body: Buffer.from(message.body) }
  })
  const url = new URL(hookUrl(receiverUrl))
  const agent = keepAlive ? new Agent({ keepAlive: true, maxSockets: CONCURRENCY }) : false
  let next = 0
  let delivered = 0
  const loop = async () => {
    while (next < messages.length) {
      const message = messages[next++]!
      const status = await post(url, message.headers, message.body, agent)
      if (status >= 200 && status < 300) delivered++
    }
  }
  // An untimed round first, as the worker has.
  await Promise.all(Array.from({ length: CONCURRENCY }, loop))
  next = 0
  delivered = 0
  const started = performance.now()
  const cpu = process.cpuUsage()
  await Promise.all(Array.from({ length: CONCURRENCY }, loop))
  const cpuMs = cpuMsSince(cpu)
  const seconds = (performance.now() - started) / 1000
  if (agent !== false) agent.destroy()
  return { seconds, cpuMs, delivered }
}

const runSender = async (): Promise<void> => {
  const [, , , sender, receiverUrl = "", databaseUrl = ""] = process.argv
  const result = sender === "ours" || sender === "ours-memory"
    ? await sendThroughWorker(receiverUrl, sender === "ours" ? databaseUrl : "")
    : await sendPlain(receiverUrl, sender === "bare-keepalive")
  await tellParent(result)
}

export const webhookThroughput = async (): Promise<ReadonlyArray<Figure>> => {
  const requested = Number(process.env["BENCH_RUNS"] ?? "")
  const runs = Number.isInteger(requested) && requested > 0 ? requested : 1
  const tlsDir = await mkdtemp(join(tmpdir(), "bench-webhook-tls-"))
  const previousTlsDir = process.env["TEST_TLS_DIR"]
  const database = await createScratchDatabase(BENCH)
  try {
    const tls = createTestTls(tlsDir)
    // The receiver reads its certificate from there.
    process.env["TEST_TLS_DIR"] = tlsDir
    const receiver = await startHttpsReceiver()
    const rates: Record<Sender, Array<number>> = { ours: [], "ours-memory": [], bare: [], "bare-keepalive": [] }
    const cpuPerDelivery: Record<Sender, Array<number>> = { ours: [], "ours-memory": [], bare: [], "bare-keepalive": [] }
    try {
      for (let i = 1; i <= runs; i++) {
        for (const sender of SENDERS) {
          const before = receiver.requests.length
          const child = forkBenchChild<SenderResult>(import.meta.url, [SENDER, sender, receiver.url, database.url], {
            NODE_EXTRA_CA_CERTS: tls.caCert,
            OUTBOUND_ALLOW_LOOPBACK: "1"
          })
          const result = await child.message.finally(child.stop)
          const received = receiver.requests.length - before
          // Each sender's untimed round reaches the receiver too.
          if (result.delivered !== DELIVERIES || received !== 2 * DELIVERIES) {
            throw new Error(`${sender}: ${result.delivered} delivered of ${DELIVERIES}, ${received} received of ${2 * DELIVERIES}`)
          }
          rates[sender].push(DELIVERIES / result.seconds)
          cpuPerDelivery[sender].push(result.cpuMs / DELIVERIES)
          console.log(
            `${BENCH}: run ${i}/${runs}  ${sender.padEnd(14)} ${rates[sender].at(-1)!.toFixed(0)} deliveries/s, ` +
              `${cpuPerDelivery[sender].at(-1)!.toFixed(2)} ms of the sender's CPU a delivery`
          )
        }
      }
    } finally {
      await receiver.close()
    }
    const note = runs > 1 ? `median of ${runs}` : "1 run"
    const ours = median(rates.ours)
    const bare = median(rates["bare-keepalive"])
    return [
      { bench: BENCH, name: `ours: worker webhook lane, ${CONCURRENCY} loops`, value: ours, unit: "deliveries/s", note },
      {
        bench: BENCH,
        name: "ours, memory stores",
        value: median(rates["ours-memory"]),
        unit: "deliveries/s",
        note: `${note}; the same without PostgreSQL (information)`
      },
      {
        bench: BENCH,
        name: `bare node:https, ${CONCURRENCY} at a time`,
        value: median(rates.bare),
        unit: "deliveries/s",
        note: `${note}; a new connection per POST (information)`
      },
      {
        bench: BENCH,
        name: "bare node:https, keep-alive",
        value: bare,
        unit: "deliveries/s",
        note: `${note}; ${CONCURRENCY} reused connections, as ours`
      },
      ...SENDERS.map((sender): Figure => ({
        bench: BENCH,
        name: `${sender}: the sender's CPU a delivery`,
        value: median(cpuPerDelivery[sender]),
        unit: "ms",
        note: `${note}; user and system time of the sending process over the timed round (information)`
      })),
      {
        bench: BENCH,
        name: "deliveries/s ours/bare keep-alive",
        value: ours / bare,
        unit: "x",
        note: `${DELIVERIES} deliveries, PostgreSQL stores; load average ${loadavg()[0]!.toFixed(2)}`
      }
    ]
  } finally {
    if (previousTlsDir === undefined) delete process.env["TEST_TLS_DIR"]
    else process.env["TEST_TLS_DIR"] = previousTlsDir
    await database.drop()
    await rm(tlsDir, { recursive: true, force: true })
  }
}

if (isEntryPoint(import.meta.url)) {
  if (process.argv[2] === SENDER) await runSender()
  else await report(await webhookThroughput())
}
