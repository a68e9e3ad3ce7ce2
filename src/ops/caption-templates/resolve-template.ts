import { Effect, Option } from "effect"
import { BUILT_IN_TEMPLATES, type CaptionTemplate, DEFAULT_TEMPLATE_ID } from "../../../domain/captions.ts"
import { InvalidInput } from "../../../domain/errors.ts"
import { TemplateStore } from "../../../domain/ports/template-store.ts"
import type { Workspace } from "../../../domain/ports/workspace-store.ts"

/** Finds a template the workspace may use: a built-in one (negative id) or one it saved (positive id). */
export const findTemplate = (workspaceId: string, id: number) =>
  id < 0
    ? Effect.succeed(Option.fromNullable(BUILT_IN_TEMPLATES.find((t) => t.id === id)))
    : Effect.flatMap(TemplateStore, (store) => store.get(workspaceId, id)).pipe(
      Effect.map(Option.map((t): CaptionTemplate => t))
    )

/** The template a create call asked for, or the one the workspace used last, or the default. */
export const resolveTemplate = (workspace: Workspace, requested: number | undefined) =>
  Effect.gen(function*() {
    const id = requested ?? workspace.lastTemplateId ?? DEFAULT_TEMPLATE_ID
    const found = yield* findTemplate(workspace.id, id)
    if (Option.isSome(found)) return found.value
    if (requested !== undefined) {
      return yield* new InvalidInput({
        field: "templateId",
        message: `No caption template ${requested}: use a built-in id (negative) or one of this workspace's saved templates (GET /v1/caption-templates).`
      })
    }
    // The last-used template was deleted since: fall back to the default.
    return BUILT_IN_TEMPLATES.find((t) => t.id === DEFAULT_TEMPLATE_ID)!
  })

/** The style to render with at render time; a template deleted since falls back to the default. */
export const templateForRender = (workspaceId: string, id: number) =>
  findTemplate(workspaceId, id).pipe(
    Effect.map(Option.getOrElse(() => BUILT_IN_TEMPLATES.find((t) => t.id === DEFAULT_TEMPLATE_ID)!))
  )
