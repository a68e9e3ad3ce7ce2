// The quiz screen draws what a quiz video shows at any moment: the right answer's row turns the theme's
// green at the reveal (and only then), the countdown ring shows once the countdown starts with its
// arc and whole seconds, `transparent` leaves the frame clear around the cards, moments with equal
// keys are the same picture, and every size keeps its cards and text inside the frame.
import { createCanvas, type SKRSContext2D } from "@napi-rs/canvas"
import { describe, expect, it } from "vitest"
import { type Paragraph, QuizScreen, type Rect } from "../../adapters/quiz/quiz-screen.ts"
import { QUIZ_THEMES, quizTheme } from "../../domain/quiz-themes.ts"
import {
  MAX_ANSWER_CHARACTERS,
  MAX_ANSWERS,
  MAX_EXPLANATION_CHARACTERS,
  MAX_QUESTION_CHARACTERS,
  type QuizContent,
  type QuizMoment,
  quizMomentAt,
  quizSchedule
} from "../../domain/quiz.ts"

const QUIZ: QuizContent = {
  title: "Only 1 in 10 get these right 🤯",
  questions: [
    {
      question: "Which planet has the most moons?",
      answers: ["Jupiter", "Saturn", "Neptune", "Mars"],
      correct: 1,
      explanation: "Saturn has 274 known moons."
    },
    { question: "ما هي عاصمة فرنسا؟", answers: ["باريس", "ليون", "مرسيليا"], correct: 0 }
  ],
  outro: "How many did you get right?",
  countdownSeconds: 5
}

const asked = (over: Partial<Extract<QuizMoment, { card: "question" }>> = {}): QuizMoment => ({
  card: "question",
  question: 0,
  entrance: 1,
  answers: [1, 1, 1, 1],
  remaining: null,
  reveal: 0,
  explaining: false,
  ...over
})

const draw = (screen: QuizScreen, ctx: SKRSContext2D, moment: QuizMoment) => {
  screen.draw(ctx, moment)
  const { width, height } = ctx.canvas
  const data = ctx.getImageData(0, 0, width, height).data
  const at = (x: number, y: number) => {
    const i = (Math.round(y) * width + Math.round(x)) * 4
    return [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!] as const
  }
  const hex = (x: number, y: number) => `#${at(x, y).slice(0, 3).map((v) => v.toString(16).padStart(2, "0")).join("")}`.toUpperCase()
  return { data: Buffer.from(data), at, hex }
}

const setUp = (quiz: QuizContent, themeId: "classic" | "midnight" | "candy", width: number, height: number, fill: ConstructorParameters<typeof QuizScreen>[5] = "theme") => {
  const ctx = createCanvas(width, height).getContext("2d")
  return { ctx, screen: new QuizScreen(ctx, quiz, quizTheme(themeId), width, height, fill) }
}

/** A point in a row away from its (short, left-aligned) text. */
const emptyPartOf = (r: Rect) => ({ x: r.x + r.w * 0.85, y: r.y + r.h / 2 })

describe.each(QUIZ_THEMES.map((t) => [t.id, t] as const))("the %s quiz screen", (id, theme) => {
  it("turns the right answer's row green at the reveal, not before, and dims the others", () => {
    const { ctx, screen } = setUp(QUIZ, id, 360, 640)
    const layout = screen.questions[0]!
    const right = emptyPartOf(layout.answers[1]!.rect)
    const wrong = emptyPartOf(layout.answers[2]!.rect)
    const before = draw(screen, ctx, asked({ remaining: 1.2 }))
    expect(before.hex(right.x, right.y)).not.toBe(theme.correct.fill)
    const wrongBefore = before.hex(wrong.x, wrong.y)
    const after = draw(screen, ctx, asked({ remaining: 0, reveal: 1 }))
    expect(after.hex(right.x, right.y)).toBe(theme.correct.fill)
    expect(after.hex(wrong.x, wrong.y)).not.toBe(theme.correct.fill)
    expect(after.hex(wrong.x, wrong.y), "a wrong answer is dimmed").not.toBe(wrongBefore)
  })

  it("fills the frame with the theme's background, a colour, or nothing", () => {
    const moment = asked({ remaining: 3 })
    for (const fill of ["theme", { colour: "#00FF00" }, "transparent"] as const) {
      const { ctx, screen } = setUp(QUIZ, id, 360, 640, fill)
      const { at, hex } = draw(screen, ctx, moment)
      for (const [x, y] of [[0, 0], [359, 639], [2, 320]] as const) {
        if (fill === "transparent") expect(at(x, y)[3], `alpha at ${x},${y}`).toBe(0)
        else expect(at(x, y)[3]).toBe(255)
        if (typeof fill === "object") expect(hex(x, y)).toBe("#00FF00")
      }
      const card = screen.questions[0]!.card
      expect(at(card.x + 8, card.y + card.h / 2)[3], "the card is drawn over it").toBeGreaterThan(0)
    }
  })
})

