import { Context, type Effect, type Option } from "effect"
import type { CaptionEdits } from "../caption-edits.ts"
import type { TimedWord } from "../captions.ts"
import type { GeneratedProject } from "../generated-project.ts"
import type { FaceAnalysis } from "../reframe.ts"
import type { Status, VideoRecord } from "../video.ts"

export interface VideoPage {
  readonly items: ReadonlyArray<VideoRecord>
  readonly nextCursor: string | null
}

export interface VideoStoreShape {
  readonly insert: (video: VideoRecord) => Effect.Effect<void>
  /** Scoped by workspace: another workspace's video is `None`. */
  readonly get: (workspaceId: string, id: string) => Effect.Effect<Option.Option<VideoRecord>>
  /** For workers, which act on behalf of the record's own workspace. */
  readonly getById: (id: string) => Effect.Effect<Option.Option<VideoRecord>>
  /** As `getById` for many: the videos among `ids` that exist, in no order, in one read. */
  readonly getManyById: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<VideoRecord>>
  /**
   * As `getById`, and inside a transaction the record is held against other writers until it ends:
   * every change of state reads through this, so two of them (a worker's step, a cancel) never overwrite each other.
   */
  readonly getForUpdate: (id: string) => Effect.Effect<Option.Option<VideoRecord>>
  readonly findByEditorToken: (token: string) => Effect.Effect<Option.Option<VideoRecord>>
  readonly update: (video: VideoRecord) => Effect.Effect<void>
  /** Newest first. The cursor is opaque to callers. */
  readonly list: (query: {
    readonly workspaceId: string
    readonly status: Status | undefined
    readonly limit: number
    readonly cursor: string | undefined
  }) => Effect.Effect<VideoPage>
  readonly saveWords: (videoId: string, words: ReadonlyArray<TimedWord>) => Effect.Effect<void>
  readonly getWords: (videoId: string) => Effect.Effect<Option.Option<ReadonlyArray<TimedWord>>>
  /** A generated video's project, replaced whole at each save. */
  readonly saveProject: (videoId: string, project: GeneratedProject) => Effect.Effect<void>
  readonly getProject: (videoId: string) => Effect.Effect<Option.Option<GeneratedProject>>
  /** Line breaks and style adjustments made after the captions were timed, replaced whole at each save. */
  readonly saveCaptionEdits: (videoId: string, edits: CaptionEdits) => Effect.Effect<void>
  readonly getCaptionEdits: (videoId: string) => Effect.Effect<Option.Option<CaptionEdits>>
  /** What the reframe's face analysis found in the source, kept to plan the other face mode later; replaced whole. */
  readonly saveFaceAnalysis: (videoId: string, analysis: FaceAnalysis) => Effect.Effect<void>
  readonly getFaceAnalysis: (videoId: string) => Effect.Effect<Option.Option<FaceAnalysis>>
}
export class VideoStore extends Context.Tag("VideoStore")<VideoStore, VideoStoreShape>() {}
