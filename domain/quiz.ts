// A quiz video: an intro card, then each question read aloud with its answers appearing, a ticking
// countdown, the right answer revealed (and its explanation read), then an outro card. The schema
// checks the fields; `quizSchedule` lays the cards out in time from the length of each speech, and
// `quizMomentAt` says what any frame shows.
import { Schema } from "effect"

export const MIN_ANSWERS = 2
export const MAX_ANSWERS = 6
export const MAX_QUESTIONS = 50
export const MAX_QUESTION_CHARACTERS = 300
export const MAX_ANSWER_CHARACTERS = 120
export const MAX_EXPLANATION_CHARACTERS = 500
export const DEFAULT_COUNTDOWN_SECONDS = 5
export const DEFAULT_INTRO = "Quiz time! How many can you get right?"
export const DEFAULT_OUTRO = "How many did you get right? Tell us in the comments!"

const text = (max: number, what: string) =>
  Schema.String.pipe(
    Schema.pattern(/\S/, { message: () => `${what} must not be blank` }),
    Schema.maxLength(max, { message: () => `${what} must be at most ${max} characters` })
  )

export const QuizQuestion = Schema.Struct({
  question: text(MAX_QUESTION_CHARACTERS, "question").annotations({ description: "Read aloud, then shown above the answers." }),
  answers: Schema.Array(text(MAX_ANSWER_CHARACTERS, "an answer").annotations({ description: "One answer, shown with its letter." })).pipe(
    Schema.minItems(MIN_ANSWERS, { message: () => `answers must list ${MIN_ANSWERS} to ${MAX_ANSWERS} answers` }),
    Schema.maxItems(MAX_ANSWERS, { message: () => `answers must list ${MIN_ANSWERS} to ${MAX_ANSWERS} answers` })
  ).annotations({ description: `${MIN_ANSWERS} to ${MAX_ANSWERS} answers, shown A, B, C... in this order.` }),
  correct: Schema.Int.pipe(Schema.nonNegative()).annotations({ description: "Index (from 0) of the right answer in `answers`." }),
  explanation: Schema.optional(text(MAX_EXPLANATION_CHARACTERS, "explanation").annotations({
    description: "Read aloud and shown after the answer is revealed."
  }))
}).annotations({ identifier: "QuizQuestion", description: "One question with its answers." })
export type QuizQuestion = typeof QuizQuestion.Type

export const QuizThemeId = Schema.Literal("classic", "midnight", "candy").annotations({
  description: "The look of the cards: `classic` (white cards on blue), `midnight` (dark glass with neon accents), `candy` (pastel cards on pink)."
})
export type QuizThemeId = typeof QuizThemeId.Type

export const QuizContent = Schema.Struct({
  title: Schema.String,
  questions: Schema.Array(QuizQuestion),
  outro: Schema.String,
  countdownSeconds: Schema.Int
})
export type QuizContent = typeof QuizContent.Type

/** The fields the quiz create takes, besides the video's own (voice, background, render...). */
export const QuizFields = {
  title: Schema.optional(text(120, "title").annotations({ description: `Shown and read on the intro card; default "${DEFAULT_INTRO}".` })),
  questions: Schema.Array(QuizQuestion).pipe(
    Schema.minItems(1, { message: () => `questions must list 1 to ${MAX_QUESTIONS} questions` }),
    Schema.maxItems(MAX_QUESTIONS, { message: () => `questions must list 1 to ${MAX_QUESTIONS} questions` })
  ).annotations({
    description: `1 to ${MAX_QUESTIONS} questions, in the order they are asked.`,
    examples: [[{ question: "Which planet has the most moons?", answers: ["Saturn", "Jupiter", "Mars"], correct: 0 }]]
  }),
  outro: Schema.optional(text(200, "outro").annotations({ description: `Shown and read on the outro card; default "${DEFAULT_OUTRO}".` })),
  countdownSeconds: Schema.optional(Schema.Int.pipe(
    Schema.between(3, 15, { message: () => "countdownSeconds must be a whole number from 3 to 15" })
  ).annotations({ description: `The countdown before each answer is revealed, 3 to 15 seconds; default ${DEFAULT_COUNTDOWN_SECONDS}.` })),
  theme: Schema.optionalWith(QuizThemeId, { default: () => "classic" as const })
}

export interface QuizProblem {
  readonly field: string
  readonly message: string
}

/** The first rule across fields the quiz breaks (a `correct` past its answers), or null. */
export const quizProblem = (questions: ReadonlyArray<QuizQuestion>): QuizProblem | null => {
  for (const [i, q] of questions.entries()) {
    if (q.correct >= q.answers.length) {
      return { field: `questions.${i}.correct`, message: `correct is ${q.correct}, but there are only ${q.answers.length} answers (0 to ${q.answers.length - 1})` }
    }
  }
  return null
}

/** A letter for each answer: A, B, C... */
export const answerLetter = (index: number): string => String.fromCharCode(65 + index)

/** How long a card takes to slide in. */
export const CARD_ENTRANCE_SECONDS = 0.4
/** Between one answer appearing and the next. */
export const ANSWER_STAGGER_SECONDS = 0.25
/** After the question is read, before the first answer appears. */
export const ANSWERS_AFTER_SPEECH_SECONDS = 0.2
/** After the last answer appears, before the countdown starts. */
export const COUNTDOWN_AFTER_ANSWERS_SECONDS = 0.4
/** The revealed answer is looked at for at least this long. */
export const REVEAL_HOLD_SECONDS = 1.5
/** An explanation starts this long after the reveal, once its sound has played. */
export const EXPLANATION_AFTER_REVEAL_SECONDS = 0.8
/** After a card's last speech, before the next card. */
export const CARD_TAIL_SECONDS = 0.5
/** The outro holds this long after it is read. */
export const OUTRO_TAIL_SECONDS = 1

