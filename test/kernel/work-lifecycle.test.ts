// A kind of work beyond videos and removals is a declaration, not a copy: given its store, its state
// machine and its effects, the lifecycle applies its events with their effects, ends it as failed once,
// and records its steps.
import { expect, layer } from "@effect/vitest"
import { Effect, Either, Exit, Option } from "effect"
import { MemoryStoresLive } from "../../adapters/memory/memory-layer.ts"
import { WorkFailed } from "../../domain/errors.ts"
import { IllegalTransition } from "../../domain/video.ts"
import { workLifecycle, type WorkStore } from "../../src/kernel/work-lifecycle.ts"

const STEPS = ["queued", "cutting", "done"] as const
type ClipStep = (typeof STEPS)[number]

interface Clip {
  readonly id: string
  readonly workspaceId: string
  readonly createdAt: string
  readonly webhookUrl: string | null
  readonly step: ClipStep
  readonly status: "processing" | "completed" | "failed"
  readonly error: string | null
}

type ClipEvent =
  | { readonly _tag: "StepStarted"; readonly step: ClipStep; readonly at: string }
  | { readonly _tag: "Cut"; readonly at: string }
  | { readonly _tag: "Failed"; readonly error: string; readonly at: string }

interface Trim {
  readonly _tag: "Trim"
}

const clipTransition = (clip: Clip, event: ClipEvent) => {
  if (clip.status !== "processing") return Either.left(new IllegalTransition({ from: clip.status, event: event._tag, reason: "the clip ended" }))
  switch (event._tag) {
    case "StepStarted":
      return Either.right({ record: { ...clip, step: event.step }, effects: [] })
    case "Cut":
      return Either.right({ record: { ...clip, status: "completed" as const, step: "done" as const }, effects: [{ _tag: "Trim" as const }] })
    case "Failed":
      return Either.right({ record: { ...clip, status: "failed" as const, error: event.error }, effects: [] })
  }
}

const clips = new Map<string, Clip>()
const trimmed: Array<string> = []
const store: WorkStore<Clip> = {
  insert: (clip) => Effect.sync(() => void clips.set(clip.id, clip)),
  getForUpdate: (id) => Effect.sync(() => Option.fromNullable(clips.get(id))),
  update: (clip) => Effect.sync(() => void clips.set(clip.id, clip))
}

const clipWork = workLifecycle({
  name: "clip",
  store: Effect.succeed(store),
  transition: clipTransition,
  carryOut: (clip, _: Trim) => Effect.sync(() => void trimmed.push(clip.id)),
  isWorking: (clip) => clip.status === "processing",
  failed: (_, message, at) => Effect.succeed<ClipEvent>({ _tag: "Failed", error: message, at }),
  hasReachedStep: (clip, step) => STEPS.indexOf(clip.step) >= STEPS.indexOf(step),
  stepStarted: (step, at): ClipEvent => ({ _tag: "StepStarted", step, at }),
  present: (clip) => Effect.succeed({ id: clip.id, status: clip.status }),
  webhookField: "clip"
})

const newClip = (id: string): Clip =>
  ({ id, workspaceId: "ws-clips", createdAt: new Date(0).toISOString(), webhookUrl: null, step: "queued", status: "processing", error: null })

layer(MemoryStoresLive)("a third kind of work", (it) => {
  it.effect("records its steps, applies its events with their effects, and refuses events after the end", () =>
    Effect.gen(function*() {
      yield* store.insert(newClip("clip-1"))
      expect(yield* clipWork.step(newClip("clip-1"), "cutting", Effect.succeed(42))).toBe(42)
      expect(clips.get("clip-1")?.step).toBe("cutting")
      const done = yield* clipWork.apply("clip-1", (at) => ({ _tag: "Cut", at }))
      expect(done).toMatchObject({ status: "completed", step: "done" })
      expect(trimmed).toEqual(["clip-1"])
      expect(Exit.isFailure(yield* Effect.exit(clipWork.apply("clip-1", (at) => ({ _tag: "Cut", at }))))).toBe(true)
    }))

  it.effect("ends running work as failed once, and leaves ended work as it is", () =>
    Effect.gen(function*() {
      yield* store.insert(newClip("clip-2"))
      yield* clipWork.fail("clip-2", new WorkFailed({ message: "the cutter broke" }))
      expect(clips.get("clip-2")).toMatchObject({ status: "failed", error: "the cutter broke" })
      yield* clipWork.fail("clip-2", new WorkFailed({ message: "again" }))
      expect(clips.get("clip-2")?.error).toBe("the cutter broke")
      yield* clipWork.fail("clip-missing", new WorkFailed({ message: "nothing" }))
    }))
})
