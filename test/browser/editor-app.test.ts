// The web editor in Debian's headless Chromium against the whole service: a member signs in through
// the sign-in page the editorUrl shows, the source plays with the captions drawn over it, a word is
// fixed, retimed on the timeline, a line split, the block moved to the top, all autosaved; the page
// exports and shows the mp4, whose frames carry the moved captions, and no webhook event follows the
// export; a hook and a platform are set and saved, the platform's zones drawn over the picture; words are
// emphasised by hand and chosen by the server, and undo takes either back. A member of another workspace
// gets a 404 page, a signed-out visitor the sign-in page. A reframed video's windows are dragged over the
// source, and its output is watched in the source's place (a split's two windows stacked).
// Screenshots for the README are refreshed with UPDATE_DOCS_SCREENSHOTS=1.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect, Option } from "effect"
import type { Browser, Page } from "playwright-core"
import { randomUUID } from "node:crypto"
import { mkdir, mkdtemp, rm, stat } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { EDITOR_CSP } from "../../adapters/editor/editor-page-html.ts"
import { lineReading } from "../../domain/caption-readability.ts"
import { BUILT_IN_TEMPLATES, type CaptionPage, type CaptionStyle, type TimedWord } from "../../domain/captions.ts"
import { SAFE_ZONES } from "../../domain/safe-zones.ts"
import { ClipsStore } from "../../domain/ports/clips-store.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { type ClipsRecord, newClips } from "../../domain/clips.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { launchChromium, settledShot, skipWithoutChromium } from "../support/chromium.ts"
import { type Band, bandDifference, type Frame, makeSpokenClip, readFrame, type SpokenClip } from "../support/clips.ts"
import { call, serveFiles, waitForVideo } from "../support/http-client.ts"
import { type HttpsReceiver, startHttpsReceiver } from "../support/https-receiver.ts"
import { download } from "../support/media-checks.ts"

const skip = skipWithoutChromium("the editor test")

const W = 360
const H = 640
const PASSWORD = "a long enough password"
/** Tall enough for the player to show the 360x640 clip at its own size, so screenshots compare with its frames. */
const VIEWPORT = { width: 1280, height: 920 }
/** Rows of the picture; the player's rounded corners stay outside them. */
const BANDS = { top: { top: 12, bottom: 230 }, middle: { top: 230, bottom: 410 }, bottom: { top: 410, bottom: 628 } } satisfies Record<string, Band>
const FIXED = "Lighthouse"
const BOLD_POP: CaptionStyle = BUILT_IN_TEMPLATES.find((t) => t.id === -1)!.style

/** The <video> as the page functions below use it. */
interface PlayerElement {
  currentTime: number
  readonly pause: () => void
  readonly addEventListener: (type: "seeked", listener: (event: unknown) => void, options: { readonly once: boolean }) => void
}

const hexRgb = (hex: string): ReadonlyArray<number> => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16))

/** Pixels of a band that captions changed (against the source frame) to about `colour`. */
const captionPixels = (shot: Frame, source: Frame, band: Band, colour: string): number => {
  const [r, g, b] = hexRgb(colour) as [number, number, number]
  let n = 0
  for (let i = band.top * W * 3; i < band.bottom * W * 3; i += 3) {
    const changed = Math.max(...[0, 1, 2].map((c) => Math.abs(shot.rgb[i + c]! - source.rgb[i + c]!))) > 48
    const near = Math.max(Math.abs(shot.rgb[i]! - r), Math.abs(shot.rgb[i + 1]! - g), Math.abs(shot.rgb[i + 2]! - b)) <= 40
    if (changed && near) n++
  }
  return n
}

