import { Context, type Effect, type Option } from "effect"
import type { CaptionTemplate } from "../captions.ts"

export interface SavedTemplate extends CaptionTemplate {
  readonly workspaceId: string
  readonly createdAt: string
}

/** Templates saved by a workspace (positive ids). Built-in ones live in domain/captions.ts. */
export interface TemplateStoreShape {
  readonly nextId: () => Effect.Effect<number>
  readonly insert: (template: SavedTemplate) => Effect.Effect<void>
  readonly list: (workspaceId: string) => Effect.Effect<ReadonlyArray<SavedTemplate>>
  readonly get: (workspaceId: string, id: number) => Effect.Effect<Option.Option<SavedTemplate>>
  readonly update: (template: SavedTemplate) => Effect.Effect<void>
  readonly remove: (workspaceId: string, id: number) => Effect.Effect<boolean>
}
export class TemplateStore extends Context.Tag("TemplateStore")<TemplateStore, TemplateStoreShape>() {}
