// One clip made a caption video: its span of the source cut into a file of its own, stored, and the
// video created from it with the clip's words (never transcribed again), on the record's options; the
// file's record, the video and the record's note of it land in one transaction, so a retried job makes
// no second video, and a failed one leaves no file behind.
import { Effect, Option } from "effect"
import { type ChosenClip, type ClipsRecord } from "../../../../domain/clips.ts"
import { WorkFailed } from "../../../../domain/errors.ts"
import { BlobStore } from "../../../../domain/ports/blob-store.ts"
import { FileStore } from "../../../../domain/ports/file-store.ts"
import { MediaEngine } from "../../../../domain/ports/media-engine.ts"
import { Transactor } from "../../../../domain/ports/transactor.ts"
import { WorkspaceStore } from "../../../../domain/ports/workspace-store.ts"
import { clipsWork } from "../../../kernel/clips-work.ts"
import { CurrentWorkspace } from "../../../kernel/current-workspace.ts"
import { putFile } from "../../../shared/media/store-file.ts"
import { startCaptionVideo } from "../../caption-video/create-caption-video.ts"
import { withSpan } from "../../../kernel/spans.ts"

export const createClipVideo = (record: ClipsRecord, source: string, index: number, clip: ChosenClip, dir: string) =>
  Effect.gen(function*() {
    const workspace = Option.getOrThrow(yield* (yield* WorkspaceStore).get(record.workspaceId))
    const path = `${dir}/clip-${index + 1}.mp4`
    yield* (yield* MediaEngine).cutSpan(source, path, { start: clip.startSeconds, end: clip.endSeconds })
    const file = yield* putFile(workspace, { path, name: `clip-${index + 1}.mp4`, contentType: "video/mp4" })
    const { options } = record
    yield* Effect.gen(function*() {
      yield* (yield* FileStore).insert(file)
      const video = yield* startCaptionVideo({
        source: { _tag: "Stored", fileId: file.id },
        words: clip.words,
        templateId: options.templateId ?? undefined,
        render: options.render ?? undefined,
        reframe: options.reframe ?? undefined,
        language: options.language ?? undefined,
        webhookUrl: record.webhookUrl ?? undefined
      })
      yield* clipsWork.apply(record.id, (at) => ({ _tag: "VideoCreated", index, videoId: video.id, at }))
    }).pipe(
      (self) => Effect.flatMap(Transactor, (tx) => tx.atomically(self)),
      Effect.provideService(CurrentWorkspace, workspace),
      // The template or the plan changed since the clips were asked for.
      Effect.catchTags({
        InvalidInput: (e) => new WorkFailed({ message: `Clip ${index + 1} could not be made a video: ${e.message}` }),
        PlanForbids: (e) => new WorkFailed({ message: `Clip ${index + 1} could not be made a video: ${e.message}` })
      }),
      // Nothing recorded the cut file: it goes too.
      Effect.onError(() => Effect.flatMap(BlobStore, (blobs) => blobs.remove(file.blobKey)))
    )
  }).pipe(withSpan("createClipVideo", { attributes: { clipsId: record.id, index } }))
