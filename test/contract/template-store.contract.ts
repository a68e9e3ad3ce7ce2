// What every TemplateStore adapter must do.
import { randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { BUILT_IN_TEMPLATES } from "../../domain/captions.ts"
import { type SavedTemplate, TemplateStore } from "../../domain/ports/template-store.ts"

const style = BUILT_IN_TEMPLATES[0]!.style

export const templateStoreContract = (name: string, stores: Layer.Layer<TemplateStore, unknown>): void =>
  layer(stores)(`TemplateStore (${name})`, (it) => {
    const saved = (workspaceId: string, name: string) =>
      Effect.gen(function*() {
        const store = yield* TemplateStore
        const template: SavedTemplate = {
          id: yield* store.nextId(),
          name,
          builtIn: false,
          style,
          workspaceId,
          createdAt: "2025-01-02T03:04:05.678Z"
        }
        yield* store.insert(template)
        return template
      })

    it.effect("hands out increasing positive ids", () =>
      Effect.gen(function*() {
        const store = yield* TemplateStore
        const ids = [yield* store.nextId(), yield* store.nextId(), yield* store.nextId()]
        expect(ids.every((id) => Number.isSafeInteger(id) && id > 0)).toBe(true)
        expect(ids[0]! < ids[1]! && ids[1]! < ids[2]!).toBe(true)
      }))

    it.effect("lists and gets templates only within their workspace", () =>
      Effect.gen(function*() {
        const store = yield* TemplateStore
        const workspaceId = randomUUID()
        const first = yield* saved(workspaceId, "First")
        const second = yield* saved(workspaceId, "Second")
        const foreign = yield* saved(randomUUID(), "Foreign")

        expect(yield* store.list(workspaceId)).toEqual([first, second])
        expect(Option.getOrThrow(yield* store.get(workspaceId, second.id))).toEqual(second)
        expect(Option.isNone(yield* store.get(workspaceId, foreign.id))).toBe(true)
        expect(yield* store.list(randomUUID())).toEqual([])
      }))

    it.effect("updates a template", () =>
      Effect.gen(function*() {
        const store = yield* TemplateStore
        const template = yield* saved(randomUUID(), "Plain")
        const changed: SavedTemplate = { ...template, name: "Loud", style: { ...style, uppercase: false, glow: true } }
        yield* store.update(changed)
        expect(Option.getOrThrow(yield* store.get(template.workspaceId, template.id))).toEqual(changed)
      }))

    it.effect("removes a template of its own workspace once", () =>
      Effect.gen(function*() {
        const store = yield* TemplateStore
        const template = yield* saved(randomUUID(), "Doomed")
        expect(yield* store.remove(randomUUID(), template.id)).toBe(false)
        expect(Option.isSome(yield* store.get(template.workspaceId, template.id))).toBe(true)
        expect(yield* store.remove(template.workspaceId, template.id)).toBe(true)
        expect(yield* store.remove(template.workspaceId, template.id)).toBe(false)
        expect(Option.isNone(yield* store.get(template.workspaceId, template.id))).toBe(true)
      }))
  })
