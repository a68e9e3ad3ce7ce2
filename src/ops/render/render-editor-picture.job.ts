// The picture the editor previews a generated video's captions over: its timeline rendered once,
// without captions, at half size (the page scales it to the player; the captions are drawn over it at
// the video's own size). Free: it is the editor's, not an export. Asked for when the editor first opens
// the video; a failure is recorded for the page to show.
import { Effect, Option } from "effect"
import { BUILT_IN_TEMPLATES } from "../../../domain/captions.ts"
import type { EditorPicture, GeneratedProject } from "../../../domain/generated-project.ts"
import { TimelineRenderer } from "../../../domain/ports/timeline-renderer.ts"
import { VideoStore } from "../../../domain/ports/video-store.ts"
import { WorkspaceStore } from "../../../domain/ports/workspace-store.ts"
import { editRefusal, type VideoRecord } from "../../../domain/video.ts"
import { Done, enqueue, handle } from "../../kernel/job.ts"
import { editorPictureJobKey, MakeEditorPicture } from "../../kernel/job-catalogue.ts"
import { withScratchDir } from "../../shared/media/scratch.ts"
import { storeFile } from "../../shared/media/store-file.ts"
import { fileLink } from "../../kernel/present-video.ts"
import { generatedTimeline } from "./parts/generated-timeline.ts"
import { withSpan } from "../../kernel/spans.ts"

/** Half the size, kept even for the encoder. */
const half = (pixels: number | null): number | null => (pixels === null ? null : Math.max(2, Math.round(pixels / 4) * 2))

/** What the editor previews captions over, as it stands. */
export type EditorPictureState =
  | { readonly _tag: "Ready"; readonly url: string }
  | { readonly _tag: "Preparing" }
  | { readonly _tag: "Missing"; readonly reason: string }

const GONE = "The picture is no longer stored (its media were deleted, or the plan's file retention ended), so there is nothing to play."

const linked = (url: string | null): EditorPictureState => (url === null ? { _tag: "Missing", reason: GONE } : { _tag: "Ready", url })

/**
 * A caption video is previewed over its source; a generated one over its timeline without captions,
 * asked for once the video is at rest (not generating or exporting) and then prepared in the background.
 */
export const editorPictureOf = (video: VideoRecord) =>
  Effect.gen(function*() {
    if (video.mediaDeletedAt !== null) return linked(null)
    if (video.kind === "caption") return linked(yield* fileLink(video.sourceFileId))
    const project = yield* (yield* VideoStore).getProject(video.id)
    const picture = Option.flatMap(project, (p) => Option.fromNullable(p.editorPicture))
    if (Option.isSome(picture)) {
      return picture.value._tag === "Ready" ? linked(yield* fileLink(picture.value.fileId)) : { _tag: "Missing", reason: picture.value.error } as const
    }
    if (Option.isSome(project) && editRefusal(video) === null) yield* requestEditorPicture(video)
    return { _tag: "Preparing" } as const
  })

/** Queues the picture's job once per video; later calls find it queued, running or done. */
export const requestEditorPicture = (video: VideoRecord) =>
  enqueue(MakeEditorPicture, { videoId: video.id }, { runAt: 0, dedupeKey: editorPictureJobKey(video.id), workspaceId: video.workspaceId }).pipe(
    Effect.asVoid,
    withSpan("requestEditorPicture", { attributes: { videoId: video.id } })
  )

const record = (videoId: string, project: GeneratedProject, picture: EditorPicture) =>
  Effect.flatMap(VideoStore, (videos) => videos.saveProject(videoId, { ...project, editorPicture: picture }))

/** Why there is no picture, for the page to show. */
const recordFailure = (videoId: string, error: string) =>
  Effect.flatMap(VideoStore, (videos) => videos.getProject(videoId)).pipe(
    Effect.flatMap(Option.match({ onNone: () => Effect.void, onSome: (project) => record(videoId, project, { _tag: "Failed", error }) }))
  )

const renderEditorPicture = (videoId: string) =>
  withScratchDir(`${videoId}-editor-picture`, (dir) =>
    Effect.gen(function*() {
      const videos = yield* VideoStore
      const video = yield* videos.getById(videoId).pipe(Effect.map(Option.getOrThrow))
      const project = yield* videos.getProject(videoId).pipe(Effect.map(Option.getOrThrow))
      if (project.editorPicture !== undefined) return
      const small = { ...video, width: half(video.width), height: half(video.height) }
      const played = yield* generatedTimeline({
        video: small,
        project,
        words: [],
        captions: { pages: [], style: BUILT_IN_TEMPLATES[0]!.style },
        options: { format: "standard", frameRate: 30 },
        dir
      })
      const output = `${dir}/picture.mp4`
      yield* (yield* TimelineRenderer).render({ ...played, output, workDir: `${dir}/timeline` })
      const workspace = yield* (yield* WorkspaceStore).get(video.workspaceId).pipe(Effect.map(Option.getOrThrow))
      const file = yield* storeFile(workspace, { path: output, name: "editor-picture.mp4", contentType: "video/mp4" })
      yield* record(videoId, project, { _tag: "Ready", fileId: file.id })
    }).pipe(
      Effect.catchTag("WorkFailed", (failure) => recordFailure(videoId, failure.message))
    ))

export const renderEditorPictureJob = handle(MakeEditorPicture, {
  run: ({ videoId }) => Effect.as(renderEditorPicture(videoId), Done),
  onDead: ({ videoId }, error) => recordFailure(videoId, `The preview picture could not be made (${error.slice(0, 200)}).`)
})
