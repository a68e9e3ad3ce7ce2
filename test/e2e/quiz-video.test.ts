// Quiz videos end to end: three questions become an mp4 whose length is the speech (each piece
// measured on its own through text to speech) plus the countdowns and reveals; ticks are heard during
// a countdown; bad requests name their field. Also over MCP, with the same validation.
import { Effect } from "effect"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DEFAULT_OUTRO, quizSchedule, REVEAL_HOLD_SECONDS } from "../../domain/quiz.ts"
import { connectMcp, textOf } from "../mcp/mcp-client.ts"
import { Ledger } from "../../domain/ports/ledger.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { FESTIVAL_FAILURE, startAppWithBrokenFestival } from "../support/broken-festival.ts"
import { readFrame } from "../support/clips.ts"
import { call, waitForVideo } from "../support/http-client.ts"
import { download, loudness, probeVideo as probe } from "../support/media-checks.ts"

let app: TestApp

beforeAll(async () => {
  app = await startApp()
})

afterAll(async () => {
  await app?.close()
})

const QUIZ = {
  title: "Capitals quiz",
  countdownSeconds: 3,
  questions: [
    { question: "What is the capital of France?", answers: ["Paris", "Lyon", "Nice"], correct: 0 },
    {
      question: "What is the capital of Australia?",
      answers: ["Sydney", "Canberra", "Melbourne", "Perth"],
      correct: 1,
      explanation: "Canberra was chosen as a compromise between Sydney and Melbourne."
    },
    { question: "What is the capital of Japan?", answers: ["Osaka", "Tokyo"], correct: 1 }
  ]
}

const speechSeconds = async (token: string, script: string): Promise<number> => {
  const answer = await call(app.baseUrl, "/v1/text-to-speech", { token, json: { script } })
  expect(answer.status).toBe(200)
  return answer.body.duration as number
}

describe("quiz videos", () => {
  it("makes three questions into an mp4 lasting their speech, countdowns and reveals", async () => {
    const { token } = await app.createWorkspace({ credits: 2000 })
    const created = await call(app.baseUrl, "/v1/quiz-videos", { token, json: { ...QUIZ, theme: "midnight", render: {} } })
    expect(created.status).toBe(200)
    const video = await waitForVideo(app.baseUrl, token, created.body.id)
    expect(video).toMatchObject({ status: "completed", kind: "quiz", width: 1080, height: 1920 })

    const content = { title: QUIZ.title, questions: QUIZ.questions, outro: DEFAULT_OUTRO, countdownSeconds: QUIZ.countdownSeconds }
    const schedule = quizSchedule(content, {
      intro: await speechSeconds(token, QUIZ.title),
      questions: await Promise.all(QUIZ.questions.map(async (q) => ({
        question: await speechSeconds(token, q.question),
        explanation: "explanation" in q && q.explanation !== undefined ? await speechSeconds(token, q.explanation) : null
      }))),
      outro: await speechSeconds(token, DEFAULT_OUTRO)
    })
    expect(video.duration).toBeCloseTo(schedule.durationSeconds, 1)
    // The length is made of the speech, the three countdowns and at least the reveal holds.
    const spoken = schedule.intro.speechSeconds + schedule.outro.speechSeconds +
      schedule.questions.reduce((sum, q) => sum + q.speechSeconds + (q.explanation?.speechSeconds ?? 0), 0)
    expect(video.duration).toBeGreaterThan(spoken + 3 * QUIZ.countdownSeconds + 3 * REVEAL_HOLD_SECONDS)

    const mp4 = await download(video.videoUrl, app.dataDir, "quiz.mp4")
    const facts = await probe(mp4)
    expect(facts).toMatchObject({ width: 1080, height: 1920, hasAudio: true })
    expect(Math.abs(facts.duration - video.duration)).toBeLessThan(0.1)

    // A tick sounds at each second of the first countdown, and between ticks it is quiet.
    const first = schedule.questions[0]!
    expect(await loudness(mp4, first.countdownAt, first.countdownAt + 0.06)).toBeGreaterThan(0.01)
    expect(await loudness(mp4, first.countdownAt + 0.5, first.countdownAt + 0.9)).toBeLessThan(0.005)

    // Before and after the reveal the frame changes where the answers are (the right one turns green).
    const before = await readFrame(mp4, first.revealAt - 0.2, 1080, 1920)
    const after = await readFrame(mp4, first.revealAt + 0.6, 1080, 1920)
    let changed = 0
    for (let i = 0; i < before.rgb.length; i += 3) if (Math.abs(before.rgb[i + 1]! - after.rgb[i + 1]!) > 40) changed++
    expect(changed / (1080 * 1920)).toBeGreaterThan(0.005)
  }, 240_000)

  it("refuses a right answer past the answers, over HTTP and MCP alike, creating nothing", async () => {
    const { token } = await app.createWorkspace({ credits: 100 })
    const bad = { questions: [{ question: "Two plus two?", answers: ["4", "5"], correct: 2 }] }
    const answer = await call(app.baseUrl, "/v1/quiz-videos", { token, json: bad })
    expect(answer.status).toBe(400)
    expect(answer.body.error.details.field).toBe("questions.0.correct")
    const one = await call(app.baseUrl, "/v1/quiz-videos", { token, json: { questions: [{ question: "Alone?", answers: ["yes"], correct: 0 }] } })
    expect(one.status).toBe(400)
    expect(one.body.error.message).toMatch(/2 to 6 answers/)
    const client = await connectMcp(app.baseUrl, token)
    try {
      const result = await client.callTool({ name: "create_quiz_video", arguments: bad })
      expect(result.isError).toBe(true)
      expect(textOf(result)).toMatch(/questions\.0\.correct/)
    } finally {
      await client.close()
    }
    expect((await call(app.baseUrl, "/v1/videos", { token })).body.data).toEqual([])
  })

  it("ends failed with a readable error when its voice cannot speak, charging nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "quiz-broken-voice-"))
    const broken = await startAppWithBrokenFestival(dir, { worker: true })
    try {
      const { token, workspaceId } = await broken.createWorkspace({ credits: 100 })
      const created = await call(broken.baseUrl, "/v1/quiz-videos", { token, json: { ...QUIZ, voiceId: "festival-slt" } })
      expect(created.status).toBe(200)
      const video = await waitForVideo(broken.baseUrl, token, created.body.id)
      expect(video.status).toBe("failed")
      // The quiz's lines are spoken side by side: whichever fails first is the one named.
      expect(video.error).toMatch(/^The voice festival-slt could not speak "[^"]+"/)
      expect(video.error).toContain(FESTIVAL_FAILURE)
      expect(video.error).toContain("choose another voice")
      expect(await broken.runtime.runPromise(Effect.flatMap(Ledger, (l) => l.balance(workspaceId)))).toBe(100)
    } finally {
      await broken.close()
      await rm(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
