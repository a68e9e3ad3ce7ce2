// Clips end to end: a five-minute festival talk of nine distinct paragraphs (each sentence spoken on its own,
// a pause between sentences and a longer one between paragraphs) cut into clips over HTTP. Each clip
// starts and ends in the pauses between sentences, lasts within the bounds, and its caption video shows
// exactly the words the whole talk's transcription has in its span (checked against a caption video of
// the whole talk, the same engine on the same sound). The transcription is charged once, on the clips
// record; the events arrive once each; the 400s name their field.
import { execFile } from "node:child_process"
import { openAsBlob } from "node:fs"
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { captionCredits, clipSelectionCredits } from "../../domain/pricing.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { readWavFormat } from "../support/clips.ts"
import { call, waitForVideo } from "../support/http-client.ts"
import { startHttpsReceiver, type HttpsReceiver } from "../support/https-receiver.ts"
import { probeVideo } from "../support/media-checks.ts"

const run = promisify(execFile)

const PARAGRAPHS = [
  [
    "Why do fishing boats leave the harbour before six in the morning?",
    "The answer is the tide, which turns at dawn along this coast.",
    "When the water rises, the fish follow it close to the shore.",
    "My grandfather sailed from this harbour for forty years.",
    "He never missed a single morning, not even in the winter storms.",
    "He said the sea rewards the people who show up early.",
    "That is still the first rule every young sailor learns here."
  ],
  [
    "The market on the square opens at seven every day of the week.",
    "Farmers bring cheese, bread, apples and honey from the hills.",
    "On Saturdays there are more than two hundred stalls in the square.",
    "The oldest stall sells candles made from the same recipe since eighteen ninety.",
    "People come from the city to buy them before the holidays.",
    "By noon most of the tables are empty and the square is quiet again.",
    "The cafes around it stay open until late in the evening."
  ],
  [
    "Learning to play the piano as an adult is easier than most people think.",
    "You do not need perfect hands or a perfect ear to begin.",
    "Twenty minutes of practice a day is enough to make real progress.",
    "The biggest mistake is to practise only the pieces you already know.",
    "Play slowly, and play the hard parts again and again.",
    "After three months most students can play a simple song with both hands.",
    "That first song is a moment nobody forgets."
  ],
  [
    "The old railway line through the valley closed in nineteen sixty two.",
    "For fifty years the tracks were covered by grass and small trees.",
    "Then a group of volunteers decided to turn the line into a walking path.",
    "They cleared eleven miles of ground with their own tools on weekends.",
    "The path opened last spring with a small party at the old station.",
    "Now families walk and cycle there every weekend of the year.",
    "The station itself has become a little museum of the railway."
  ],
  [
    "Have you ever wondered how bees find their way home?",
    "Bees use the position of the sun as a compass in the sky.",
    "They also remember shapes and colours along the way they flew.",
    "A single bee can fly more than five miles to find flowers.",
    "When she returns, she dances to tell the others where to go.",
    "The angle of the dance points the way, and its length shows the distance.",
    "It is one of the most remarkable languages in the animal world."
  ],
  [
    "A good night of sleep does more for your memory than an hour of study.",
    "While you sleep, the brain replays what you learned during the day.",
    "Scientists have measured this in students before and after an exam.",
    "Those who slept eight hours remembered almost twice as much.",
    "Coffee late in the afternoon can cut your deep sleep in half.",
    "A dark, cool room and a fixed bedtime help more than any pill.",
    "Try it for one week and you will feel the difference."
  ],
  [
    "Our town library started with one shelf of books in a school hallway.",
    "Today it lends more than thirty thousand books a year.",
    "Children can borrow musical instruments as well as books.",
    "On Tuesdays a volunteer teaches older people to use their phones.",
    "The reading room is warm and bright, even on grey winter days.",
    "Last year the library moved into the old post office building.",
    "The new room for children is full every afternoon after school."
  ],
  [
    "What makes bread rise in the oven?",
    "Yeast eats the sugar in the dough and breathes out tiny bubbles of gas.",
    "The gluten in the flour traps those bubbles like a net.",
    "Heat makes the gas grow, so the loaf rises before the crust sets.",
    "Too much salt slows the yeast down, and too little makes flat bread.",
    "Bakers let the dough rest for hours to give the flavour time to grow.",
    "Patience is the secret ingredient of every great loaf."
  ],
  [
    "The lighthouse on the point was built by hand in eighteen forty.",
    "Its keeper climbed one hundred and twelve steps every evening to light the lamp.",
    "In a storm the light could be seen twenty miles out at sea.",
    "The last keeper left when the lamp became automatic.",
    "Visitors can now climb the tower on summer afternoons.",
    "From the top you can see three islands and, on clear days, the mountains.",
    "It is the best view on the whole coast."
  ]
]