describe("the countdown ring", () => {
  const { ctx, screen } = setUp(QUIZ, "classic", 1080, 1920)
  const theme = quizTheme("classic")
  const { cx, cy, r } = screen.questions[0]!.ring
  const band = r * 0.8

  it("shows once the countdown starts, its arc shrinking from the top, red in the last three seconds", () => {
    const waiting = draw(screen, ctx, asked())
    expect(waiting.hex(cx, cy - band)).not.toBe(theme.ring.progress)
    expect(waiting.hex(cx, cy)).not.toBe(theme.ring.disc)
    const early = draw(screen, ctx, asked({ remaining: 4.4 }))
    expect(early.hex(cx - band, cy), "88% of the arc left: past three quarters").toBe(theme.ring.progress)
    expect(early.hex(cx + band, cy)).toBe(theme.ring.progress)
    const late = draw(screen, ctx, asked({ remaining: 2.4 }))
    expect(late.hex(cx + band, cy), "48% left: a quarter round").toBe(theme.ring.urgent)
    expect(late.hex(cx - band, cy), "three quarters round is past it").toBe(theme.ring.track)
    expect(late.hex(cx - r * 0.6, cy), "the disc").toBe(theme.ring.disc)
  })

  it("shows the whole seconds left: the middle changes at each whole second and only then", () => {
    const middle = (remaining: number) => {
      const { at } = draw(screen, ctx, asked({ remaining }))
      const pixels: Array<number> = []
      for (let y = cy - r * 0.5; y < cy + r * 0.5; y += 2) for (let x = cx - r * 0.5; x < cx + r * 0.5; x += 2) pixels.push(...at(x, y))
      return pixels.join()
    }
    expect(middle(4.05)).not.toBe(middle(3.95))
    expect(middle(3.95)).toBe(middle(3.15))
  })
})

describe("keyOf", () => {
  const { ctx, screen } = setUp(QUIZ, "midnight", 360, 640)

  it("is equal for moments that look alike, and those are drawn as the same picture", () => {
    const pairs: Array<[QuizMoment, QuizMoment]> = [
      [asked({ remaining: 2.43 }), asked({ remaining: 2.41 })],
      [asked({ entrance: 0.93, answers: [0, 0, 0, 0] }), asked({ entrance: 0.97, answers: [0, 0, 0, 0] })],
      [asked({ answers: [1, 0.42, 0, 0] }), asked({ answers: [1, 0.48, 0, 0] })],
      [asked({ remaining: 0, reveal: 0.5 }), asked({ remaining: 0, reveal: 0.45 })],
      [{ card: "intro", entrance: 1 }, { card: "intro", entrance: 1 }]
    ]
    for (const [a, b] of pairs) {
      expect(screen.keyOf(a)).toBe(screen.keyOf(b))
      expect(draw(screen, ctx, a).data.equals(draw(screen, ctx, b).data)).toBe(true)
    }
  })

  it("differs for moments that look different, and so do their pictures", () => {
    const pairs: Array<[QuizMoment, QuizMoment]> = [
      [asked({ remaining: 2.43 }), asked({ remaining: 2.33 })],
      [asked({ remaining: null }), asked({ remaining: 5 })],
      [asked({ entrance: 0.5 }), asked({ entrance: 1 })],
      [asked({ answers: [1, 1, 0.3, 0] }), asked({ answers: [1, 1, 0.6, 0] })],
      [asked({ remaining: 0, reveal: 0.2 }), asked({ remaining: 0, reveal: 0.8 })],
      [asked({ remaining: 0, reveal: 1 }), asked({ remaining: 0, reveal: 1, explaining: true })],
      [asked(), asked({ question: 1, answers: [1, 1, 1] })],
      [{ card: "intro", entrance: 1 }, { card: "outro", entrance: 1 }]
    ]
    for (const [a, b] of pairs) {
      expect(screen.keyOf(a)).not.toBe(screen.keyOf(b))
      expect(draw(screen, ctx, a).data.equals(draw(screen, ctx, b).data)).toBe(false)
    }
  })

  it("keeps a whole quiz to a few pictures: each held for several frames", () => {
    const schedule = quizSchedule(QUIZ, { intro: 2, questions: [{ question: 2, explanation: 2 }, { question: 2, explanation: null }], outro: 2 })
    const frames = Math.round(schedule.durationSeconds * 30)
    const keys = new Set(Array.from({ length: frames }, (_, f) => screen.keyOf(quizMomentAt(schedule, f / 30))))
    expect(keys.size).toBeLessThan(frames / 3)
    // The countdown ticks ten times a second: 5 seconds of it at least.
    expect(keys.size).toBeGreaterThan(50)
  })

  it("before a card enters, only the background shows", () => {
    const empty = draw(screen, ctx, { card: "intro", entrance: 0 }).data
    expect(draw(screen, ctx, asked({ entrance: 0, answers: [0, 0, 0, 0] })).data.equals(empty)).toBe(true)
    expect(draw(screen, ctx, { card: "outro", entrance: 0 }).data.equals(empty)).toBe(true)
    expect(draw(screen, ctx, { card: "outro", entrance: 0.1 }).data.equals(empty)).toBe(false)
  })
})

