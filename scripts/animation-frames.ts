// Saves frames of a fake-text video and a quiz video, as the renderer encodes them, to
// docs/fake-text-video/ and docs/quiz-video/: `npx tsx scripts/animation-frames.ts`. The speech lengths
// are estimated from the words (no voice is needed to show the pictures); the split-screen frame puts
// the chat over a colour backdrop so that no footage has to be made.
import { execFile } from "node:child_process"
import { mkdir, mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { Effect, Layer } from "effect"
import { CanvasAnimatorLive } from "../adapters/animation/canvas-animator.ts"
import { FfmpegTimelineRendererLive } from "../adapters/media/ffmpeg-timeline-renderer.ts"
import { chatPlacement } from "../domain/chat-placement.ts"
import { chatSchedule } from "../domain/chat-schedule.ts"
import type { ChatThemeId } from "../domain/chat-themes.ts"
import type { AnimatedFrames } from "../domain/ports/animated-frames.ts"
import { type AnimateRequest, Animator } from "../domain/ports/animator.ts"
import { TimelineRenderer } from "../domain/ports/timeline-renderer.ts"
import { DEFAULT_INTRO, DEFAULT_OUTRO, type QuizContent, quizSchedule, QuizThemeId } from "../domain/quiz.ts"
import { estimatedSpeechSeconds } from "../domain/pricing.ts"
import type { Scene } from "../domain/timeline.ts"
import { SAMPLE_CONVERSATION } from "./sample-conversation.ts"

const run = promisify(execFile)
const DOCS = join(import.meta.dirname, "..", "docs")
const WIDTH = 1080
const HEIGHT = 1920
const RATE = 30
const ANIMATION = "animation"

const speech = (text: string): number => estimatedSpeechSeconds(text.split(/\s+/).length)

const QUIZ: QuizContent = {
  title: DEFAULT_INTRO,
  outro: DEFAULT_OUTRO,
  countdownSeconds: 5,
  questions: [{
    question: "Which planet has the most moons?",
    answers: ["Jupiter", "Saturn", "Neptune", "Mars"],
    correct: 1,
    explanation: "Saturn has 274 known moons, more than every other planet combined."
  }]
}

/** Renders one scene of `seconds`, playing `animation`, and saves the frames at `times` (seconds) as PNGs named `names`. */
const renderFrames = (scene: Effect.Effect<{ scene: Scene; animation: AnimatedFrames }, unknown, Animator>, seconds: number, shots: ReadonlyArray<[string, number]>, outDir: string) =>
  Effect.gen(function*() {
    const dir = yield* Effect.promise(() => mkdtemp(join(tmpdir(), "reelwright-frames-")))
    const output = join(dir, "video.mp4")
    const played = yield* scene
    yield* (yield* TimelineRenderer).render({
      timeline: {
        width: WIDTH,
        height: HEIGHT,
        frameRate: RATE,
        format: "standard",
        background: "#000000",
        scenes: [played.scene],
        narration: null,
        captions: null,
        music: null
      },
      animations: new Map([[ANIMATION, played.animation]]),
      output,
      workDir: join(dir, "work")
    })
    yield* Effect.promise(async () => {
      await mkdir(outDir, { recursive: true })
      for (const [name, at] of shots) {
        const path = join(outDir, `${name}.png`)
        await run("ffmpeg", ["-nostdin", "-y", "-v", "error", "-ss", at.toFixed(3), "-i", output, "-frames:v", "1", path])
        console.log(`wrote ${path} (${seconds.toFixed(1)} s video, frame at ${at.toFixed(2)} s)`)
      }
      await rm(dir, { recursive: true, force: true })
    })
  })

const animate = (request: Omit<AnimateRequest, "frameRate">) => Effect.flatMap(Animator, (a) => a.animate({ ...request, frameRate: RATE }))

const chat = (theme: ChatThemeId, split: boolean) => {
  const schedule = chatSchedule(SAMPLE_CONVERSATION, SAMPLE_CONVERSATION.messages.map((m) => speech(m.text ?? "")))
  const { box } = chatPlacement(WIDTH, HEIGHT, split, split)
  const scene = Effect.map(
    animate({
      animation: { _tag: "Chat", conversation: SAMPLE_CONVERSATION, theme, schedule, images: new Map() },
      width: box.width,
      height: box.height,
      durationSeconds: schedule.durationSeconds,
      fill: "theme"
    }),
    (animation) => ({
      scene: {
        durationSeconds: schedule.durationSeconds,
        visual: split
          ? { _tag: "Split", top: { _tag: "Animation", animation: ANIMATION }, bottom: { _tag: "Colour", hex: "#2E7D32" } }
          : { _tag: "Animation", animation: ANIMATION },
        overlays: []
      } satisfies Scene,
      animation
    })
  )
  return { schedule, scene }
}

const quiz = (theme: QuizThemeId) => {
  const q = QUIZ.questions[0]!
  const schedule = quizSchedule(QUIZ, {
    intro: speech(QUIZ.title),
    questions: [{ question: speech(q.question), explanation: speech(q.explanation ?? "") }],
    outro: speech(QUIZ.outro)
  })
  const scene = Effect.map(
    animate({
      animation: { _tag: "Quiz", quiz: QUIZ, theme, schedule },
      width: WIDTH,
      height: HEIGHT,
      durationSeconds: schedule.durationSeconds,
      fill: "theme"
    }),
    (animation) => ({
      scene: { durationSeconds: schedule.durationSeconds, visual: { _tag: "Animation", animation: ANIMATION }, overlays: [] } satisfies Scene,
      animation
    })
  )
  return { schedule, scene }
}

const program = Effect.gen(function*() {
  const light = chat("imessage-light", false)
  const beats = light.schedule.beats
  yield* renderFrames(light.scene, light.schedule.durationSeconds, [
    ["typing", beats[2]!.appearAt - 0.4],
    ["entering", beats[3]!.appearAt + 0.1],
    ["settled", light.schedule.durationSeconds - 0.1]
  ], join(DOCS, "fake-text-video"))
  const split = chat("whatsapp", true)
  yield* renderFrames(split.scene, split.schedule.durationSeconds, [["split-screen", split.schedule.beats[5]!.speechAt]], join(DOCS, "fake-text-video"))
  for (const theme of QuizThemeId.literals) {
    const { schedule, scene } = quiz(theme)
    const question = schedule.questions[0]!
    yield* renderFrames(scene, schedule.durationSeconds, [
      ...(theme === "classic" ? [["intro", schedule.intro.speechAt + 0.5] as [string, number]] : []),
      [`${theme}-countdown`, question.countdownAt + 2.5],
      [`${theme}-revealed`, question.explanation!.speechAt + 0.5]
    ], join(DOCS, "quiz-video"))
  }
})

await Effect.runPromise(program.pipe(Effect.provide(Layer.mergeAll(CanvasAnimatorLive, FfmpegTimelineRendererLive))))