const SENTENCE_GAP = 0.7
const PARAGRAPH_GAP = 1.6

let app: TestApp
let dir: string
let talk: string
let receiver: HttpsReceiver
/** Where each sentence is spoken in the talk, in seconds. */
let sentences: Array<{ start: number; end: number }> = []

const schemeString = (s: string): string => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`

/** Every sentence spoken on its own by one festival run (HTS voice slt). */
const speakSentences = async (texts: ReadonlyArray<string>): Promise<Array<string>> => {
  const paths = texts.map((_, i) => join(dir, `sentence-${i}.wav`))
  const script = join(dir, "sentences.scm")
  await writeFile(script, [
    "(voice_cmu_us_slt_arctic_hts)",
    ...texts.map((text, i) => `(utt.save.wave (utt.synth (Utterance Text ${schemeString(text)})) ${schemeString(paths[i]!)} 'riff)`)
  ].join("\n"))
  await run("festival", ["-b", script], { timeout: 120_000 })
  return paths
}

beforeAll(async () => {
  app = await startApp()
  dir = await mkdtemp(join(tmpdir(), "clips-e2e-"))
  receiver = await startHttpsReceiver()
  const texts = PARAGRAPHS.flat()
  const spoken = await speakSentences(texts)
  const { sampleRate } = await readWavFormat(spoken[0]!)
  const silence = async (seconds: number) => {
    const path = join(dir, `silence-${seconds}.wav`)
    await run("ffmpeg", ["-nostdin", "-y", "-v", "error", "-f", "lavfi", "-i", `anullsrc=r=${sampleRate}:cl=mono`, "-t", String(seconds), "-c:a", "pcm_s16le", path])
    return path
  }
  const [short, long] = [await silence(SENTENCE_GAP), await silence(PARAGRAPH_GAP)]
  const list: Array<string> = []
  let at = 0
  let index = 0
  for (const paragraph of PARAGRAPHS) {
    for (let i = 0; i < paragraph.length; i++) {
      const wav = spoken[index++]!
      const { durationSeconds } = await readWavFormat(wav)
      sentences.push({ start: at, end: at + durationSeconds })
      list.push(`file '${wav}'`)
      at += durationSeconds
      const gap = i === paragraph.length - 1 ? PARAGRAPH_GAP : SENTENCE_GAP
      list.push(`file '${gap === SENTENCE_GAP ? short : long}'`)
      at += gap
    }
  }
  await writeFile(join(dir, "list.txt"), list.join("\n"))
  await run("ffmpeg", ["-nostdin", "-y", "-v", "error", "-f", "concat", "-safe", "0", "-i", join(dir, "list.txt"), "-c:a", "pcm_s16le", join(dir, "talk.wav")])
  talk = join(dir, "talk.mp4")
  await run("ffmpeg", [
    "-nostdin", "-y", "-v", "error",
    "-f", "lavfi", "-i", "color=c=0x3a5a7a:s=320x180:r=15", "-i", join(dir, "talk.wav"),
    "-shortest", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", talk
  ])
}, 180_000)

afterAll(async () => {
  await receiver?.close()
  await app?.close()
  await rm(dir, { recursive: true, force: true })
})

const upload = async (path: string, route: string, token: string, fields: Readonly<Record<string, string>>) => {
  const form = new FormData()
  form.set("file", await openAsBlob(path), "talk.mp4")
  for (const [name, value] of Object.entries(fields)) form.set(name, value)
  return call(app.baseUrl, route, { token, form })
}

