// The short sounds fake-text and quiz videos play, and when: a message sent or received, the
// countdown's ticks, the reveal of the right answer, a card sliding in.
import type { ChatSchedule } from "./chat-schedule.ts"
import type { QuizSchedule } from "./quiz.ts"

export const SOUND_EFFECTS = ["sent", "received", "tick", "reveal", "whoosh"] as const
export type SoundEffect = (typeof SOUND_EFFECTS)[number]

export interface SoundCue {
  readonly effect: SoundEffect
  readonly atSeconds: number
}

export const chatSoundCues = (schedule: ChatSchedule): ReadonlyArray<SoundCue> =>
  schedule.beats.map((beat) => ({ effect: beat.sound, atSeconds: beat.appearAt }))

/** A whoosh as each card slides in, a tick each second of a countdown, a chime at each reveal. */
export const quizSoundCues = (schedule: QuizSchedule): ReadonlyArray<SoundCue> => [
  { effect: "whoosh", atSeconds: schedule.intro.at },
  ...schedule.questions.flatMap((q) => [
    { effect: "whoosh" as const, atSeconds: q.at },
    ...Array.from({ length: schedule.countdownSeconds }, (_, k) => ({ effect: "tick" as const, atSeconds: q.countdownAt + k })),
    { effect: "reveal" as const, atSeconds: q.revealAt }
  ]),
  { effect: "whoosh", atSeconds: schedule.outro.at }
]
