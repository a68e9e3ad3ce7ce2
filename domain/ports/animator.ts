import { Context, type Effect } from "effect"
import type { ChatSchedule } from "../chat-schedule.ts"
import type { ChatThemeId } from "../chat-themes.ts"
import type { Conversation } from "../conversation.ts"
import type { WorkFailed } from "../errors.ts"
import type { QuizContent, QuizSchedule, QuizThemeId } from "../quiz.ts"
import type { AnimatedFrames } from "./animated-frames.ts"

/** What to animate: a chat played message by message, or a quiz's cards. */
export type Animation =
  | {
    readonly _tag: "Chat"
    readonly conversation: Conversation
    readonly theme: ChatThemeId
    readonly schedule: ChatSchedule
    /** The bytes of every `avatarKey` and `imageKey` the conversation names, by key. */
    readonly images: ReadonlyMap<string, Uint8Array>
  }
  | {
    readonly _tag: "Quiz"
    readonly quiz: QuizContent
    readonly theme: QuizThemeId
    readonly schedule: QuizSchedule
  }

export interface AnimateRequest {
  readonly animation: Animation
  readonly width: number
  readonly height: number
  readonly frameRate: number
  readonly durationSeconds: number
  /**
   * What fills the picture behind the chat or the cards: `theme` (the app's or quiz theme's own
   * background), a colour (#RRGGBB), or `transparent` (the frames go over other pictures: greenscreen, footage).
   */
  readonly fill: "theme" | "transparent" | { readonly colour: string }
}

/** Prepares an animation (its pictures decoded, its size checked) for a renderer to play. Failures are WorkFailed a person can act on. */
export interface AnimatorShape {
  readonly animate: (request: AnimateRequest) => Effect.Effect<AnimatedFrames, WorkFailed>
}
export class Animator extends Context.Tag("Animator")<Animator, AnimatorShape>() {}