describe("frame sizes", () => {
  const longest = (n: number) => "How many moons does a planet have, and why? ".repeat(20).slice(0, n)
  const crowded: QuizContent = {
    title: longest(120),
    questions: [
      ...QUIZ.questions,
      {
        question: longest(MAX_QUESTION_CHARACTERS),
        answers: Array.from({ length: MAX_ANSWERS }, (_, i) => i === 5 ? "W".repeat(MAX_ANSWER_CHARACTERS) : longest(MAX_ANSWER_CHARACTERS)),
        correct: 5,
        explanation: longest(MAX_EXPLANATION_CHARACTERS)
      },
      { question: "日本の首都はどこですか？😀", answers: ["東京", "大阪"], correct: 0 }
    ],
    outro: longest(200),
    countdownSeconds: 15
  }

  const inside = (inner: Rect, outer: Rect, what: string) => {
    expect(inner.x, what).toBeGreaterThanOrEqual(outer.x - 0.5)
    expect(inner.y, what).toBeGreaterThanOrEqual(outer.y - 0.5)
    expect(inner.x + inner.w, what).toBeLessThanOrEqual(outer.x + outer.w + 0.5)
    expect(inner.y + inner.h, what).toBeLessThanOrEqual(outer.y + outer.h + 0.5)
  }
  const textInside = (p: Paragraph, outer: Rect, what: string) => {
    inside(p.box, outer, what)
    for (const { line, left } of p.lines) inside({ x: left, y: p.box.y, w: line.width, h: p.box.h }, p.box, `${what}: a line`)
  }

  it.each([[1080, 1920], [1920, 1080], [1080, 1080], [360, 640]])("%ix%i keeps every card and its text inside the frame", (width, height) => {
    const { ctx, screen } = setUp(crowded, "candy", width, height)
    const frame: Rect = { x: 0, y: 0, w: width, h: height }
    for (const title of [screen.intro, screen.outro]) {
      inside(title.card, frame, "title card")
      inside(title.label, frame, "title label")
      textInside(title.text, title.card, "title")
    }
    for (const [i, q] of screen.questions.entries()) {
      inside(q.card, frame, `question ${i}`)
      inside(q.label, frame, `question ${i} label`)
      textInside(q.question, q.card, `question ${i} text`)
      inside({ x: q.ring.cx - q.ring.r, y: q.ring.cy - q.ring.r, w: 2 * q.ring.r, h: 2 * q.ring.r }, frame, "ring")
      for (const [k, a] of q.answers.entries()) {
        inside(a.rect, frame, `question ${i} answer ${k}`)
        textInside(a.text, a.rect, `question ${i} answer ${k} text`)
        const next = q.answers[k + 1]
        if (next !== undefined && next.rect.y !== a.rect.y) expect(next.rect.y, "rows do not overlap").toBeGreaterThan(a.rect.y + a.rect.h)
      }
      if (q.explanation !== null) {
        inside(q.explanation.rect, frame, `question ${i} explanation`)
        textInside(q.explanation.text, q.explanation.rect, `question ${i} explanation text`)
        expect(q.explanation.rect.y).toBeGreaterThan(q.answers.at(-1)!.rect.y + q.answers.at(-1)!.rect.h)
      }
    }
    const moments: Array<QuizMoment> = [
      { card: "intro", entrance: 0.5 },
      { card: "outro", entrance: 1 },
      ...crowded.questions.map((q, i): QuizMoment => asked({ question: i, answers: q.answers.map(() => 1), remaining: 2, reveal: 0.5 })),
      ...crowded.questions.map((q, i): QuizMoment => asked({ question: i, answers: q.answers.map(() => 1), remaining: 0, reveal: 1, explaining: true }))
    ]
    for (const moment of moments) expect(() => screen.draw(ctx, moment)).not.toThrow()
  })

  it("lays answers in two columns on a wide frame and one on a tall one", () => {
    const columns = (width: number, height: number) =>
      new Set(setUp(QUIZ, "classic", width, height).screen.questions[0]!.answers.map((a) => Math.round(a.rect.x))).size
    expect(columns(1080, 1920)).toBe(1)
    expect(columns(1920, 1080)).toBe(2)
  })

  it("lays a right-to-left question's rows from the right: badge on the right, text against it", () => {
    const { screen } = setUp(QUIZ, "classic", 1080, 1920)
    const row = screen.questions[1]!.answers[0]!
    expect(row.badge.cx).toBeGreaterThan(row.rect.x + row.rect.w / 2)
    const line = row.text.lines[0]!
    expect(line.left + line.line.width).toBeCloseTo(row.text.box.x + row.text.box.w)
  })
})
