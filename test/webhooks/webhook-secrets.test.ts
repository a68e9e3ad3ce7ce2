// Webhook signing secrets and rotation, at the use-case level with TestClock (set to the wall clock, as
// the receiver's Standard Webhooks library checks the timestamp against it): the real https transport, a
// receiver on loopback that verifies with the `standardwebhooks` package, the webhook lane of the runner.
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import { Webhook } from "standardwebhooks"
import { MemoryStoresLive } from "../../adapters/memory/memory-layer.ts"
import { OutboundClientLive } from "../../adapters/outbound/outbound-client.ts"
import { HttpsWebhookTransportLive } from "../../adapters/webhooks/https-transport.ts"
import { WebhookSecretStore } from "../../domain/ports/webhook-secret-store.ts"
import { WorkspaceStore } from "../../domain/ports/workspace-store.ts"
import { MAX_ACTIVE_WEBHOOK_SECRETS } from "../../domain/webhook-secrets.ts"
import { CurrentWorkspace } from "../../src/kernel/current-workspace.ts"
import { makeJobRunner } from "../../src/kernel/job-runner.ts"
import { newWebhookSecret } from "../../src/kernel/secrets.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"
import { createWebhookSecret } from "../../src/ops/webhook-secrets/create-webhook-secret.ts"
import { deleteWebhookSecret } from "../../src/ops/webhook-secrets/delete-webhook-secret.ts"
import { listWebhookSecrets } from "../../src/ops/webhook-secrets/list-webhook-secrets.ts"
import { updateWebhookSecret } from "../../src/ops/webhook-secrets/update-webhook-secret.ts"
import { deliverWebhookJob } from "../../src/ops/webhooks/deliver-webhook.job.ts"
import { setWebhookSecret } from "../../src/ops/workspaces/set-webhook-secret.ts"
import { aWorkspace } from "../contract/fixtures.ts"
import { failedVideoEvent } from "../support/failed-video.ts"
import { type HttpsReceiver, httpsReceiver, type ReceivedRequest } from "../support/https-receiver.ts"

const worker = makeJobRunner([deliverWebhookJob])

const TestLayer = Layer.mergeAll(
  MemoryStoresLive,
  HttpsWebhookTransportLive.pipe(Layer.provide(OutboundClientLive)),
  ServiceConfig.layer({ baseUrl: "http://127.0.0.1:1", workDir: "/tmp" })
)

/** failedVideoEvent records its video, and so its event, in workspace "ws". */
const asOwner = Effect.provideService(CurrentWorkspace, aWorkspace({ id: "ws" }))
const asStranger = Effect.provideService(CurrentWorkspace, aWorkspace())

const create = (input: { expiresInSeconds?: number; expiresAt?: string } = {}) =>
  createWebhookSecret.handle({ expiresInSeconds: input.expiresInSeconds, expiresAt: input.expiresAt }).pipe(asOwner)
const list = listWebhookSecrets.handle({}).pipe(asOwner)

/** Whether a receiver holding `secret` accepts the request, as the Standard Webhooks library checks it. */
const verifies = (secret: string, request: ReceivedRequest): boolean => {
  try {
    new Webhook(secret).verify(request.body, {
      "webhook-id": String(request.headers["webhook-id"]),
      "webhook-timestamp": String(request.headers["webhook-timestamp"]),
      "webhook-signature": String(request.headers["webhook-signature"])
    })
    return true
  } catch {
    return false
  }
}

/** One event of workspace "ws" delivered now: the request the receiver got. */
const deliverOne = (receiver: HttpsReceiver) =>
  Effect.gen(function*() {
    const before = receiver.requests.length
    yield* failedVideoEvent(`${receiver.url}/hooks`)
    yield* worker.drain("webhooks")
    expect(receiver.requests).toHaveLength(before + 1)
    return receiver.requests[before]!
  })

const signaturesOf = (request: ReceivedRequest): ReadonlyArray<string> =>
  String(request.headers["webhook-signature"]).split(" ")

/** Each test starts at the wall clock, with workspace "ws" (which the suite's tests share) holding no secret. */
const startAtWallClock = Effect.zipRight(
  TestClock.setTime(Date.now()),
  Effect.flatMap(WebhookSecretStore, (store) => store.replaceAll("ws", []))
)

