// The pipeline of a generated video up to an editable project: speak (the script, or a chat's messages
// and a quiz's cards, each in its voice, mixed with their sounds), then, for an AI video, draw its scenes
// in an art style, keeping it all in the project. A chat, a quiz and built-in gameplay footage are drawn
// at render time, while they are encoded. Every step saves what it made, so a retried job after a crash
// picks up where it stopped.
import { Effect, Option } from "effect"
import { WorkFailed } from "../../../domain/errors.ts"
import type { GeneratedProject } from "../../../domain/generated-project.ts"
import { VideoStore } from "../../../domain/ports/video-store.ts"
import type { VideoRecord } from "../../../domain/video.ts"
import { Done, handle } from "../../kernel/job.ts"
import { GenerateVideo } from "../../kernel/job-catalogue.ts"
import { videoWork } from "../../kernel/video-work.ts"
import { withScratchDir } from "../../shared/media/scratch.ts"
import { drawScenes, writeScenes } from "./parts/illustrate-scenes.ts"
import { speakConversation } from "./parts/speak-conversation.ts"
import { speakQuiz } from "./parts/speak-quiz.ts"
import { narrate } from "./parts/narrate.ts"

const speak = (video: VideoRecord, project: GeneratedProject, dir: string) => {
  const { visuals } = project
  switch (visuals._tag) {
    case "Chat":
      return speakConversation(video, project, visuals, dir)
    case "Quiz":
      return speakQuiz(video, project, visuals, dir)
    default:
      return narrate(video, project, dir)
  }
}

export const generateVideo = (videoId: string) =>
  withScratchDir(videoId, (dir) =>
    Effect.gen(function*() {
      const videos = yield* VideoStore
      const initial = yield* videos.getById(videoId).pipe(Effect.map(Option.getOrThrow))
      if (initial.status !== "processing" || initial.generated) return
      const saved = yield* videos.getProject(videoId).pipe(Effect.map(Option.getOrThrow))
      const project = saved.narrationFileId === null
        ? yield* videoWork.step(initial, "speaking", speak(initial, saved, dir))
        : saved
      const { visuals } = project
      if (visuals._tag === "Illustrated") {
        const written = visuals.scenes.length === 0
          ? yield* videoWork.step(initial, "writing_scenes", writeScenes(initial, project, visuals))
          : visuals
        yield* videoWork.step(initial, "drawing", drawScenes(initial, project, written, dir))
      }
      // Captions are laid out from the saved words at render time, in the template chosen then.
      yield* videoWork.step(initial, "building_captions", Effect.void)
      yield* videoWork.apply(videoId, (at) => ({ _tag: "Generated", at }))
    }))

export const generateVideoJob = handle(GenerateVideo, {
  run: ({ videoId }) =>
    generateVideo(videoId).pipe(Effect.catchTag("WorkFailed", (failure) => videoWork.fail(videoId, failure)), Effect.as(Done)),
  onDead: ({ videoId }, error) =>
    videoWork.fail(videoId, new WorkFailed({ message: `Generating the video stopped after repeated internal errors (${error.slice(0, 200)}). Credits were refunded; create it again.` }))
})