describe.skipIf(skip)("the web editor in Chromium", () => {
  let app: TestApp
  let browser: Browser
  let dir: string
  let shotsDir: string
  let clip: SpokenClip
  let files: Awaited<ReturnType<typeof serveFiles>>
  let receiver: HttpsReceiver
  let studio: { workspaceId: string; token: string }
  let video: { id: string; editorUrl: string }
  let words: ReadonlyArray<TimedWord>

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "editor-app-"))
    shotsDir = process.env.UPDATE_DOCS_SCREENSHOTS === "1" ? join(process.cwd(), "docs", "editor") : dir
    await mkdir(shotsDir, { recursive: true })
    app = await startApp()
    studio = await app.createWorkspace({ name: "Studio" })
    const other = await app.createWorkspace({ name: "Elsewhere" })
    await app.createUser({ email: "editor@example.com", password: PASSWORD, workspaces: [{ workspaceId: studio.workspaceId }] })
    await app.createUser({ email: "stranger@example.com", password: PASSWORD, workspaces: [{ workspaceId: other.workspaceId }] })
    clip = await makeSpokenClip({ text: "Good morning everyone. Welcome to the harbour tour.", width: W, height: H, fps: 30, silenceBefore: 0.3, silenceAfter: 0.8, dir })
    files = await serveFiles({ "clip.mp4": { path: clip.path, contentType: "video/mp4" } })
    receiver = await startHttpsReceiver()
    const created = await call(app.baseUrl, "/v1/caption-videos", { token: studio.token, json: { url: files.url("clip.mp4"), webhookUrl: `${receiver.url}/hook` } })
    expect(created.status).toBe(200)
    video = await waitForVideo(app.baseUrl, studio.token, created.body.id)
    expect(video).toMatchObject({ status: "completed" })
    words = (await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token: studio.token })).body.words
    expect(words.length).toBeGreaterThan(4)
    browser = await launchChromium({ media: true })
  })

  afterAll(async () => {
    await browser?.close()
    await receiver?.close()
    await files?.close()
    await app?.close()
    if (dir !== undefined) await rm(dir, { recursive: true, force: true })
  })

  const events = () => receiver.requests.map((r) => r.headers["x-service-event"])

  /** What the page's browser asked for, and what its Content-Security-Policy refused. */
  const seen = new WeakMap<Page, { readonly requested: Array<string>; readonly refused: Array<string> }>()

  /** A fresh browser profile at an editorUrl, signed in as `email` through the sign-in page it shows. */
  const signedIn = async (email: string, editorUrl = video.editorUrl): Promise<Page> => {
    const page = await (await browser.newContext({ viewport: VIEWPORT })).newPage()
    const log = { requested: [] as Array<string>, refused: [] as Array<string> }
    seen.set(page, log)
    page.on("request", (request) => log.requested.push(request.url()))
    page.on("console", (message) => {
      if (message.text().includes("Content Security Policy")) log.refused.push(message.text())
    })
    await page.goto(editorUrl)
    expect(await page.locator("h1").textContent()).toBe("Sign in")
    await page.fill("#email", email)
    await page.fill("#password", PASSWORD)
    await Promise.all([page.waitForURL(editorUrl), page.click("button[type=submit]")])
    return page
  }

  /** The player (video and preview canvas) once the preview has stopped changing, as a frame. */
  const playerShot = (page: Page, name: string): Promise<Frame> =>
    settledShot(page, page.locator("#player"), { dir, name, width: W, height: H })

  /** Seeks the paused player (the test program has no DOM types: the element is described here). */
  const seekTo = (page: Page, seconds: number) =>
    page.locator("#player video").evaluate(async (element, t) => {
      const player = element as unknown as PlayerElement
      player.pause()
      const seeked = new Promise((resolve) => player.addEventListener("seeked", resolve, { once: true }))
      player.currentTime = t
      await seeked
    }, seconds)

  /** Runs an edit and waits until the preview has drawn the script it made. */
  const drawn = async (page: Page, edit: () => Promise<unknown>) => {
    const before = Number(await page.locator("#player").getAttribute("data-drawn"))
    await edit()
    await expect.poll(async () => Number(await page.locator("#player").getAttribute("data-drawn")), { timeout: 10_000 }).toBeGreaterThan(before)
  }

  const saved = (page: Page) => expect.poll(() => page.locator("#save-state").textContent(), { timeout: 10_000 }).toBe("All changes saved")

  /** A caption video of the clip reframed to `aspectRatio` with the centre's window, once completed. */
  const centreFramed = async (aspectRatio: string) => {
    const created = await call(app.baseUrl, "/v1/caption-videos", {
      token: studio.token,
      json: { url: files.url("clip.mp4"), reframe: { aspectRatio, mode: "center" } }
    })
    return waitForVideo(app.baseUrl, studio.token, created.body.id)
  }

  const captions = async () => (await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token: studio.token })).body

  /**
   * The output view against the frame showing (drawn from the video itself), on a grid in each window's
   * part of the output (`top` to `bottom`, shares of its height): the points that differ, of those where
   * the frame is even for 3 px around (an edge between bars softens when scaled).
   */
  const outputAgainstSource = async (
    page: Page,
    windows: ReadonlyArray<{ x: number; y: number; width: number; height: number; top: number; bottom: number }>
  ): Promise<{ even: number; differing: number }> =>
    page.evaluate(`(() => {
      const video = document.querySelector("#player video")
      const shown = document.querySelector("#output-view")
      const frame = document.createElement("canvas")
      frame.width = video.videoWidth
      frame.height = video.videoHeight
      frame.getContext("2d").drawImage(video, 0, 0)
      const source = frame.getContext("2d").getImageData(0, 0, frame.width, frame.height).data
      const drawn = shown.getContext("2d").getImageData(0, 0, shown.width, shown.height).data
      const at = (x, y) => (y * frame.width + x) * 4
      const apart = (a, data, b) => Math.max(...[0, 1, 2].map((k) => Math.abs(source[a + k] - data[b + k])))
      let [even, differing] = [0, 0]
      for (const w of ${JSON.stringify(windows)}) for (let i = 1; i < 10; i++) for (let j = 1; j < 10; j++) {
        const [x, y] = [Math.floor(w.x + (i / 10) * w.width), Math.floor(w.y + (j / 10) * w.height)]
        if ([[-3, 0], [3, 0], [0, -3], [0, 3]].some(([dx, dy]) => apart(at(x, y), source, at(x + dx, y + dy)) > 8)) continue
        even++
        const row = Math.floor((w.top + (j / 10) * (w.bottom - w.top)) * shown.height)
        if (apart(at(x, y), drawn, (row * shown.width + Math.floor((i / 10) * shown.width)) * 4) > 24) differing++
      }
      return { even, differing }
    })()`)

  const screenshot = async (page: Page, name: string) => {
    const path = join(shotsDir, `${name}.png`)
    await page.screenshot({ path, type: "png" })
    expect((await stat(path)).size).toBeLessThan(700 * 1024)
  }

  it("plays with the captions over it, edits and autosaves, and exports without an event", async () => {
    await expect.poll(events, { timeout: 30_000 }).toEqual(["video.completed"])
    const page = await signedIn("editor@example.com")
    const served = await page.request.get(video.editorUrl)
    expect(served.headers()["content-security-policy"]).toBe(EDITOR_CSP)
    await page.waitForSelector("body[data-ready=yes]")
    await page.waitForSelector("#player[data-preview=ready]", { timeout: 30_000 })
    expect(await page.locator("#player").boundingBox()).toMatchObject({ width: W, height: H })
    expect(await page.locator("button.word").count()).toBe(words.length)
    // Lines over the reading-speed or line-length limit are marked, and only they.
    const servedPages = (await captions()).pages as ReadonlyArray<CaptionPage>
    const hard = servedPages.flatMap((p) => p.lines.map((line) => lineReading(p, line))).map((r) => r.tooFast || r.tooLong)
    expect(await page.locator(".line").evaluateAll((rows) => rows.map((row) => row.classList.contains("hard-to-read")))).toEqual(hard)

    // It plays.
    await page.click("#play")
    await expect.poll(() => page.locator("#player video").evaluate((element) => (element as unknown as PlayerElement).currentTime), { timeout: 15_000 }).toBeGreaterThan(0.5)
    await page.click("#play")

    // At a word's time the preview draws Bold pop in the middle of the picture: white text, the word in yellow.
    const word = words[1]!
    const at = (word.start + word.end) / 2
    const source = await readFrame(clip.path, at, W, H)
    await seekTo(page, at)
    const before = await playerShot(page, "before")
    expect(captionPixels(before, source, BANDS.middle, BOLD_POP.textColor)).toBeGreaterThan(400)
    expect(captionPixels(before, source, BANDS.middle, BOLD_POP.highlightColor)).toBeGreaterThan(100)
    expect(bandDifference(before, source, BANDS.top)).toBeLessThan(0.002)

    // Fix the word (undo and redo it on the way).
    await drawn(page, async () => {
      await page.click("#word-1")
      await page.fill("#word-text", FIXED)
      await page.press("#word-text", "Enter")
    })
    expect(await page.locator("#word-1").textContent()).toBe(FIXED)
    // The fixed word is offered for the workspace's vocabulary; taking the offer keeps it there.
    expect(await page.locator("#offer-text").textContent()).toContain(`“${FIXED}”`)
    await page.click("#offer-accept")
    await page.waitForSelector(`#offer-text:has-text("is in the vocabulary")`)
    expect((await call(app.baseUrl, "/v1/workspace/vocabulary", { token: studio.token })).body).toEqual({ terms: [FIXED] })
    await page.click("#offer-close")
    await page.click("#undo")
    expect(await page.locator("#word-1").textContent()).toBe(word.text)
    await page.keyboard.press("Control+Shift+z")
    expect(await page.locator("#word-1").textContent()).toBe(FIXED)

    // Shorten the first word by dragging its end on the timeline (0.1 s at the zoom's pixels per second).
    const handle = (await page.locator("#block-0 .handle.end").boundingBox())!
    const pixelsPerSecond = Number(await page.inputValue("#zoom"))
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2)
    await page.mouse.down()
    await page.mouse.move(handle.x + handle.width / 2 - 0.1 * pixelsPerSecond, handle.y + handle.height / 2, { steps: 4 })
    await page.mouse.up()
    const shortened = Number(await page.inputValue("#word-end"))
    expect(shortened).toBeCloseTo(words[0]!.end - 0.1, 1)

    // Break a line before the fixed word, and move the block to the top.
    await page.click("#word-1")
    await page.press("#word-text", "Escape")
    await page.click("#split-line")
    await drawn(page, () => page.selectOption("#position", "top"))
    await saved(page)
    const stored = await captions()
    expect(stored.words[1].text).toBe(FIXED)
    expect(stored.words[0].end).toBeCloseTo(shortened, 2)
    expect(stored.lineStarts).toContain(1)
    expect(stored.adjustments).toEqual({ position: "top" })

    await seekTo(page, at)
    const moved = await playerShot(page, "moved")
    expect(captionPixels(moved, source, BANDS.top, BOLD_POP.textColor)).toBeGreaterThan(400)
    expect(bandDifference(moved, source, BANDS.middle)).toBeLessThan(0.002)
    expect(bandDifference(moved, source, BANDS.bottom)).toBeLessThan(0.002)
    await page.click("#word-1")
    await page.press("#word-text", "Escape")
    await screenshot(page, "editor")

    // The style as it is now, saved as a workspace template: the project now uses it, with nothing adjusted over it.
    await page.fill("#template-name", "Top captions")
    await page.click("#save-template")
    await expect.poll(() => page.locator("#template option:checked").textContent()).toBe("Top captions")
    await saved(page)
    const templated = await captions()
    expect(templated).toMatchObject({ adjustments: {}, style: { position: "top" } })
    expect(templated.templateId).toBeGreaterThan(0)

    // Export from the page: progress, then the mp4 in the page.
    await page.click("#export")
    await page.waitForSelector("#export-link", { timeout: 120_000 })
    expect(await page.locator("#export-video").getAttribute("src")).toBe(await page.locator("#export-link").getAttribute("href"))
    await expect.poll(() => page.locator("#export-video").evaluate((element) => (element as unknown as { readonly readyState: number }).readyState)).toBeGreaterThanOrEqual(2)
    await screenshot(page, "exported")
    const mp4 = await download(new URL((await page.locator("#export-link").getAttribute("href"))!, app.baseUrl).href, dir, "exported.mp4")
    const exported = await readFrame(mp4, at, W, H)
    expect(bandDifference(exported, source, BANDS.top)).toBeGreaterThan(0.005)
    expect(bandDifference(exported, source, BANDS.middle)).toBeLessThan(0.002)
    expect(bandDifference(exported, source, BANDS.bottom)).toBeLessThan(0.002)
    expect(await waitForVideo(app.baseUrl, studio.token, video.id)).toMatchObject({ export: { status: "completed", startedIn: "editor" } })
    // Everything came from the service itself, and the page's CSP refused nothing (JASSUB's worker and wasm included).
    const { requested, refused } = seen.get(page)!
    expect(refused).toEqual([])
    expect(requested.filter((url) => !url.startsWith(`${app.baseUrl}/`) && !url.startsWith("blob:") && !url.startsWith("data:"))).toEqual([])
    expect(requested.some((url) => url.endsWith(".wasm"))).toBe(true)

    // Only the creation's event: the export from the editor sends none.
    await page.waitForTimeout(1000)
    expect(events()).toEqual(["video.completed"])

    // Someone else saves (a script through the API): the page's next save is refused, and it loads theirs.
    // Their word makes its line longer than a reader takes in: the page marks that line.
    const QUAY = "Quayside-by-the-old-harbour-master's-office"
    const theirs = templated.words.map((w: TimedWord, i: number) => (i === 2 ? { ...w, text: QUAY } : w))
    expect((await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { method: "PATCH", token: studio.token, json: { words: theirs } })).status).toBe(200)
    await page.selectOption("#position", "bottom")
    await expect.poll(() => page.locator("#notice-text").textContent(), { timeout: 10_000 }).toContain("changed since revision")
    expect(await page.locator("#word-2").textContent()).toBe(QUAY)
    expect(await page.locator(".line:has(#word-2)").getAttribute("class")).toContain("hard-to-read")
    expect(await page.locator(".line:has(#word-2)").getAttribute("title")).toMatch(/characters long \(over 42\)/)
    expect(await page.inputValue("#position")).toBe("top")
    await saved(page)
    expect((await captions()).words[2].text).toBe(QUAY)

    // A hook and TikTok from the Style panel are saved; TikTok's zones lie over the picture. The block at
    // the top is clear of them; moved near the bottom it is in the description, and the page says so.
    await page.fill("#hook-text", "Three harbour secrets")
    await page.press("#hook-text", "Tab")
    await page.selectOption("#platform", "tiktok")
    await saved(page)
    expect(await captions()).toMatchObject({ hook: { text: "Three harbour secrets", seconds: 3 }, platform: "tiktok" })
    expect(await page.locator("#safe-zones").isVisible()).toBe(true)
    expect(await page.locator("#safe-zones .zone").count()).toBe(SAFE_ZONES.tiktok.length)
    expect(await page.locator("#zone-warning").textContent()).toBe("")
    await page.selectOption("#position", "bottom")
    await page.fill("#margin", "0.02")
    expect(await page.locator("#zone-warning").textContent()).toContain("TikTok's account name, description and sound")
    await saved(page)
    expect((await captions()).adjustments).toMatchObject({ position: "bottom", marginRatio: 0.02 })
    await page.context().close()
  }, 240_000)

  it("emphasises the selected word with its button and with E, and lets the server choose with Auto", async () => {
    const page = await signedIn("editor@example.com")
    await page.waitForSelector("body[data-ready=yes]")
    await page.waitForSelector("#player[data-preview=ready]", { timeout: 30_000 })
    const flagged = (ws: ReadonlyArray<TimedWord>) => ws.flatMap((w, i) => (w.emphasis === true ? [i] : []))
    const marked = () => page.locator("button.word.emphasis").evaluateAll((chips) => chips.map((chip) => Number(chip.id.replace("word-", ""))))

    // The button toggles the selected word: the transcript marks it at once, and the autosave keeps it.
    await page.click("#word-3")
    await page.press("#word-text", "Escape")
    expect(await page.getAttribute("#toggle-emphasis", "aria-pressed")).toBe("false")
    await drawn(page, () => page.click("#toggle-emphasis"))
    expect(await page.getAttribute("#toggle-emphasis", "aria-pressed")).toBe("true")
    expect(await page.getAttribute("#word-3", "title")).toContain("Emphasised")
    // E does the same when no field has the focus.
    await page.click("#word-1")
    await page.press("#word-text", "Escape")
    await page.keyboard.press("e")
    expect(await marked()).toEqual([1, 3])
    await saved(page)
    const byHand = await captions()
    expect(byHand.emphasis).toBe("off")
    expect(flagged(byHand.words)).toEqual([1, 3])

    // Auto: the server chooses the words afresh, and the page shows its choice.
    await page.selectOption("#emphasis", "auto")
    await saved(page)
    const chosen = await captions()
    expect(chosen.emphasis).toBe("auto")
    expect(flagged(chosen.words).length).toBeGreaterThan(0)
    expect(await marked()).toEqual(flagged(chosen.words))

    // Off clears them; undo brings back the server's choice, then the words emphasised by hand.
    await page.selectOption("#emphasis", "off")
    await saved(page)
    expect(flagged((await captions()).words)).toEqual([])
    expect(await marked()).toEqual([])
    await page.click("#undo")
    await saved(page)
    expect(await captions()).toMatchObject({ emphasis: "auto", words: chosen.words })
    await page.click("#undo")
    await saved(page)
    const undone = await captions()
    expect(undone.emphasis).toBe("off")
    expect(flagged(undone.words)).toEqual([1, 3])
    expect(await page.inputValue("#emphasis")).toBe("off")
    expect(await marked()).toEqual([1, 3])
    await page.context().close()
  }, 120_000)

  it("sets, changes and removes a line's emoji, shows it in the transcript and over the preview where the export draws it", async () => {
    const page = await signedIn("editor@example.com")
    await page.waitForSelector("body[data-ready=yes]")
    await page.waitForSelector("#player[data-preview=ready]", { timeout: 30_000 })
    const emojiOf = (ws: ReadonlyArray<TimedWord>) => ws.flatMap((w, i) => (w.emoji === undefined ? [] : [[i, w.emoji]]))
    // The shortest line: room for an emoji beside it (a line too wide for one keeps none in the export).
    const before = await captions()
    const lines: ReadonlyArray<{ text: string; words: ReadonlyArray<TimedWord> }> = before.pages.flatMap((p: { lines: Array<unknown> }) => p.lines)
    const short = [...lines].sort((a, b) => a.text.length - b.text.length)[0]!
    const first = before.words.findIndex((w: TimedWord) => w.start === short.words[0]!.start && w.text === short.words[0]!.text)
    const last = first + short.words.length - 1

    /** Selects word `index` (its line's emoji shows in the box, `shown`) and types `emoji` there. */
    const typeEmoji = async (index: number, shown: string, emoji: string) => {
      await page.click(`#word-${index}`)
      await page.press("#word-text", "Escape")
      expect(await page.inputValue("#line-emoji")).toBe(shown)
      await page.fill("#line-emoji", emoji)
      await page.press("#line-emoji", "Enter")
      await saved(page)
    }
    await typeEmoji(last, "", "🔥")
    expect(emojiOf((await captions()).words)).toEqual([[last, "🔥"]])
    expect(await page.locator(".line-emoji").allTextContents()).toEqual(["🔥"])
    expect(await page.isDisabled("#remove-emoji")).toBe(false)

    // Over the preview once its word is spoken, right of the picture's middle (beside its line), inside the picture.
    const words: ReadonlyArray<TimedWord> = (await captions()).words
    await seekTo(page, words[last]!.start + 0.05)
    const shown = page.locator("#emoji-layer span")
    await expect.poll(() => shown.allTextContents(), { timeout: 10_000 }).toEqual(["🔥"])
    const [spot, player] = await Promise.all([shown.boundingBox(), page.locator("#player video").boundingBox()])
    expect(spot!.x).toBeGreaterThan(player!.x + player!.width / 2)
    expect(spot!.x + spot!.width).toBeLessThanOrEqual(player!.x + player!.width + 1)
    if (last > first) {
      await seekTo(page, (words[first]!.start + words[last]!.start) / 2)
      expect(await shown.count()).toBe(0)
    }

    // Not one emoji: refused on the page, nothing changes. Another word of the line takes the line's emoji over.
    await page.fill("#line-emoji", "fire")
    await page.press("#line-emoji", "Enter")
    expect(await page.locator("#word-error").textContent()).toContain("one emoji")
    await typeEmoji(first, "🔥", "🚀")
    expect(emojiOf((await captions()).words)).toEqual([[first, "🚀"]])

    // Removed, then back with undo.
    await page.click("#remove-emoji")
    await saved(page)
    expect(emojiOf((await captions()).words)).toEqual([])
    expect(await page.locator(".line-emoji").count()).toBe(0)
    await page.click("#undo")
    await saved(page)
    expect(emojiOf((await captions()).words)).toEqual([[first, "🚀"]])
    await page.context().close()
  }, 120_000)

  it("opens a generated video over its timeline rendered once without captions, and moves its captions", async () => {
    const created = await call(app.baseUrl, "/v1/ai-videos", { token: studio.token, json: { script: "Boats leave the harbour at dawn. Gulls follow them out.", templateId: -1 } })
    expect(created.status).toBe(200)
    const generated = await waitForVideo(app.baseUrl, studio.token, created.body.id, undefined, 120_000)
    expect(generated).toMatchObject({ status: "completed", kind: "ai" })
    const spoken = (await call(app.baseUrl, `/v1/videos/${generated.id}/captions`, { token: studio.token })).body.words as ReadonlyArray<TimedWord>
    // A generated video's speech is the service's own: there is nothing to trim.
    const trimmed = await call(app.baseUrl, `/v1/videos/${generated.id}/captions`, { token: studio.token, method: "PATCH", json: { trim: { silence: "fast", fillers: true } } })
    expect([trimmed.status, trimmed.body.error.details.field]).toEqual([400, "trim"])

    const page = await signedIn("editor@example.com", generated.editorUrl)
    await page.waitForSelector("#player[data-picture=ready]", { timeout: 120_000 })
    await page.waitForSelector("#player[data-preview=ready]", { timeout: 30_000 })
    expect(await page.locator("#player video").getAttribute("src")).toMatch(/\/media\/[\w-]+\/editor-picture\.mp4$/)
    await page.click("#play")
    await expect.poll(() => page.locator("#player video").evaluate((element) => (element as unknown as PlayerElement).currentTime), { timeout: 15_000 }).toBeGreaterThan(0.5)
    await page.click("#play")

    // The captions are drawn over the picture: moving them to the top changes the top and middle of the
    // player, and nothing else of it.
    const word = spoken[2]!
    await seekTo(page, (word.start + word.end) / 2)
    const middle = await settledShot(page, page.locator("#player"), { dir, name: "generated-middle" })
    await drawn(page, () => page.selectOption("#position", "top"))
    const top = await settledShot(page, page.locator("#player"), { dir, name: "generated-top" })
    const third = Math.round(middle.height / 3)
    expect(bandDifference(middle, top, { top: 0, bottom: third })).toBeGreaterThan(0.01)
    expect(bandDifference(middle, top, { top: third, bottom: 2 * third })).toBeGreaterThan(0.01)
    expect(bandDifference(middle, top, { top: 2 * third + 10, bottom: middle.height })).toBeLessThan(0.002)
    await saved(page)
    expect((await call(app.baseUrl, `/v1/videos/${generated.id}/captions`, { token: studio.token })).body.adjustments).toEqual({ position: "top" })
    await page.context().close()
  }, 240_000)

  it("lists the trim's cuts, plays past them, and restores one that the autosave keeps and undo takes back", async () => {
    const durationNow = async (): Promise<number> => (await call(app.baseUrl, `/v1/videos/${video.id}`, { token: studio.token })).body.duration
    const untrimmed = await durationNow()
    const trimmed = await call(app.baseUrl, `/v1/videos/${video.id}/captions`, {
      token: studio.token,
      method: "PATCH",
      json: { trim: { silence: "fast", fillers: false } }
    })
    expect(trimmed.status).toBe(200)
    const cuts = trimmed.body.cuts as ReadonlyArray<{ start: number; end: number }>
    // The 0.3 s before the speech and the 0.8 s after it, at least.
    expect(cuts.length).toBeGreaterThanOrEqual(2)
    const page = await signedIn("editor@example.com")
    await page.waitForSelector("body[data-ready=yes]")
    const listed = page.locator("#cut-list li")
    expect(await listed.count()).toBe(cuts.length)
    expect(await listed.first().textContent()).toContain("pause")

    // Playing from inside the first cut starts at its end: by the time the play event reaches a listener
    // after the page's own, the time has jumped (playing through would still be mid-cut).
    await seekTo(page, (cuts[0]!.start + cuts[0]!.end) / 2)
    const startedAt = await page.locator("#player video").evaluate(async (element) => {
      const player = element as unknown as PlayerElement & {
        play: () => Promise<void>
        addEventListener: (type: "play", listener: () => void, options: { readonly once: boolean }) => void
      }
      let at = -1
      player.addEventListener("play", () => (at = player.currentTime), { once: true })
      await player.play()
      player.pause()
      return at
    })
    expect(startedAt).toBeCloseTo(cuts[0]!.end, 2)

    await page.click("#cut-list li:first-child button")
    await saved(page)
    expect((await captions()).cuts).toEqual(cuts.slice(1))
    expect(await listed.count()).toBe(cuts.length - 1)
    // The video's duration is the output's: the source less the cuts left.
    expect(await durationNow()).toBeCloseTo(cuts.slice(1).reduce((d, cut) => d - (cut.end - cut.start), untrimmed), 6)
    await page.click("#undo")
    await saved(page)
    expect((await captions()).cuts).toEqual(cuts)
    await page.context().close()
    // The tests after this one see the video untrimmed.
    expect((await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token: studio.token, method: "PATCH", json: { trim: null } })).status).toBe(200)
  }, 120_000)

  it("shows a reframed video's window over the source, and a window dragged at a moment becomes a key the path passes through", async () => {
    const square = await centreFramed("1:1")
    expect(square).toMatchObject({ status: "completed", width: 1080, height: 1080 })
    const framingOf = async () => (await call(app.baseUrl, `/v1/videos/${square.id}/captions`, { token: studio.token })).body.framing
    const planned = await framingOf()
    // One 360x360 window held still over the 360x640 source.
    expect(planned.crop).toEqual({ width: 360, height: 360 })
    expect(planned.paths).toHaveLength(1)
    expect(planned.paths[0]).toHaveLength(1)
    const y0 = planned.paths[0][0].y as number
    expect(y0).toBeGreaterThan(100)
    const page = await signedIn("editor@example.com", square.editorUrl)
    await page.waitForSelector("body[data-ready=yes]")
    const windowBox = page.locator(".crop-window")
    expect(await windowBox.count()).toBe(1)
    const player = (await page.locator("#player").boundingBox())!
    const before = (await windowBox.boundingBox())!
    const scale = player.height / H
    expect(before.width).toBeCloseTo(player.width, 0)
    expect(Math.abs((before.y - player.y) / scale - y0)).toBeLessThan(3)

    // At 1 s the window is dragged 100 source pixels up.
    await seekTo(page, 1)
    await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2)
    await page.mouse.down()
    await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2 - 50 * scale, { steps: 5 })
    await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2 - 100 * scale, { steps: 5 })
    await page.mouse.up()
    await saved(page)
    const moved = await framingOf()
    expect(moved.paths[0]).toHaveLength(2)
    expect(moved.paths[0][0]).toEqual(planned.paths[0][0])
    expect(moved.paths[0][1].seconds).toBeCloseTo(1, 2)
    expect(Math.abs(moved.paths[0][1].y - (y0 - 100))).toBeLessThan(4)
    // The window is drawn where the path now puts it.
    const after = (await windowBox.boundingBox())!
    expect(Math.abs((after.y - player.y) / scale - moved.paths[0][1].y)).toBeLessThan(3)
    await screenshot(page, "editor-reframe")

    // The captions are previewed inside the window, which the export scales up to the square: the
    // preview canvas (the picture's shape, where libass centres the square frame) is centred on it.
    const canvas = (await page.locator("#player canvas.JASSUB").boundingBox())!
    expect(Math.abs(canvas.width - after.width)).toBeLessThan(2)
    expect(Math.abs(canvas.y + canvas.height / 2 - (after.y + after.height / 2))).toBeLessThan(2)

    await page.click("#undo")
    await saved(page)
    expect((await framingOf()).paths).toEqual(planned.paths)
    await expect.poll(async () => Math.abs(((await windowBox.boundingBox())!.y - player.y) / scale - y0)).toBeLessThan(3)

    // Watched as the output: the window's part of the frame drawn at the square's shape in the source's
    // place, the windows hidden, the captions laid over it. Pressed again, the windows come back.
    await page.click("#view-output")
    expect(await page.locator("#view-output").getAttribute("aria-pressed")).toBe("true")
    expect(await page.locator("#crop-layer").isHidden()).toBe(true)
    const output = (await page.locator("#output-view").boundingBox())!
    expect(Math.abs(output.width - player.width)).toBeLessThan(2)
    expect(Math.abs(output.height - output.width)).toBeLessThan(2)
    expect(Math.abs(output.y + output.height / 2 - (player.y + player.height / 2))).toBeLessThan(2)
    const laid = (await page.locator("#player canvas.JASSUB").boundingBox())!
    expect(Math.abs(laid.width - output.width)).toBeLessThan(2)
    expect(Math.abs(laid.y + laid.height / 2 - (output.y + output.height / 2))).toBeLessThan(2)
    const compared = await outputAgainstSource(page, [{ x: 0, y: y0, width: W, height: W, top: 0, bottom: 1 }])
    expect(compared.differing).toBe(0)
    expect(compared.even).toBeGreaterThan(40)
    await screenshot(page, "editor-output-view")
    await page.click("#view-output")
    expect(await page.locator("#output-view").isHidden()).toBe(true)
    expect(await page.locator("#crop-layer").isVisible()).toBe(true)
    await page.context().close()
  }, 180_000)

  it("shows a split's output: each window's part of the source scaled into its half, the top window's above", async () => {
    const tall = await centreFramed("9:16")
    expect(tall).toMatchObject({ status: "completed", width: 1080, height: 1920 })
    // A split needs two faces found in the source; this one has none, so its framing is written as a
    // split's would be: two 180x160 windows (half the source wide, the shape of half the output), apart.
    const windows = [{ x: 0, y: 60 }, { x: 180, y: 420 }]
    await app.runtime.runPromise(Effect.gen(function*() {
      const store = yield* VideoStore
      const edits = Option.getOrThrow(yield* store.getCaptionEdits(tall.id))
      const framing = edits.framing!
      yield* store.saveCaptionEdits(tall.id, {
        ...edits,
        framing: { ...framing, mode: "split", crop: { width: 180, height: 160 }, paths: windows.map((w) => [{ seconds: 0, ...w }]) }
      })
    }))
    const page = await signedIn("editor@example.com", tall.editorUrl)
    await page.waitForSelector("body[data-ready=yes]")
    expect(await page.locator(".crop-window").count()).toBe(2)
    await seekTo(page, 1)
    await page.click("#view-output")
    const player = (await page.locator("#player").boundingBox())!
    const output = (await page.locator("#output-view").boundingBox())!
    // 9:16 in the 9:16 player: all of it.
    expect(Math.abs(output.width - player.width)).toBeLessThan(2)
    expect(Math.abs(output.height - player.height)).toBeLessThan(2)
    const compared = await outputAgainstSource(page, [
      { ...windows[0]!, width: 180, height: 160, top: 0, bottom: 0.5 },
      { ...windows[1]!, width: 180, height: 160, top: 0.5, bottom: 1 }
    ])
    expect(compared.differing).toBe(0)
    expect(compared.even).toBeGreaterThan(60)
    await page.context().close()
  }, 180_000)

  it("shows a member of another workspace a 404 page, and a signed-out visitor the sign-in page", async () => {
    const stranger = await signedIn("stranger@example.com")
    const body = await stranger.locator("body").textContent()
    expect(await stranger.locator("h1").textContent()).toBe("No project here")
    expect(body).not.toContain(FIXED)
    expect(await stranger.locator("#editor-bootstrap").count()).toBe(0)
    const again = await stranger.goto(video.editorUrl)
    expect(again?.status()).toBe(404)
    await stranger.context().close()

    const visitor = await (await browser.newContext({ viewport: VIEWPORT })).newPage()
    const opened = await visitor.goto(video.editorUrl)
    expect(opened?.status()).toBe(200)
    expect(await visitor.locator("h1").textContent()).toBe("Sign in")
    expect(await visitor.locator("#editor-bootstrap").count()).toBe(0)
    await visitor.context().close()
  })

  it("lists a clip video's fellow clips of its talk, each linked to its own editor, the one open marked", async () => {
    const created = await call(app.baseUrl, "/v1/caption-videos", { token: studio.token, json: { url: files.url("clip.mp4") } })
    const other = await waitForVideo(app.baseUrl, studio.token, created.body.id)
    expect(other.status).toBe("completed")
    const alone = await signedIn("editor@example.com", other.editorUrl)
    await alone.waitForSelector("body[data-ready=yes]")
    expect(await alone.locator("#clips").isHidden()).toBe(true)
    await alone.context().close()

    // The record POST /v1/clips would have made of a talk whose clips are these two videos, and a third not made yet.
    const clip = (startSeconds: number, score: number, firstLine: string, videoId: string | null) =>
      ({ startSeconds, endSeconds: startSeconds + 27.8, score, reasons: [], firstLine, words: [], videoId })
    const record: ClipsRecord = {
      ...newClips({
        id: randomUUID(),
        workspaceId: studio.workspaceId,
        source: { url: files.url("clip.mp4") },
        webhookUrl: null,
        options: { count: 3, minSeconds: 15, maxSeconds: 60, reframe: null, templateId: null, render: null, language: null },
        at: new Date().toISOString()
      }),
      status: "completed",
      step: "completed",
      durationSeconds: 300,
      clips: [clip(12.3, 87, "Good morning everyone.", other.id), clip(100, 60, "Welcome to the harbour tour.", video.id), clip(200, 41, "See you soon.", null)]
    }
    await app.runtime.runPromise(Effect.flatMap(ClipsStore, (store) => store.insert(record)))

    const page = await signedIn("editor@example.com", video.editorUrl)
    await page.waitForSelector("body[data-ready=yes]")
    const items = page.locator("#clip-list li")
    expect(await items.count()).toBe(3)
    expect(await items.nth(0).textContent()).toBe("Clip 1 0:12.3–0:40.1 · score 87Good morning everyone.")
    expect(await items.nth(1).getAttribute("aria-current")).toBe("page")
    expect(await items.nth(1).locator("a").count()).toBe(0)
    expect(await items.nth(2).textContent()).toContain("being made")
    expect(await items.nth(2).locator("a").count()).toBe(0)
    await Promise.all([page.waitForURL(other.editorUrl), items.nth(0).locator("a").click()])
    await page.waitForSelector("body[data-ready=yes]")
    expect(await page.locator("#clip-list li").nth(0).getAttribute("aria-current")).toBe("page")
    expect(await page.locator("#clip-list li").nth(1).locator("a").getAttribute("href")).toBe(video.editorUrl)
    await page.context().close()
  }, 180_000)
})
