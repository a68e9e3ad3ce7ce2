// The timing of a quiz video and what each frame shows: speech, staggered answers, countdown, reveal,
// explanation; and the cross-field rule on `correct`.
import { describe, expect, it } from "vitest"
import {
  ANSWER_STAGGER_SECONDS,
  CARD_ENTRANCE_SECONDS,
  EXPLANATION_AFTER_REVEAL_SECONDS,
  type QuizContent,
  quizMomentAt,
  quizProblem,
  quizSchedule,
  REVEAL_HOLD_SECONDS
} from "../../domain/quiz.ts"

const QUIZ: QuizContent = {
  title: "Quiz",
  outro: "Bye",
  countdownSeconds: 5,
  questions: [
    { question: "One?", answers: ["a", "b", "c"], correct: 0 },
    { question: "Two?", answers: ["a", "b"], correct: 1, explanation: "Because." }
  ]
}

const SPEECH = { intro: 1, questions: [{ question: 2, explanation: null }, { question: 1.5, explanation: 3 }], outro: 1.2 }

describe("quizSchedule", () => {
  const schedule = quizSchedule(QUIZ, SPEECH)
  const [first, second] = schedule.questions

  it("reads each question, then staggers its answers, counts down and reveals", () => {
    expect(first!.speechAt).toBeCloseTo(first!.at + CARD_ENTRANCE_SECONDS)
    expect(first!.answersAt).toHaveLength(3)
    expect(first!.answersAt[1]! - first!.answersAt[0]!).toBeCloseTo(ANSWER_STAGGER_SECONDS)
    expect(first!.answersAt[0]!).toBeGreaterThan(first!.speechAt + 2)
    expect(first!.revealAt - first!.countdownAt).toBe(5)
    expect(first!.explanation).toBeNull()
    expect(first!.until).toBeCloseTo(first!.revealAt + REVEAL_HOLD_SECONDS)
    expect(second!.at).toBeCloseTo(first!.until)
    expect(second!.explanation!.speechAt).toBeCloseTo(second!.revealAt + EXPLANATION_AFTER_REVEAL_SECONDS)
    expect(second!.until).toBeGreaterThan(second!.explanation!.speechAt + 3)
    expect(schedule.outro.at).toBeCloseTo(second!.until)
    expect(schedule.durationSeconds).toBeCloseTo(schedule.outro.until)
  })

  it("grows by exactly the extra speech and countdown", () => {
    const longer = quizSchedule({ ...QUIZ, countdownSeconds: 7 }, { ...SPEECH, intro: 2 })
    expect(longer.durationSeconds - schedule.durationSeconds).toBeCloseTo(1 + 2 * 2)
  })

  it("says what each frame shows", () => {
    expect(quizMomentAt(schedule, 0.2)).toMatchObject({ card: "intro" })
    const asking = quizMomentAt(schedule, first!.speechAt + 0.5)
    expect(asking).toMatchObject({ card: "question", question: 0, entrance: 1, remaining: null, reveal: 0, answers: [0, 0, 0] })
    const counting = quizMomentAt(schedule, first!.countdownAt + 1.5)
    expect(counting).toMatchObject({ card: "question", answers: [1, 1, 1], reveal: 0 })
    if (counting.card === "question") expect(counting.remaining).toBeCloseTo(3.5)
    expect(quizMomentAt(schedule, first!.revealAt + 1)).toMatchObject({ reveal: 1, remaining: 0, explaining: false })
    expect(quizMomentAt(schedule, second!.explanation!.speechAt + 0.1)).toMatchObject({ question: 1, explaining: true })
    expect(quizMomentAt(schedule, schedule.durationSeconds - 0.1)).toMatchObject({ card: "outro", entrance: 1 })
  })
})

describe("quizProblem", () => {
  it("names a right answer past the answers", () => {
    expect(quizProblem(QUIZ.questions)).toBeNull()
    expect(quizProblem([QUIZ.questions[0]!, { ...QUIZ.questions[1]!, correct: 2 }])).toEqual({
      field: "questions.1.correct",
      message: "correct is 2, but there are only 2 answers (0 to 1)"
    })
  })
})
