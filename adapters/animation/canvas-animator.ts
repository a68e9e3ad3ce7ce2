// The Animator on @napi-rs/canvas: a chat or a quiz drawn frame by frame from its schedule. Each
// frame's state is rounded to what the eye can tell apart (whole frames of a message's entrance,
// twelve steps of the typing dots' cycle), so repeated states are drawn once and held.
import { createCanvas, type SKRSContext2D } from "@napi-rs/canvas"
import { Clock, Effect, Layer } from "effect"
import { APPEAR_SECONDS, chatMomentAt } from "../../domain/chat-schedule.ts"
import { chatTheme } from "../../domain/chat-themes.ts"
import { WorkFailed } from "../../domain/errors.ts"
import type { AnimatedFrames, ByteSink } from "../../domain/ports/animated-frames.ts"
import { type AnimateRequest, type Animation, Animator } from "../../domain/ports/animator.ts"
import type { ChatFrameState } from "../../domain/ports/chat-painter.ts"
import { type QuizMoment, quizMomentAt } from "../../domain/quiz.ts"
import { quizTheme } from "../../domain/quiz-themes.ts"
import { decodeImages } from "../chat/canvas-chat-painter.ts"
import { ChatScreen } from "../chat/chat-screen.ts"
import { QuizScreen } from "../quiz/quiz-screen.ts"
import { playFrameSequence } from "./frame-sequence.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const MIN_SIDE = 16
const MAX_SIDE = 4096
/** The width the chat's lengths are drawn for; a narrower picture shows the same screen scaled down. */
const CHAT_WIDTH = 1080
/** The typing dots' cycle is drawn in this many steps, so a long wait repeats a few pictures. */
const TYPING_STEPS = 12

/** What each frame shows, as a key, and how to draw the state a key stands for. */
interface Frames {
  readonly keyAt: (frame: number) => string
  readonly draw: (ctx: SKRSContext2D, key: string) => void
}

/** Remembers the state behind each key, so drawing a key draws exactly what the frame asked for. */
const keyed = <S>(stateAt: (frame: number) => S, keyOf: (state: S) => string, draw: (ctx: SKRSContext2D, state: S) => void): Frames => {
  const states = new Map<string, S>()
  return {
    keyAt: (frame) => {
      const state = stateAt(frame)
      const key = keyOf(state)
      if (!states.has(key)) states.set(key, state)
      return key
    },
    draw: (ctx, key) => draw(ctx, states.get(key)!)
  }
}

const chatFrames = (request: AnimateRequest, animation: Extract<Animation, { _tag: "Chat" }>) =>
  Effect.map(decodeImages(animation.images), (images): Frames => {
    const theme = chatTheme(animation.theme)
    const scale = Math.min(1, request.width / CHAT_WIDTH)
    const height = request.height / scale
    const measure = createCanvas(1, 1).getContext("2d")
    const screen = new ChatScreen(measure, animation.conversation, theme, images, request.width / scale)
    const fill = request.fill === "theme" ? theme.background : request.fill === "transparent" ? null : request.fill.colour
    const entranceFrames = APPEAR_SECONDS * request.frameRate
    return keyed(
      (frame): ChatFrameState => {
        const moment = chatMomentAt(animation.conversation, animation.schedule, frame / request.frameRate)
        const typingStep = Math.floor(moment.typingPhase * TYPING_STEPS) % TYPING_STEPS
        return {
          visible: moment.visible,
          scroll: null,
          typing: moment.typing,
          entrance: Math.min(1, Math.round(moment.entrance * entranceFrames) / entranceFrames),
          ...(moment.typing === null ? {} : { typingPhase: typingStep / TYPING_STEPS })
        }
      },
      (state) => `${state.visible}:${state.entrance}:${state.typing ?? ""}:${state.typingPhase ?? ""}`,
      (ctx, state) => {
        ctx.scale(scale, scale)
        screen.draw(ctx, height, state, fill)
      }
    )
  })

const quizFrames = (request: AnimateRequest, animation: Extract<Animation, { _tag: "Quiz" }>): Frames => {
  const measure = createCanvas(1, 1).getContext("2d")
  const screen = new QuizScreen(measure, animation.quiz, quizTheme(animation.theme), request.width, request.height, request.fill)
  return keyed(
    (frame): QuizMoment => quizMomentAt(animation.schedule, frame / request.frameRate),
    (moment) => screen.keyOf(moment),
    (ctx, moment) => screen.draw(ctx, moment)
  )
}

const invalid = (request: AnimateRequest, frames: number): string | undefined => {
  const { width, height } = request
  if (![width, height].every((n) => Number.isInteger(n) && n >= MIN_SIDE && n <= MAX_SIDE)) {
    return `An animation must be whole pixels from ${MIN_SIDE} to ${MAX_SIDE} a side; ${width}x${height} was asked for.`
  }
  if (!(request.frameRate > 0) || !(frames >= 1)) {
    return `An animation must last at least one frame; ${request.durationSeconds} s at ${request.frameRate} fps was asked for.`
  }
  return undefined
}

export const animate = (request: AnimateRequest) =>
  Effect.gen(function*() {
    const frames = Math.round(request.durationSeconds * request.frameRate)
    const problem = invalid(request, frames)
    if (problem !== undefined) return yield* new WorkFailed({ message: problem })
    const { animation } = request
    const drawn = animation._tag === "Chat" ? yield* chatFrames(request, animation) : quizFrames(request, animation)
    const play = (sink: ByteSink) =>
      Effect.gen(function*() {
        const started = yield* Clock.currentTimeMillis
        const sequence = yield* Effect.tryPromise({
          try: (signal) =>
            playFrameSequence({
              width: request.width,
              height: request.height,
              frames,
              frameRate: request.frameRate,
              keyAt: drawn.keyAt,
              draw: drawn.draw,
              signal
            }, sink),
          catch: (cause) => cause
        }).pipe(
          // The cause may name server paths: logged for the operator, not shown to the person.
          Effect.tapError((cause) => Effect.logError("the animation's pictures could not be drawn", cause)),
          Effect.mapError(() => new WorkFailed({ message: "The animation's pictures could not be drawn; try again." }))
        )
        const ended = yield* Clock.currentTimeMillis
        yield* Effect.logInfo(`animated ${frames} frames as ${sequence.pictures} pictures`).pipe(
          Effect.annotateLogs({ animation: animation._tag, pictures: sequence.pictures, frames, complete: sequence.complete, ms: ended - started })
        )
        return sequence.pictures
      }).pipe(withSpan("CanvasAnimator.play", { attributes: { animation: animation._tag, frames } }))
    return { frames, encoding: { _tag: "Apng" }, play } satisfies AnimatedFrames
  }).pipe(withSpan("CanvasAnimator.animate", { attributes: { animation: request.animation._tag } }))

export const CanvasAnimatorLive = Layer.succeed(Animator, Animator.of({ animate }))
