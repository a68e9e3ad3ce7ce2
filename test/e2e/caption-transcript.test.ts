// A caption video with the user's own script (issue 18): the captions show the script's words exactly as
// written, each timed by forced alignment to festival speech whose word times festival itself reports.
// SRT cue times anchor the alignment; a malformed file is a 400 naming `transcript` and its line; a script
// of other speech fails the video with an error that says so.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startApp, type TestApp } from "../support/app.ts"
import { makeSpokenClip, type SpokenClip } from "../support/clips.ts"
import { call, serveFiles, waitForVideo } from "../support/http-client.ts"

/** Festival says "$42" as "forty two dollars", "1999" as "nineteen ninety nine", and the invented name as its lexicon's rules do. */
const SCRIPT = "Captain Zorblatt paid $42 for three maps of the harbour in 1999. The weather was kind, so the crew sailed at dawn!"

let app: TestApp
let token: string
let clip: SpokenClip
let files: Awaited<ReturnType<typeof serveFiles>>

beforeAll(async () => {
  app = await startApp()
  token = (await app.createWorkspace()).token
  const dir = await mkdtemp(join(tmpdir(), "caption-transcript-"))
  clip = await makeSpokenClip({ text: SCRIPT, width: 360, height: 640, fps: 30, silenceBefore: 0.5, silenceAfter: 1, dir })
  files = await serveFiles({ "clip.mp4": { path: clip.path, contentType: "video/mp4" } })
})

afterAll(async () => {
  await files?.close()
  await app?.close()
})

const captionWith = async (transcript: string) => {
  const created = await call(app.baseUrl, "/v1/caption-videos", { token, json: { url: files.url("clip.mp4"), transcript } })
  expect(created.status).toBe(200)
  return waitForVideo(app.baseUrl, token, created.body.id)
}

const captionWords = async (id: string) =>
  (await call(app.baseUrl, `/v1/videos/${id}/captions`, { token })).body.words as Array<{ text: string; start: number; end: number }>

/** |aligned start - festival's start| of each word, in seconds. */
const startErrors = (words: ReadonlyArray<{ start: number }>) => words.map((w, i) => Math.abs(w.start - clip.words[i]!.start))

describe("caption videos with a transcript", () => {
  it("shows the script's words exactly as written, each starting within 80 ms of where festival said it", async () => {
    const video = await captionWith(SCRIPT)
    expect({ status: video.status, error: video.error }).toEqual({ status: "completed", error: undefined })
    const words = await captionWords(video.id)
    expect(words.map((w) => w.text)).toEqual(SCRIPT.split(" "))
    // festival's words are its tokens' words ("$42" is three), so compare the words it said one for one.
    expect(clip.words.length).toBeGreaterThanOrEqual(words.length)
    const oneForOne = SCRIPT.split(" ").flatMap((w, i) => (/\d/.test(w) ? [] : [i]))
    const said = clip.words.filter((w) => !/^(forty|two|dollars|nineteen|ninety|nine)$/.test(w.text))
    const errors = oneForOne.map((i, k) => Math.abs(words[i]!.start - said[k]!.start))
    expect(Math.max(...errors)).toBeLessThan(0.08)
    for (const w of words) expect(w.end).toBeGreaterThan(w.start)
  })

  it("keeps an SRT's words and aligns them inside their cues", async () => {
    const cut = 9 // "The weather ..." starts the second cue.
    const at = (s: number) => `00:00:${s.toFixed(3).padStart(6, "0").replace(".", ",")}`
    const first = clip.words[0]!.start - 0.2
    const middle = (clip.words[cut - 1]!.end + clip.words[cut]!.start) / 2
    const srt = `1\n${at(first)} --> ${at(middle)}\n${SCRIPT.split(" ").slice(0, cut).join(" ")}\n\n` +
      `2\n${at(middle)} --> ${at(clip.durationSeconds - 0.5)}\n<i>${SCRIPT.split(" ").slice(cut).join(" ")}</i>\n`
    const video = await captionWith(srt)
    expect(video.status).toBe("completed")
    const words = await captionWords(video.id)
    expect(words.map((w) => w.text)).toEqual(SCRIPT.split(" "))
    expect(words[cut]!.start).toBeGreaterThanOrEqual(middle)
    expect(Math.abs(words[cut]!.start - clip.words.find((w) => w.text === "the" && w.start > middle)!.start)).toBeLessThan(0.08)
    expect(startErrors(words.slice(0, 1))[0]).toBeLessThan(0.08)
  })

  it("refuses a malformed SRT or VTT with a 400 naming transcript and the line", async () => {
    const cases = [
      ["1\n00:00:01,000 --> 00:00:02,000\nHello\n\n2\n00:00:03,000 -> 00:00:04,000\nthere\n", /line 5/],
      ["WEBVTT\n\n00:01.000 --> 00:00.500\nbackwards\n", /line 3: the cue ends before it starts/],
      ["1\n00:00:05,000 --> 00:00:06,000\nlater\n\n2\n00:00:01,000 --> 00:00:02,000\nearlier\n", /line 6: .*time order/],
      ["   \n", /no words/]
    ] as const
    for (const [transcript, reason] of cases) {
      const refused = await call(app.baseUrl, "/v1/caption-videos", { token, json: { url: files.url("clip.mp4"), transcript } })
      expect(refused.status).toBe(400)
      expect(refused.body.error.details.field).toBe("transcript")
      expect(refused.body.error.message).toMatch(reason)
    }
  })

  it("fails the video, with an error that says so, when the transcript is of other speech", async () => {
    const other = "Quarterly revenue grew slowly while analysts questioned every projection management offered during the lengthy investor call yesterday afternoon."
    const video = await captionWith(other)
    expect(video.status).toBe("failed")
    expect(video.step).toBe("aligning")
    expect(video.error).toMatch(/transcript does not match the speech/)
  })
})