layer(TestLayer, { timeout: "60 seconds" })("webhook signing secrets", (it) => {
  it.scoped("signs with every active secret, so either verifies; once the old one is deleted, only the new one", () =>
    Effect.gen(function*() {
      yield* startAtWallClock
      const receiver = yield* httpsReceiver()
      const stranger = newWebhookSecret()

      const old = yield* create()
      const first = yield* deliverOne(receiver)
      expect(signaturesOf(first)).toHaveLength(1)
      expect(verifies(old.secret, first)).toBe(true)

      const next = yield* create()
      const during = yield* deliverOne(receiver)
      expect(String(during.headers["webhook-signature"])).toMatch(/^v1,[A-Za-z0-9+/]+=* v1,[A-Za-z0-9+/]+=*$/)
      expect(verifies(old.secret, during)).toBe(true)
      expect(verifies(next.secret, during)).toBe(true)
      expect(verifies(stranger, during)).toBe(false)
      expect(verifies(next.secret, { ...during, body: during.body.replace("failed", "completed") })).toBe(false)

      expect(yield* deleteWebhookSecret.handle({ id: old.id }).pipe(asOwner)).toEqual({ id: old.id, deleted: true })
      const after = yield* deliverOne(receiver)
      expect(signaturesOf(after)).toHaveLength(1)
      expect(verifies(next.secret, after)).toBe(true)
      expect(verifies(old.secret, after)).toBe(false)

      // Deleted, or another workspace's: not found.
      expect(yield* Effect.flip(deleteWebhookSecret.handle({ id: old.id }).pipe(asOwner))).toMatchObject({ _tag: "NotFound" })
      expect(yield* Effect.flip(deleteWebhookSecret.handle({ id: next.id }).pipe(asStranger))).toMatchObject({ _tag: "NotFound" })
      expect((yield* list).data.map((s) => s.id)).toEqual([next.id])
    }))

  it.scoped("signs nothing with an expired secret; an expiry set later ends a rotation on its own", () =>
    Effect.gen(function*() {
      yield* startAtWallClock
      const receiver = yield* httpsReceiver()
      const expiring = yield* create({ expiresInSeconds: 60 })
      const lasting = yield* create()
      expect(expiring.expiresAt).toBe(new Date(Date.parse(expiring.createdAt) + 60_000).toISOString())
      const both = yield* deliverOne(receiver)
      expect(verifies(expiring.secret, both) && verifies(lasting.secret, both)).toBe(true)

      yield* TestClock.adjust("60 seconds")
      const later = yield* deliverOne(receiver)
      expect(signaturesOf(later)).toHaveLength(1)
      expect(verifies(lasting.secret, later)).toBe(true)
      expect(verifies(expiring.secret, later)).toBe(false)
      // Made at the same instant (the test clock stands still), the two are listed in their ids' order.
      const byId = (a: ReadonlyArray<string | boolean>, b: ReadonlyArray<string | boolean>) => String(a[0]).localeCompare(String(b[0]))
      expect((yield* list).data.map((s) => [s.id, s.active]).sort(byId)).toEqual([[expiring.id, false], [lasting.id, true]].sort(byId))

      // An expired secret stays expired; one still active takes an expiry (and can lose it again).
      expect(yield* Effect.flip(updateWebhookSecret.handle({ id: expiring.id, expiresAt: null }).pipe(asOwner))).toMatchObject({
        _tag: "Conflict"
      })
      const untilNever = yield* updateWebhookSecret.handle({ id: lasting.id, expiresInSeconds: 30 }).pipe(asOwner)
      expect(untilNever.active).toBe(true)
      yield* TestClock.adjust("30 seconds")
      const unsigned = yield* deliverOne(receiver)
      expect(unsigned.headers["webhook-signature"]).toBeUndefined()
      expect(unsigned.headers["webhook-id"]).toBeDefined()

      expect(yield* Effect.flip(updateWebhookSecret.handle({ id: lasting.id, expiresAt: null }).pipe(asStranger))).toMatchObject({
        _tag: "NotFound"
      })
      expect(yield* Effect.flip(updateWebhookSecret.handle({ id: lasting.id }).pipe(asOwner))).toMatchObject({
        _tag: "InvalidInput",
        field: "expiresAt"
      })
    }))

  it.scoped("holds at most five active secrets; expired ones make room and are removed by the next create", () =>
    Effect.gen(function*() {
      yield* startAtWallClock
      const workspace = aWorkspace()
      const asIt = Effect.provideService(CurrentWorkspace, workspace)
      const made = (expiresInSeconds?: number) =>
        createWebhookSecret.handle({ expiresInSeconds, expiresAt: undefined }).pipe(asIt)
      const short = yield* made(10)
      for (let i = 1; i < MAX_ACTIVE_WEBHOOK_SECRETS; i++) yield* made()
      const refused = yield* Effect.flip(made())
      expect(refused).toMatchObject({ _tag: "Conflict" })
      expect(refused.message).toContain(`${MAX_ACTIVE_WEBHOOK_SECRETS} active webhook secrets`)

      yield* TestClock.adjust("10 seconds")
      const sixth = yield* made()
      const listed = (yield* listWebhookSecrets.handle({}).pipe(asIt)).data
      expect(listed).toHaveLength(MAX_ACTIVE_WEBHOOK_SECRETS)
      expect(listed.map((s) => s.id)).not.toContain(short.id)
      expect(listed.at(-1)!.id).toBe(sixth.id)
    }))

  it.scoped("shows the whole secret only in the create's answer; lists show its prefix", () =>
    Effect.gen(function*() {
      yield* startAtWallClock
      const asIt = Effect.provideService(CurrentWorkspace, aWorkspace())
      const created = yield* createWebhookSecret.handle({ expiresInSeconds: undefined, expiresAt: undefined }).pipe(asIt)
      expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
      expect(Buffer.from(created.secret.slice(6), "base64")).toHaveLength(32)
      expect(created.prefix).toBe(created.secret.slice(0, 10))
      expect(created).toMatchObject({ expiresAt: null, active: true })
      const listed = yield* listWebhookSecrets.handle({}).pipe(asIt)
      expect(listed.data).toEqual([{ id: created.id, prefix: created.prefix, createdAt: created.createdAt, expiresAt: null, active: true }])
      expect(JSON.stringify(listed)).not.toContain(created.secret.slice(10, 30))
    }))

  it.scoped("takes an expiry as seconds or as a time ahead, not both, and never one gone by", () =>
    Effect.gen(function*() {
      yield* startAtWallClock
      const asIt = Effect.provideService(CurrentWorkspace, aWorkspace())
      const ahead = new Date(Date.now() + 3_600_000).toISOString()
      const at = yield* createWebhookSecret.handle({ expiresInSeconds: undefined, expiresAt: ahead }).pipe(asIt)
      expect(at.expiresAt).toBe(ahead)
      const past = yield* Effect.flip(createWebhookSecret.handle({ expiresInSeconds: undefined, expiresAt: "2020-01-01T00:00:00Z" }).pipe(asIt))
      expect(past).toMatchObject({ _tag: "InvalidInput", field: "expiresAt" })
      const both = yield* Effect.flip(createWebhookSecret.handle({ expiresInSeconds: 60, expiresAt: ahead }).pipe(asIt))
      expect(both).toMatchObject({ _tag: "InvalidInput", field: "expiresAt" })
      expect((yield* listWebhookSecrets.handle({}).pipe(asIt)).data).toHaveLength(1)
    }))

  it.scoped("the operator's secret replaces all the workspace's; clearing it leaves deliveries unsigned", () =>
    Effect.gen(function*() {
      yield* startAtWallClock
      yield* (yield* WorkspaceStore).insert(aWorkspace({ id: "ws" }))
      const receiver = yield* httpsReceiver()
      yield* create()
      yield* create()
      const operators = newWebhookSecret()
      expect(yield* setWebhookSecret.handle({ workspaceId: "ws", secret: operators, clear: undefined }).pipe(asOwner))
        .toEqual({ workspaceId: "ws", secret: operators })
      expect((yield* list).data.map((s) => s.prefix)).toEqual([operators.slice(0, 10)])
      const signed = yield* deliverOne(receiver)
      expect(signaturesOf(signed)).toHaveLength(1)
      expect(verifies(operators, signed)).toBe(true)

      yield* setWebhookSecret.handle({ workspaceId: "ws", secret: undefined, clear: true }).pipe(asOwner)
      expect((yield* list).data).toEqual([])
      expect((yield* deliverOne(receiver)).headers["webhook-signature"]).toBeUndefined()
    }))
})
