// A caption video from a real spoken clip, end to end over HTTP: JSON and multipart creation, the
// pipeline with real ffmpeg and pocketsphinx, the mp4 behind its link, the captions as JSON/SRT/VTT.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { execFile } from "node:child_process"
import { mkdtemp, readFile, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { openAsBlob } from "node:fs"
import { readabilityOf } from "../../domain/caption-readability.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { bandDifference, makeSpokenClip, readFrame, type SpokenClip } from "../support/clips.ts"
import { call, serveFiles, waitForVideo } from "../support/http-client.ts"
import { normaliseWords, wordErrors } from "../support/wer.ts"

const run = promisify(execFile)

const probe = async (path: string) => {
  const { stdout } = await run("ffprobe", ["-v", "error", "-show_format", "-show_streams", "-of", "json", path])
  return JSON.parse(stdout) as {
    format: { duration: string }
    streams: Array<{ codec_type: string; codec_name: string; width?: number; height?: number; r_frame_rate?: string; pix_fmt?: string }>
  }
}

let app: TestApp
let token: string
let dir: string
let clip: SpokenClip
let files: Awaited<ReturnType<typeof serveFiles>>

beforeAll(async () => {
  app = await startApp()
  token = (await app.createWorkspace()).token
  dir = await mkdtemp(join(tmpdir(), "caption-e2e-"))
  clip = await makeSpokenClip({
    text: "Captions help people follow the story. The weather is nice today, so we are going to the park.",
    width: 360,
    height: 640,
    fps: 30,
    silenceBefore: 0.5,
    silenceAfter: 1.5,
    dir
  })
  // notes.mp4 and mute.mp4 are written by the tests that fetch them.
  files = await serveFiles({
    "clip.mp4": { path: clip.path, contentType: "video/mp4" },
    "notes.mp4": { path: join(dir, "notes.mp4"), contentType: "video/mp4" },
    "mute.mp4": { path: join(dir, "mute.mp4"), contentType: "video/mp4" }
  })
})

afterAll(async () => {
  await files?.close()
  await app?.close()
})

describe("POST /v1/caption-videos", () => {
  it("captions a video from a url as an editable project: completed, no mp4, captions timed", async () => {
    const created = await call(app.baseUrl, "/v1/caption-videos", { token, json: { url: files.url("clip.mp4") } })
    expect(created.status).toBe(200)
    expect(Object.keys(created.body).sort()).toEqual(["createdAt", "editorUrl", "id", "render", "status"])
    expect(created.body.status).toBe("processing")
    expect(created.body.render).toBe(false)
    expect(created.body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)

    const video = await waitForVideo(app.baseUrl, token, created.body.id)
    expect(video.error).toBeUndefined()
    expect(video.status).toBe("completed")
    expect(video.step).toBe("completed")
    expect(video.videoUrl).toBeUndefined()
    expect(video.duration).toBeCloseTo(clip.durationSeconds, 0)
    expect([video.width, video.height]).toEqual([360, 640])

    const captions = await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token })
    expect(captions.status).toBe(200)
    const recognised = captions.body.words.map((w: { text: string }) => w.text)
    expect(wordErrors(normaliseWords(clip.words.map((w) => w.text)), normaliseWords(recognised)).rate).toBeLessThan(0.25)
    expect(captions.body.pages.length).toBeGreaterThan(1)
    expect(captions.body.language).toBeNull()
    // The readability report is of the pages as served, every line counted.
    expect(captions.body.readability).toEqual(readabilityOf(captions.body.pages))
    expect(captions.body.readability.lines).toBe(captions.body.pages.flatMap((p: { lines: Array<unknown> }) => p.lines).length)
    // pocketsphinx reports each word's posterior probability.
    for (const w of captions.body.words) {
      expect(w.confidence).toBeGreaterThanOrEqual(0)
      expect(w.confidence).toBeLessThanOrEqual(1)
    }

    // No hook and no platform unless asked; both are edits of the project from then on.
    expect(captions.body).toMatchObject({ hook: null, platform: "none" })
    const hooked = await call(app.baseUrl, `/v1/videos/${video.id}/captions`, {
      token,
      method: "PATCH",
      json: { hook: { text: "  Wait for the park  " }, platform: "shorts" }
    })
    expect(hooked.status).toBe(200)
    expect(hooked.body).toMatchObject({ hook: { text: "Wait for the park", seconds: 3 }, platform: "shorts", revision: 1 })
    const unhooked = await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token, method: "PATCH", json: { hook: null } })
    expect(unhooked.body).toMatchObject({ hook: null, platform: "shorts", revision: 2, emphasis: "off" })
    // Emphasis: auto chooses words in the lines as shown, a person's flag is kept, off clears them all.
    const auto = await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token, method: "PATCH", json: { emphasis: "auto" } })
    expect(auto.body.emphasis).toBe("auto")
    const flags = (body: { words: Array<{ emphasis?: boolean }> }) => body.words.map((w) => w.emphasis === true)
    expect(flags(auto.body).filter(Boolean).length).toBeGreaterThan(0)
    const shownLines: Array<{ words: Array<{ emphasis?: boolean }> }> = auto.body.pages.flatMap((p: { lines: Array<unknown> }) => p.lines)
    for (const line of shownLines) expect(line.words.filter((w) => w.emphasis === true).length).toBeLessThanOrEqual(2)
    const toggled = auto.body.words.map((w: { emphasis?: boolean }, i: number) => (i === 0 ? { ...w, emphasis: !(w.emphasis ?? false) } : w))
    const kept = await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token, method: "PATCH", json: { words: toggled } })
    expect(flags(kept.body)).toEqual(toggled.map((w: { emphasis?: boolean }) => w.emphasis === true))
    const off = await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token, method: "PATCH", json: { emphasis: "off" } })
    expect(off.body.emphasis).toBe("off")
    expect(flags(off.body).some(Boolean)).toBe(false)
    // Emoji: auto puts at most one beside each line; a person adds, changes or removes one on a word; off clears them.
    type Word = { text: string; emoji?: string }
    const emojiOf = (body: { words: Array<Word> }) => body.words.map((w) => w.emoji ?? null)
    const withEmoji = await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token, method: "PATCH", json: { emoji: "auto" } })
    expect(withEmoji.status).toBe(200)
    expect(withEmoji.body.emoji).toBe("auto")
    expect(emojiOf(withEmoji.body).filter((e) => e !== null).length).toBeGreaterThan(0)
    for (const line of withEmoji.body.pages.flatMap((p: { lines: Array<{ words: Array<Word> }> }) => p.lines)) {
      expect(line.words.filter((w: Word) => w.emoji !== undefined).length).toBeLessThanOrEqual(1)
    }
    const mine = withEmoji.body.words.map(({ emoji: _, ...w }: Word, i: number) => (i === 0 ? { ...w, emoji: "🎉" } : w))
    const personal = await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token, method: "PATCH", json: { words: mine } })
    expect(personal.status).toBe(200)
    expect(emojiOf(personal.body)).toEqual(mine.map((_: Word, i: number) => (i === 0 ? "🎉" : null)))
    const notOne = await call(app.baseUrl, `/v1/videos/${video.id}/captions`, {
      token,
      method: "PATCH",
      json: { words: mine.map((w: Word, i: number) => (i === 1 ? { ...w, emoji: "fire" } : w)) }
    })
    expect(notOne.status).toBe(400)
    expect(notOne.body.error.details.field).toBe("words.1.emoji")
    const noEmoji = await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token, method: "PATCH", json: { emoji: "off" } })
    expect(noEmoji.body.emoji).toBe("off")
    expect(emojiOf(noEmoji.body).every((e) => e === null)).toBe(true)

    for (const [json, field] of [[{ hook: { text: " " } }, "hook.text"], [{ hook: { text: "Hi", seconds: 11 } }, "hook.seconds"], [{ platform: "snapchat" }, "platform"]] as const) {
      const refused = await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token, method: "PATCH", json })
      expect(refused.status).toBe(400)
      expect(refused.body.error.details.field).toBe(field)
    }

    const srt = await call(app.baseUrl, `/v1/videos/${video.id}/captions.srt`, { token })
    expect(srt.status).toBe(200)
    expect(srt.headers.get("content-type")).toContain("application/x-subrip")
    expect(srt.body).toMatch(/^1\n00:00:0\d,\d{3} --> 00:00:0\d,\d{3}\n/)
    const vtt = await call(app.baseUrl, `/v1/videos/${video.id}/captions.vtt`, { token })
    expect(vtt.body).toMatch(/^WEBVTT\n\n00:00:0\d\.\d{3} --> /)

    // The link alone grants nothing: without a member's sign-in it shows the sign-in page, not the project.
    const editor = await fetch(video.editorUrl)
    expect(editor.status).toBe(200)
    const page = await editor.text()
    expect(page).toContain("Sign in")
    expect(page).not.toContain("weather")
  })

  it("captions an uploaded file and renders the mp4: size, duration, fps, codecs, faststart, burned captions", async () => {
    const form = new FormData()
    form.set("file", await openAsBlob(clip.path), "clip.mp4")
    form.set("render", "{}")
    form.set("templateId", "-1")
    form.set("hook", JSON.stringify({ text: "Hear this", seconds: 1 }))
    form.set("platform", "tiktok")
    form.set("emphasis", "auto")
    form.set("emoji", "auto")
    const created = await call(app.baseUrl, "/v1/caption-videos", { token, form })
    expect(created.status).toBe(200)
    expect(created.body.render).toBe(true)

    const video = await waitForVideo(app.baseUrl, token, created.body.id)
    expect(video.status).toBe("completed")
    expect(video.videoUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\/[\w-]{20,}\//)
    expect(video.thumbnailUrl).toBeDefined()

    // The link works without any header, like in a browser.
    const download = await fetch(video.videoUrl)
    expect(download.status).toBe(200)
    expect(download.headers.get("content-type")).toBe("video/mp4")
    const mp4 = join(dir, "rendered.mp4")
    await writeFile(mp4, Buffer.from(await download.arrayBuffer()))

    const facts = await probe(mp4)
    const v = facts.streams.find((s) => s.codec_type === "video")!
    const a = facts.streams.find((s) => s.codec_type === "audio")!
    expect([v.codec_name, v.pix_fmt, a.codec_name]).toEqual(["h264", "yuv420p", "aac"])
    expect([v.width, v.height]).toEqual([360, 640])
    expect(v.r_frame_rate).toBe("30/1")
    expect(Number(facts.format.duration)).toBeCloseTo(clip.durationSeconds, 0)
    const bytes = await readFile(mp4)
    expect(bytes.indexOf("moov")).toBeLessThan(bytes.indexOf("mdat"))

    // Captions change the picture while words are spoken, and not during the silence at the end.
    const word = clip.words[1]!
    const spoken = (word.start + word.end) / 2
    const [sourceAtWord, renderAtWord] = await Promise.all([
      readFrame(clip.path, spoken, 360, 640),
      readFrame(mp4, spoken, 360, 640)
    ])
    expect(bandDifference(sourceAtWord, renderAtWord, { top: 0, bottom: 640 })).toBeGreaterThan(0.005)
    const silent = clip.durationSeconds - 0.5
    const [sourceSilent, renderSilent] = await Promise.all([
      readFrame(clip.path, silent, 360, 640),
      readFrame(mp4, silent, 360, 640)
    ])
    expect(bandDifference(sourceSilent, renderSilent, { top: 0, bottom: 640 })).toBeLessThan(0.002)
    // emphasis: auto at create chose words when the captions were generated.
    const chosen = await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token })
    expect(chosen.body.emphasis).toBe("auto")
    expect(chosen.body.words.filter((w: { emphasis?: boolean }) => w.emphasis === true).length).toBeGreaterThan(0)
    // So did emoji: auto, and the export burned them (it reads the same words).
    expect(chosen.body.emoji).toBe("auto")
    expect(chosen.body.words.filter((w: { emoji?: string }) => w.emoji !== undefined).length).toBeGreaterThan(0)
    // The hook asked at create is burned at the top for its second, and is gone after.
    const top = { top: 0, bottom: 190 }
    const [sourceHook, renderHook, sourceAfter, renderAfter] = await Promise.all([
      readFrame(clip.path, 0.5, 360, 640), readFrame(mp4, 0.5, 360, 640), readFrame(clip.path, 1.5, 360, 640), readFrame(mp4, 1.5, 360, 640)
    ])
    expect(bandDifference(sourceHook, renderHook, top)).toBeGreaterThan(0.02)
    expect(bandDifference(sourceAfter, renderAfter, top)).toBeLessThan(0.002)

    // Range requests are served.
    const partial = await fetch(video.videoUrl, { headers: { range: "bytes=0-99" } })
    expect(partial.status).toBe(206)
    expect(partial.headers.get("content-range")).toBe(`bytes 0-99/${bytes.length}`)
    expect((await partial.arrayBuffer()).byteLength).toBe(100)

    const thumbnail = await fetch(video.thumbnailUrl)
    expect(thumbnail.headers.get("content-type")).toBe("image/jpeg")
  })

  // An uploaded source is checked at create (test/e2e/media-limits.test.ts); one at a URL once fetched.
  it("trims pauses: the cuts are listed, duration and the mp4 are the output's, and a restored cut comes back", async () => {
    const created = await call(app.baseUrl, "/v1/caption-videos", {
      token,
      json: { url: files.url("clip.mp4"), trim: { silence: "fast", fillers: true }, render: {} }
    })
    expect(created.status).toBe(200)
    const video = await waitForVideo(app.baseUrl, token, created.body.id)
    expect(video.status).toBe("completed")
    const captions = (await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token })).body
    expect(captions.trim).toEqual({ silence: "fast", fillers: true })
    const cuts = captions.cuts as Array<{ start: number; end: number; reason: string }>
    // The 0.5 s before the speech and the 1.5 s after it, at least.
    expect(cuts.length).toBeGreaterThanOrEqual(2)
    expect(cuts[0]!.start).toBe(0)
    expect(cuts.at(-1)!.end).toBeCloseTo(clip.durationSeconds, 1)
    const removed = cuts.reduce((sum, cut) => sum + cut.end - cut.start, 0)
    expect(video.duration).toBeCloseTo(clip.durationSeconds - removed, 3)
    // The SRT is on the output's timeline: its first caption starts where the first word now is.
    expect(captions.srt).toContain(`00:00:00,${String(Math.round((captions.words[0].start - cuts[0]!.end) * 1000)).padStart(3, "0")}`)

    const mp4 = join(dir, "trimmed.mp4")
    await writeFile(mp4, Buffer.from(await (await fetch(video.videoUrl)).arrayBuffer()))
    expect(Math.abs(Number((await probe(mp4)).format.duration) - video.duration)).toBeLessThan(0.1)

    // Restoring the first cut: send the cuts without it.
    const restored = await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token, method: "PATCH", json: { cuts: cuts.slice(1) } })
    expect(restored.status).toBe(200)
    expect(restored.body.cuts).toEqual(cuts.slice(1))
    const after = (await call(app.baseUrl, `/v1/videos/${video.id}`, { token })).body
    expect(after.duration).toBeCloseTo(video.duration + cuts[0]!.end - cuts[0]!.start, 3)

    const backwards = await call(app.baseUrl, `/v1/videos/${video.id}/captions`, {
      token,
      method: "PATCH",
      json: { cuts: [{ start: 2, end: 1, reason: "silence" }] }
    })
    expect(backwards.status).toBe(400)
    expect(backwards.body.error.details.field).toBe("cuts.0.end")
    const badPace = await call(app.baseUrl, "/v1/caption-videos", { token, json: { url: files.url("clip.mp4"), trim: { silence: "slow", fillers: false } } })
    expect(badPace.status).toBe(400)
    expect(JSON.stringify(badPace.body.error)).toContain("trim")
  })

  it("gives a video its template's emoji default when the create leaves emoji out, and the create's own choice over it", async () => {
    const saved = await call(app.baseUrl, "/v1/caption-templates", { token, json: { name: "With emoji", style: { emoji: "auto" } } })
    expect(saved.status).toBe(200)
    expect(saved.body.style.emoji).toBe("auto")
    const modeOf = async (json: Record<string, unknown>) => {
      const created = await call(app.baseUrl, "/v1/caption-videos", { token, json: { url: files.url("clip.mp4"), templateId: saved.body.id, ...json } })
      expect(created.status).toBe(200)
      await waitForVideo(app.baseUrl, token, created.body.id)
      const captions = (await call(app.baseUrl, `/v1/videos/${created.body.id}/captions`, { token })).body
      return { mode: captions.emoji, chosen: captions.words.filter((w: { emoji?: string }) => w.emoji !== undefined).length }
    }
    const byTemplate = await modeOf({})
    expect(byTemplate.mode).toBe("auto")
    expect(byTemplate.chosen).toBeGreaterThan(0)
    expect(await modeOf({ emoji: "off" })).toEqual({ mode: "off", chosen: 0 })
    const refused = await call(app.baseUrl, "/v1/caption-videos", { token, json: { url: files.url("clip.mp4"), emoji: "lots" } })
    expect(refused.status).toBe(400)
    expect(refused.body.error.details.field).toBe("emoji")
  })

  it("cuts the fillers a transcript names, timed by aligning it to the speech", async () => {
    // pocketsphinx seldom writes "um" or "uh"; a transcript that has them is aligned, so each gets its time.
    const text = "So um today we talk about uh harbours and the ships."
    const spoken = await makeSpokenClip({ text, width: 360, height: 640, fps: 30, silenceBefore: 0.3, silenceAfter: 0.3, dir })
    const served = await serveFiles({ "fillers.mp4": { path: spoken.path, contentType: "video/mp4" } })
    try {
      const created = await call(app.baseUrl, "/v1/caption-videos", {
        token,
        json: { url: served.url("fillers.mp4"), transcript: text, trim: { silence: "off", fillers: true } }
      })
      expect(created.status).toBe(200)
      const video = await waitForVideo(app.baseUrl, token, created.body.id)
      expect(video.status).toBe("completed")
      const captions = (await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token })).body
      const words = captions.words as Array<{ text: string; start: number; end: number }>
      const cuts = captions.cuts as Array<{ start: number; end: number; reason: string }>
      const fillers = cuts.filter((cut) => cut.reason === "filler")
      expect(fillers).toHaveLength(2)
      // Each filler word lies inside a filler cut, and no other word is touched by one.
      for (const word of words) {
        const inside = fillers.some((cut) => cut.start <= word.start + 0.02 && word.end - 0.02 <= cut.end)
        expect(inside).toBe(/^(um|uh)$/i.test(word.text.replace(/[^\p{L}]/gu, "")))
      }
      const removed = cuts.reduce((sum, cut) => sum + cut.end - cut.start, 0)
      expect(video.duration).toBeCloseTo(Number((await probe(spoken.path)).format.duration) - removed, 2)
    } finally {
      await served.close()
    }
  })

  it("takes a language the recogniser knows, and refuses one it does not or a malformed one with a 400 naming language", async () => {
    const english = await call(app.baseUrl, "/v1/caption-videos", { token, json: { url: files.url("clip.mp4"), language: "en" } })
    expect(english.status).toBe(200)
    const video = await waitForVideo(app.baseUrl, token, english.body.id)
    expect(video.status).toBe("completed")
    const captions = await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token })
    expect(captions.body.language).toBe("en")
    // The suite captions with pocketsphinx, which knows English alone.
    const german = await call(app.baseUrl, "/v1/caption-videos", { token, json: { url: files.url("clip.mp4"), language: "de" } })
    expect(german.status).toBe(400)
    expect(german.body.error.details.field).toBe("language")
    expect(german.body.error.message).toContain("recognises only en")
    const malformed = await call(app.baseUrl, "/v1/caption-videos", { token, json: { url: files.url("clip.mp4"), language: "english" } })
    expect(malformed.status).toBe(400)
    expect(malformed.body.error.details.field).toBe("language")
  })

  it("fails a source at a URL that is not a video with an error a person can act on", async () => {
    await writeFile(join(dir, "notes.mp4"), "these are not video bytes".repeat(100))
    const created = await call(app.baseUrl, "/v1/caption-videos", { token, json: { url: files.url("notes.mp4") } })
    expect(created.status).toBe(200)
    const video = await waitForVideo(app.baseUrl, token, created.body.id)
    expect(video.status).toBe("failed")
    expect(video.step).toBe("probing")
    expect(video.error).toMatch(/not a media file/i)
  })

  it("fails with insufficient credits when the source turns out to cost more than the balance, charging nothing", async () => {
    // The cost is known only once the source is probed: 2 credits for this clip's started minute.
    const poor = await app.createWorkspace({ credits: 1 })
    const created = await call(app.baseUrl, "/v1/caption-videos", { token: poor.token, json: { url: files.url("clip.mp4") } })
    expect(created.status).toBe(200)
    const video = await waitForVideo(app.baseUrl, poor.token, created.body.id)
    expect(video.status).toBe("failed")
    expect(video.error).toMatch(/^insufficient credits: needs 2, has 1\. /)
    const logs = await call(app.baseUrl, `/v1/credit-logs?videoId=${created.body.id}`, { token: poor.token })
    expect(logs.body.data).toEqual([])
    expect((await call(app.baseUrl, "/v1/workspace", { token: poor.token })).body.credits).toBe(1)
  })

  it("fails a video at a URL without an audio track", async () => {
    await run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=360x640:r=30:d=1", "-pix_fmt", "yuv420p", join(dir, "mute.mp4")])
    const created = await call(app.baseUrl, "/v1/caption-videos", { token, json: { url: files.url("mute.mp4") } })
    const video = await waitForVideo(app.baseUrl, token, created.body.id)
    expect(video.status).toBe("failed")
    expect(video.error).toMatch(/no audio/i)
  })

  it("lists videos newest first, filters by status and pages with a cursor", async () => {
    const all = await call(app.baseUrl, "/v1/videos?limit=100", { token })
    expect(all.status).toBe(200)
    const created = all.body.data.map((v: { createdAt: string }) => v.createdAt)
    expect(created).toEqual([...created].sort().reverse())
    // A page reads its videos' files in one go (presentVideos): each listed video is its own GET, links included.
    expect(all.body.data.some((v: { videoUrl?: string; thumbnailUrl?: string }) => v.videoUrl !== undefined && v.thumbnailUrl !== undefined)).toBe(true)
    for (const listed of all.body.data) expect(listed).toEqual((await call(app.baseUrl, `/v1/videos/${listed.id}`, { token })).body)
    const failed = await call(app.baseUrl, "/v1/videos?status=failed", { token })
    expect(failed.body.data.length).toBeGreaterThanOrEqual(2)
    expect(failed.body.data.every((v: { status: string }) => v.status === "failed")).toBe(true)
    const first = await call(app.baseUrl, "/v1/videos?limit=1", { token })
    expect(first.body.data).toHaveLength(1)
    expect(first.body.nextCursor).toEqual(expect.any(String))
    const second = await call(app.baseUrl, `/v1/videos?limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`, { token })
    expect(second.body.data[0].id).not.toBe(first.body.data[0].id)
    expect(second.body.data[0].id).toBe(all.body.data[1].id)
  })
})
