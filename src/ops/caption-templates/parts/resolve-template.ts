import { Effect, Option } from "effect"
import { adjustedStyle, type StyleAdjustments } from "../../../../domain/caption-edits.ts"
import { captionStyleFor } from "../../../../domain/generated-project.ts"
import type { VideoRecord } from "../../../../domain/video.ts"
import { BUILT_IN_TEMPLATES, type CaptionTemplate, DEFAULT_TEMPLATE_ID } from "../../../../domain/captions.ts"
import { InvalidInput } from "../../../../domain/errors.ts"
import { TemplateStore } from "../../../../domain/ports/template-store.ts"
import type { Workspace } from "../../../../domain/ports/workspace-store.ts"

/** Finds a template the workspace may use: a built-in one (negative id) or one it saved (positive id). */
export const findTemplate = (workspaceId: string, id: number) =>
  id < 0
    ? Effect.succeed(Option.fromNullable(BUILT_IN_TEMPLATES.find((t) => t.id === id)))
    : Effect.flatMap(TemplateStore, (store) => store.get(workspaceId, id)).pipe(
      Effect.map(Option.map((t): CaptionTemplate => t))
    )

/** The template a request named in `templateId`; a 400 when the workspace has no such template. */
export const requireTemplate = (workspaceId: string, id: number) =>
  Effect.flatMap(findTemplate(workspaceId, id), Option.match({
    onSome: Effect.succeed,
    onNone: () =>
      new InvalidInput({
        field: "templateId",
        message: `No caption template ${id}: use a built-in id (negative) or one of this workspace's saved templates (GET /v1/caption-templates).`
      })
  }))

/** The template a create call asked for, or the one the workspace used last, or the default. */
export const resolveTemplate = (workspace: Workspace, requested: number | undefined) =>
  requested !== undefined
    ? requireTemplate(workspace.id, requested)
    : findTemplate(workspace.id, workspace.lastTemplateId ?? DEFAULT_TEMPLATE_ID).pipe(
      // The last-used template was deleted since: fall back to the default.
      Effect.map(Option.getOrElse(() => BUILT_IN_TEMPLATES.find((t) => t.id === DEFAULT_TEMPLATE_ID)!))
    )

/** The style to render with at render time; a template deleted since falls back to the default. */
export const templateForRender = (workspaceId: string, id: number) =>
  findTemplate(workspaceId, id).pipe(
    Effect.map(Option.getOrElse(() => BUILT_IN_TEMPLATES.find((t) => t.id === DEFAULT_TEMPLATE_ID)!))
  )

/** The template a video's captions are burned in, and its style there: the template's, adjusted, as the video's kind shows it. */
export const burnStyleFor = (video: Pick<VideoRecord, "workspaceId" | "templateId" | "kind">, adjustments: StyleAdjustments) =>
  Effect.map(templateForRender(video.workspaceId, video.templateId), (template) => ({
    template,
    style: captionStyleFor(video.kind, adjustedStyle(template.style, adjustments))
  }))