/** A card that is read aloud: when it enters, when its speech starts, how long the speech lasts, when it leaves. */
export const SpokenCard = Schema.Struct({
  at: Schema.Number,
  speechAt: Schema.Number,
  speechSeconds: Schema.Number,
  until: Schema.Number
})
export type SpokenCard = typeof SpokenCard.Type

export const QuestionTiming = Schema.Struct({
  at: Schema.Number,
  speechAt: Schema.Number,
  speechSeconds: Schema.Number,
  answersAt: Schema.Array(Schema.Number),
  countdownAt: Schema.Number,
  revealAt: Schema.Number,
  explanation: Schema.NullOr(Schema.Struct({ speechAt: Schema.Number, speechSeconds: Schema.Number })),
  until: Schema.Number
})
export type QuestionTiming = typeof QuestionTiming.Type

export const QuizSchedule = Schema.Struct({
  intro: SpokenCard,
  questions: Schema.Array(QuestionTiming),
  outro: SpokenCard,
  countdownSeconds: Schema.Int,
  durationSeconds: Schema.Number
})
export type QuizSchedule = typeof QuizSchedule.Type

/** How long each piece of speech lasts; an explanation the question lacks is null. */
export interface QuizSpeech {
  readonly intro: number
  readonly questions: ReadonlyArray<{ readonly question: number; readonly explanation: number | null }>
  readonly outro: number
}

const spokenCard = (at: number, speechSeconds: number, tail: number): SpokenCard => {
  const speechAt = at + CARD_ENTRANCE_SECONDS
  return { at, speechAt, speechSeconds, until: speechAt + speechSeconds + tail }
}

export const quizSchedule = (quiz: QuizContent, speech: QuizSpeech): QuizSchedule => {
  const intro = spokenCard(0, speech.intro, CARD_TAIL_SECONDS)
  let t = intro.until
  const questions = quiz.questions.map((q, i): QuestionTiming => {
    const spoken = speech.questions[i] ?? { question: 0, explanation: null }
    const at = t
    const speechAt = at + CARD_ENTRANCE_SECONDS
    const firstAnswer = speechAt + spoken.question + ANSWERS_AFTER_SPEECH_SECONDS
    const answersAt = q.answers.map((_, k) => firstAnswer + k * ANSWER_STAGGER_SECONDS)
    const countdownAt = answersAt.at(-1)! + COUNTDOWN_AFTER_ANSWERS_SECONDS
    const revealAt = countdownAt + quiz.countdownSeconds
    const explanation = spoken.explanation === null
      ? null
      : { speechAt: revealAt + EXPLANATION_AFTER_REVEAL_SECONDS, speechSeconds: spoken.explanation }
    const until = Math.max(
      revealAt + REVEAL_HOLD_SECONDS,
      explanation === null ? 0 : explanation.speechAt + explanation.speechSeconds + CARD_TAIL_SECONDS
    )
    t = until
    return { at, speechAt, speechSeconds: spoken.question, answersAt, countdownAt, revealAt, explanation, until }
  })
  const outro = spokenCard(t, speech.outro, OUTRO_TAIL_SECONDS)
  return { intro, questions, outro, countdownSeconds: quiz.countdownSeconds, durationSeconds: outro.until }
}

/** What a quiz frame shows at one instant. */
export type QuizMoment =
  | { readonly card: "intro" | "outro"; readonly entrance: number }
  | {
    readonly card: "question"
    readonly question: number
    readonly entrance: number
    /** Each answer's entrance, 0 (not yet) to 1 (in place). */
    readonly answers: ReadonlyArray<number>
    /** Seconds left on the countdown (fractional), or null before it starts. */
    readonly remaining: number | null
    /** The reveal's progress, 0 (not yet) to 1 (fully highlighted). */
    readonly reveal: number
    /** Whether the explanation shows. */
    readonly explaining: boolean
  }

const progress = (seconds: number, from: number, over: number): number => Math.min(1, Math.max(0, (seconds - from) / over))

/** The reveal's highlight grows in over this long. */
export const REVEAL_SECONDS = 0.3

export const quizMomentAt = (schedule: QuizSchedule, seconds: number): QuizMoment => {
  const index = schedule.questions.findIndex((q) => seconds >= q.at && seconds < q.until)
  const q = schedule.questions[index]
  if (q === undefined) {
    const card = seconds < schedule.intro.until ? schedule.intro : schedule.outro
    return { card: card === schedule.intro ? "intro" : "outro", entrance: progress(seconds, card.at, CARD_ENTRANCE_SECONDS) }
  }
  return {
    card: "question",
    question: index,
    entrance: progress(seconds, q.at, CARD_ENTRANCE_SECONDS),
    answers: q.answersAt.map((at) => progress(seconds, at, ANSWER_STAGGER_SECONDS)),
    remaining: seconds < q.countdownAt ? null : Math.max(0, q.revealAt - seconds),
    reveal: progress(seconds, q.revealAt, REVEAL_SECONDS),
    explaining: q.explanation !== null && seconds >= q.explanation.speechAt
  }
}