const waitForClips = async (token: string, id: string, timeoutMs = 300_000): Promise<any> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const { status, body } = await call(app.baseUrl, `/v1/clips/${id}`, { token })
    if (status !== 200) throw new Error(`GET clips ${id}: ${status} ${JSON.stringify(body)}`)
    if (body.status !== "processing") return body
    if (Date.now() > deadline) throw new Error(`clips ${id} still ${JSON.stringify(body)}`)
    await new Promise((r) => setTimeout(r, 300))
  }
}

type Word = { text: string; start: number; end: number }

describe("clips", () => {
  it("cuts a five-minute talk into clips of whole sentences, each a caption video with the talk's own words of its span, transcribed and charged once", async () => {
    const { token } = await app.createWorkspace({ credits: 1000 })
    const [created, whole] = await Promise.all([
      upload(talk, "/v1/clips", token, { count: "3", minSeconds: "20", maxSeconds: "45", webhookUrl: `${receiver.url}/clips` }),
      upload(talk, "/v1/caption-videos", token, {})
    ])
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ status: "processing" })
    const clips = await waitForClips(token, created.body.id)
    expect(clips.error).toBeUndefined()
    expect(clips).toMatchObject({ status: "completed", step: "completed", count: 3, minSeconds: 20, maxSeconds: 45, render: false })
    expect(clips.duration).toBeGreaterThan(270)
    expect(clips.clips).toHaveLength(3)

    const reference = await waitForVideo(app.baseUrl, token, whole.body.id, undefined, 300_000)
    expect(reference.status).toBe("completed")
    const talkWords = (await call(app.baseUrl, `/v1/videos/${whole.body.id}/captions`, { token })).body.words as Array<Word>

    const scores = clips.clips.map((c: { score: number }) => c.score)
    expect(scores).toEqual([...scores].sort((a, b) => b - a))
    for (const [i, clip] of (clips.clips as Array<any>).entries()) {
      // Within the bounds, and not overlapping another.
      expect(clip.duration).toBeGreaterThanOrEqual(20)
      expect(clip.duration).toBeLessThanOrEqual(45)
      for (const other of (clips.clips as Array<any>).slice(i + 1)) {
        expect(clip.endSeconds <= other.startSeconds || other.endSeconds <= clip.startSeconds).toBe(true)
      }
      // Starts just before a sentence and ends just after one: in the pauses, never inside a sentence, and not in a long silence.
      expect(sentences.some((s) => clip.startSeconds <= s.start + 0.35 && clip.startSeconds >= s.start - 0.6), `start ${clip.startSeconds}`).toBe(true)
      expect(sentences.some((s) => clip.endSeconds >= s.end - 0.35 && clip.endSeconds <= s.end + 0.7), `end ${clip.endSeconds}`).toBe(true)
      for (const s of sentences) {
        expect(clip.startSeconds > s.start + 0.35 && clip.startSeconds < s.end - 0.35, `start ${clip.startSeconds} inside ${JSON.stringify(s)}`).toBe(false)
        expect(clip.endSeconds > s.start + 0.35 && clip.endSeconds < s.end - 0.35, `end ${clip.endSeconds} inside ${JSON.stringify(s)}`).toBe(false)
      }
      expect(clip.reasons).toEqual(expect.any(Array))
      expect(clip.firstLine.length).toBeGreaterThan(0)

      // The clip's video: its own record, cut to the clip's length, completed as an editable project.
      expect(clip.editorUrl).toEqual(expect.stringContaining("/editor/"))
      const video = await waitForVideo(app.baseUrl, token, clip.videoId)
      expect(video).toMatchObject({ kind: "caption", status: "completed" })
      expect(video.duration).toBeCloseTo(clip.duration, 0)
      const own = (await call(app.baseUrl, `/v1/videos/${clip.videoId}/captions`, { token })).body.words as Array<Word>
      const span = talkWords.filter((w) => w.start >= clip.startSeconds - 0.001 && w.end <= clip.endSeconds + 0.001)
      expect(own.map((w) => w.text)).toEqual(span.map((w) => w.text))
      own.forEach((w, k) => expect(Math.abs(w.start + clip.startSeconds - span[k]!.start)).toBeLessThan(0.003))
      // Not transcribed again, nor charged for it.
      const logs = (await call(app.baseUrl, `/v1/credit-logs?videoId=${clip.videoId}`, { token })).body.data as Array<unknown>
      expect(logs).toEqual([])
    }

    // The transcription and the choosing, charged once on the record.
    expect(clips.creditsCharged).toBe(captionCredits(clips.duration) + clipSelectionCredits(clips.duration))
    const entries = (await call(app.baseUrl, "/v1/credit-logs?limit=100", { token })).body.data as Array<{ operation: string; amount: number; videoId?: string }>
    const own = entries.filter((e) => e.videoId === undefined || e.videoId === null)
    expect(own.filter((e) => e.operation === "clip selection").map((e) => e.amount)).toEqual([-clipSelectionCredits(clips.duration)])
    expect(own.filter((e) => e.operation === "captions").map((e) => e.amount)).toEqual([-captionCredits(clips.duration)])

    // One clips.completed, and one video.completed per clip.
    const deadline = Date.now() + 30_000
    const mine = () => receiver.requests.filter((r) => r.path.startsWith("/clips"))
    while (mine().length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
    await new Promise((r) => setTimeout(r, 500))
    const events = mine()
    expect(events.filter((e) => e.headers["x-service-event"] === "clips.completed")).toHaveLength(1)
    const completed = JSON.parse(events.find((e) => e.headers["x-service-event"] === "clips.completed")!.body)
    expect(completed.clips).toMatchObject({ id: created.body.id, status: "completed" })
    expect(completed.clips.clips.map((c: { videoId: string }) => c.videoId)).toEqual(clips.clips.map((c: { videoId: string }) => c.videoId))
    const videoEvents = events.filter((e) => e.headers["x-service-event"] === "video.completed").map((e) => e.headers["x-service-video-id"])
    expect([...videoEvents].sort()).toEqual(clips.clips.map((c: { videoId: string }) => c.videoId).sort())
  }, 600_000)

  it("renders a reframed clip at the shape asked when `render` is set", async () => {
    const { token } = await app.createWorkspace({ credits: 1000 })
    const short = join(dir, "short.mp4")
    await run("ffmpeg", ["-nostdin", "-y", "-v", "error", "-i", talk, "-t", String(sentences[6]!.end + 0.5), "-c", "copy", short])
    const created = await upload(short, "/v1/clips", token, {
      count: "1", minSeconds: "10", maxSeconds: "30", reframe: JSON.stringify({ aspectRatio: "9:16", mode: "center" }), render: "{}"
    })
    expect(created.status).toBe(200)
    const clips = await waitForClips(token, created.body.id)
    expect(clips).toMatchObject({ status: "completed", render: true, reframe: { aspectRatio: "9:16", mode: "center" } })
    const video = await waitForVideo(app.baseUrl, token, clips.clips[0].videoId, undefined, 180_000)
    expect(video).toMatchObject({ status: "completed", width: 1080, height: 1920 })
    const mp4 = join(dir, "clip.mp4")
    await writeFile(mp4, Buffer.from(await (await fetch(video.videoUrl)).arrayBuffer()))
    const probed = await probeVideo(mp4)
    expect(probed).toMatchObject({ width: 1080, height: 1920 })
    expect(probed.duration).toBeCloseTo(clips.clips[0].duration, 0)
  }, 300_000)

  it("fails a talk without speech, refunds the transcription, and sends clips.failed once", async () => {
    const { token } = await app.createWorkspace({ credits: 100 })
    const quiet = join(dir, "quiet.mp4")
    await run("ffmpeg", [
      "-nostdin", "-y", "-v", "error", "-f", "lavfi", "-i", "color=c=gray:s=320x180:r=15", "-f", "lavfi", "-i", "anullsrc=r=16000:cl=mono",
      "-t", "12", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", quiet
    ])
    const created = await upload(quiet, "/v1/clips", token, { minSeconds: "5", maxSeconds: "10", webhookUrl: `${receiver.url}/quiet` })
    const clips = await waitForClips(token, created.body.id)
    expect(clips).toMatchObject({ status: "failed", step: "transcribing", clips: [], creditsCharged: captionCredits(12), refunded: true, refundedCredits: captionCredits(12) })
    expect(clips.error).toContain("No speech")
    expect((await call(app.baseUrl, "/v1/workspace", { token })).body.credits).toBe(100)
    const deadline = Date.now() + 30_000
    const mine = () => receiver.requests.filter((r) => r.path === "/quiet")
    while (mine().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
    await new Promise((r) => setTimeout(r, 500))
    expect(mine().map((r) => r.headers["x-service-event"])).toEqual(["clips.failed"])
    expect(mine()[0]!.headers["x-service-job-id"]).toBe(created.body.id)
    expect(JSON.parse(mine()[0]!.body).clips).toMatchObject({ id: created.body.id, status: "failed", refunded: true })
  }, 120_000)

  it("fails when a clip can no longer be made a video (its template was deleted), leaving no cut file behind", async () => {
    const { token, workspaceId } = await app.createWorkspace({ credits: 1000 })
    const template = await call(app.baseUrl, "/v1/caption-templates", { token, json: { name: "Gone soon", basedOn: -5 } })
    expect(template.status).toBe(200)
    const short = join(dir, "short-2.mp4")
    await run("ffmpeg", ["-nostdin", "-y", "-v", "error", "-i", talk, "-t", String(sentences[6]!.end + 0.5), "-c", "copy", short])
    const created = await upload(short, "/v1/clips", token, { count: "1", minSeconds: "10", maxSeconds: "30", templateId: String(template.body.id) })
    expect(created.status).toBe(200)
    // Transcribing takes seconds: the template is gone before the clip is cut.
    expect((await call(app.baseUrl, `/v1/caption-templates/${template.body.id}`, { token, method: "DELETE" })).status).toBe(200)
    const clips = await waitForClips(token, created.body.id)
    expect(clips).toMatchObject({ status: "failed", step: "cutting", refunded: true })
    expect(clips.error).toContain("Clip 1 could not be made a video")
    // Only the uploaded talk is stored: the cut clip's file went with the failed transaction.
    expect(await readdir(join(app.dataDir, "blobs", workspaceId))).toHaveLength(1)
  }, 120_000)

  it("refuses bad bounds, counts and shapes with a 400 naming the field, in JSON and in forms, creating nothing", async () => {
    const { token } = await app.createWorkspace({ credits: 1000 })
    const url = "http://127.0.0.1:9/talk.mp4"
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ count: 0 }, "count"],
      [{ count: 21 }, "count"],
      [{ minSeconds: 2 }, "minSeconds"],
      [{ maxSeconds: 400 }, "maxSeconds"],
      [{ minSeconds: 40, maxSeconds: 42 }, "maxSeconds"],
      [{ reframe: { aspectRatio: "3:1", mode: "face" } }, "reframe.aspectRatio"]
    ]
    for (const [fields, field] of cases) {
      const answer = await call(app.baseUrl, "/v1/clips", { token, json: { url, ...fields } })
      expect(answer.status, JSON.stringify(fields)).toBe(400)
      expect(answer.body.error.details.field, JSON.stringify(fields)).toBe(field)
      const form = await upload(talk, "/v1/clips", token, Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, typeof v === "object" ? JSON.stringify(v) : String(v)])))
      expect(form.status, JSON.stringify(fields)).toBe(400)
      expect(form.body.error.details.field, JSON.stringify(fields)).toBe(field)
    }
    const free = await app.createWorkspace({ plan: "free", credits: 100 })
    expect((await call(app.baseUrl, "/v1/clips", { token: free.token, json: { url, render: {} } })).status).toBe(403)
    const other = await app.createWorkspace()
    const mine = await call(app.baseUrl, "/v1/clips", { token, json: { url } })
    expect(mine.status).toBe(200)
    expect((await call(app.baseUrl, `/v1/clips/${mine.body.id}`, { token: other.token })).status).toBe(404)
  }, 120_000)
})
