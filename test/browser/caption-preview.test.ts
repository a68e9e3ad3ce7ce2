// The editor's caption preview (JASSUB, served by the app's /editor-assets route) in Debian's headless
// Chromium, against the export: the same ASS script over the same flat grey clip, screenshotted in the
// browser and burned by the production ffmpeg path, must put the same pixels on screen; against
// ffmpeg's libass over RGB frames (no H.264, no 4:2:0 chroma) they must match to a few levels.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page } from "playwright-core"
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { editorAssetUrls } from "../../adapters/editor/editor-assets.ts"
import { assSubtitles } from "../../adapters/media/ass-subtitles.ts"
import { assFilter, CAPTION_FONT_FILES } from "../../adapters/media/caption-fonts.ts"
import { FfmpegEngineLive } from "../../adapters/media/ffmpeg-engine.ts"
import { CAPTION_FONT_FAMILIES } from "../../domain/caption-fonts.ts"
import { BUILT_IN_TEMPLATES, type CaptionStyle, layoutCaptions, layoutRulesOf, type TimedWord } from "../../domain/captions.ts"
import { MediaEngine } from "../../domain/ports/media-engine.ts"
import { type Frame, readFrame } from "../support/clips.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { launchChromium, settledShot, skipWithoutChromium } from "../support/chromium.ts"

const run = promisify(execFile)
const skip = skipWithoutChromium("the caption preview test")

const W = 360
const H = 640
const GREY = "0x808080"
/** Mid-word: "preview" is the spoken (highlighted) word from 0.7 s to 1.4 s. */
const AT_SECONDS = 1
const BOLD_POP: CaptionStyle = BUILT_IN_TEMPLATES.find((t) => t.id === -1)!.style
const WORDS: ReadonlyArray<TimedWord> = [
  { text: "Captions", start: 0.2, end: 0.7 },
  { text: "preview", start: 0.7, end: 1.4 },
  { text: "exactly", start: 1.4, end: 1.9 },
  { text: "like", start: 2.0, end: 2.3 },
  { text: "the", start: 2.3, end: 2.5 },
  { text: "export.", start: 2.5, end: 2.9 }
]
const PAGE_PATH = "/__caption-preview-test"

const scriptFor = (words: ReadonlyArray<TimedWord>, style: CaptionStyle = BOLD_POP) =>
  assSubtitles({ pages: layoutCaptions(words, layoutRulesOf(style)), style, width: W, height: H, format: "standard" })

/** What the test page puts on globalThis for page.evaluate. */
interface PreviewHooks {
  readonly show: (ass: string, seconds: number) => Promise<void>
}

/** The page the editor will be, reduced to the video and the preview. */
const testPage = (videoUrl: string) => `<!doctype html><html><head><meta charset="utf-8">
<style>body{margin:0;background:#000}#stage{position:relative;width:${W}px;height:${H}px}video{display:block;width:${W}px;height:${H}px}</style></head>
<body><div id="stage"><video id="video" muted playsinline preload="auto"></video></div>
<script type="module">
import { createCaptionPreview } from ${JSON.stringify(editorAssetUrls.previewModule)}
const video = document.getElementById("video")
// A blob URL seeks without the server answering Range requests.
video.src = URL.createObjectURL(await (await fetch(${JSON.stringify(videoUrl)})).blob())
await new Promise((resolve) => video.addEventListener("loadeddata", resolve, { once: true }))
const preview = await createCaptionPreview({ video, assets: ${JSON.stringify(editorAssetUrls)} })
globalThis.previewHooks = {
  show: async (ass, seconds) => {
    if (video.currentTime !== seconds) {
      const seeked = new Promise((resolve) => video.addEventListener("seeked", resolve, { once: true }))
      video.currentTime = seconds
      await seeked
    }
    await preview.setTrack(ass)
  }
}
document.body.dataset.ready = "yes"
</script></body></html>`

/** Max channel distance between two pixels. */
const distance = (a: Frame, b: Frame, i: number) =>
  Math.max(Math.abs(a.rgb[i]! - b.rgb[i]!), Math.abs(a.rgb[i + 1]! - b.rgb[i + 1]!), Math.abs(a.rgb[i + 2]! - b.rgb[i + 2]!))

const hexRgb = (hex: string): ReadonlyArray<number> => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16))

/**
 * Each pixel as the nearest of the picture's colours (the grey background and the style's text,
 * outline and highlight): -1 for the background, else the colour's index. Edge pixels and
 * chroma-subsampled ones fall to whichever colour they are closest to.
 */
const classify = (frame: Frame, colours: ReadonlyArray<string>): Int8Array => {
  const palette = [[0x80, 0x80, 0x80], ...colours.map(hexRgb)]
  const classes = new Int8Array(frame.width * frame.height)
  for (let p = 0; p < classes.length; p++) {
    let best = 0
    let bestDistance = Infinity
    palette.forEach((rgb, k) => {
      const d = (frame.rgb[p * 3]! - rgb[0]!) ** 2 + (frame.rgb[p * 3 + 1]! - rgb[1]!) ** 2 + (frame.rgb[p * 3 + 2]! - rgb[2]!) ** 2
      if (d < bestDistance) [best, bestDistance] = [k, d]
    })
    classes[p] = best - 1
  }
  return classes
}

const count = (classes: Int8Array, test: (c: number) => boolean) => classes.reduce((n, c) => n + (test(c) ? 1 : 0), 0)

/** How the preview's caption pixels (anything but background) and its highlight pixels compare with another frame's. */
const agreement = (preview: Frame, other: Frame, style: CaptionStyle) => {
  const colours = [style.textColor, style.outlineColor, style.highlightColor]
  const highlight = colours.length - 1
  const a = classify(preview, colours)
  const b = classify(other, colours)
  const caption = (c: number) => c >= 0
  const common = a.reduce((n, c, p) => n + (caption(c) && caption(b[p]!) ? 1 : 0), 0)
  let maxDifference = 0
  let over48 = 0
  for (let i = 0; i < preview.rgb.length; i += 3) {
    const d = distance(preview, other, i)
    maxDifference = Math.max(maxDifference, d)
    if (d > 48) over48++
  }
  return {
    caption: { preview: count(a, caption), other: count(b, caption), common },
    highlight: { preview: count(a, (c) => c === highlight), other: count(b, (c) => c === highlight) },
    maxDifference,
    over48
  }
}

const ratio = (a: number, b: number) => Math.abs(a - b) / b

/**
 * As `agreement`, forgiving a shift of one pixel: a pixel agrees with the closest of the other frame's
 * 3x3 around it. Fine serif and script faces are placed a fraction of a pixel apart by the two builds
 * of FreeType and HarfBuzz, which moves whole edges; a wrong font, size, place or moment does not pass.
 */
const nearAgreement = (preview: Frame, other: Frame, style: CaptionStyle) => {
  const colours = [style.textColor, style.outlineColor, style.highlightColor]
  const a = classify(preview, colours)
  const b = classify(other, colours)
  const near = (classes: Int8Array, x: number, y: number, test: (c: number) => boolean) => {
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const [nx, ny] = [x + dx, y + dy]
        if (nx >= 0 && ny >= 0 && nx < W && ny < H && test(classes[ny * W + nx]!)) return true
      }
    }
    return false
  }
  let [previewCaption, otherCaption, previewFound, otherFound, over48] = [0, 0, 0, 0, 0]
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const p = y * W + x
      if (a[p]! >= 0) {
        previewCaption++
        if (near(b, x, y, (c) => c >= 0)) previewFound++
      }
      if (b[p]! >= 0) {
        otherCaption++
        if (near(a, x, y, (c) => c >= 0)) otherFound++
      }
      let closest = Infinity
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const [nx, ny] = [x + dx, y + dy]
          if (nx >= 0 && ny >= 0 && nx < W && ny < H) closest = Math.min(closest, distanceAt(preview, p, other, ny * W + nx))
        }
      }
      if (closest > 48) over48++
    }
  }
  return { previewCaption, otherCaption, previewFound, otherFound, over48 }
}

const distanceAt = (a: Frame, p: number, b: Frame, q: number) =>
  Math.max(Math.abs(a.rgb[p * 3]! - b.rgb[q * 3]!), Math.abs(a.rgb[p * 3 + 1]! - b.rgb[q * 3 + 1]!), Math.abs(a.rgb[p * 3 + 2]! - b.rgb[q * 3 + 2]!))

describe.skipIf(skip)("caption preview in Chromium", () => {
  let app: TestApp
  let browser: Browser
  let page: Page
  let dir: string
  let grey: string
  const requested: Array<string> = []

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "caption-preview-"))
    grey = join(dir, "grey.mp4")
    await run("ffmpeg", [
      "-nostdin", "-y", "-v", "error", "-f", "lavfi", "-i", `color=c=${GREY}:s=${W}x${H}:r=30:d=3`,
      "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-movflags", "+faststart", grey
    ])
    app = await startApp({ worker: false })
    browser = await launchChromium({ media: true })
    page = await browser.newPage({ viewport: { width: W, height: H } })
    page.on("request", (request) => requested.push(request.url()))
    const video = await readFile(grey)
    // The test page and its clip are answered in the browser under the app's origin, so the page is
    // same-origin with /editor-assets as the editor's will be; the app itself serves everything else.
    await page.route(`${app.baseUrl}${PAGE_PATH}/**`, (route) =>
      route.request().url().endsWith("/grey.mp4")
        ? route.fulfill({ status: 200, contentType: "video/mp4", body: video })
        : route.fulfill({ status: 200, contentType: "text/html", body: testPage(`${PAGE_PATH}/grey.mp4`) }))
    await page.goto(`${app.baseUrl}${PAGE_PATH}/page`)
    await page.waitForSelector("body[data-ready=yes]")
  })

  afterAll(async () => {
    await browser?.close()
    await app?.close()
    if (dir !== undefined) await rm(dir, { recursive: true, force: true })
  })

  /** The video area once the preview canvas has stopped changing (it is drawn off the page's thread). */
  const stageShot = (name: string): Promise<Frame> => settledShot(page, page.locator("#stage"), { dir, name, width: W, height: H })

  const show = async (ass: string, name: string) => {
    await page.evaluate(([script, seconds]) => (globalThis as unknown as { previewHooks: PreviewHooks }).previewHooks.show(script, seconds), [ass, AT_SECONDS] as const)
    return stageShot(name)
  }

  /** One frame of the grey clip with `ass` burned by ffmpeg's libass over RGB (the export's filter, without H.264 and 4:2:0 chroma). */
  const libassFrame = async (ass: string, name: string): Promise<Frame> => {
    const scriptPath = join(dir, `${name}.ass`)
    await writeFile(scriptPath, ass)
    const { stdout: rgb } = await run("ffmpeg", [
      "-nostdin", "-v", "error", "-i", grey, "-vf", `format=rgb24,${assFilter(scriptPath)}`, "-ss", String(AT_SECONDS),
      "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"
    ], { encoding: "buffer", maxBuffer: W * H * 3 + 1024 })
    return { width: W, height: H, rgb }
  }

  const origin = () => new URL(app.baseUrl).origin
  const fontRequests = (family: string) => (editorAssetUrls.fonts[family] ?? []).map((font) => `${origin()}${font}`)

  it("serves the files fontconfig picks for the default family, and has files for every built-in template's family", async () => {
    const picked = await Promise.all([editorAssetUrls.defaultFont, `${editorAssetUrls.defaultFont}:bold`].map(async (pattern) =>
      (await run("fc-match", ["--format=%{file}", pattern])).stdout))
    expect(picked).toEqual(CAPTION_FONT_FILES.filter((file) => file.family === editorAssetUrls.defaultFont).map(({ path }) => path))
    const shipped = CAPTION_FONT_FAMILIES.map(({ family }) => family)
    expect(shipped).toEqual(expect.arrayContaining([...new Set(BUILT_IN_TEMPLATES.map((t) => t.style.fontFamily))]))
  })

  it("draws what ffmpeg burns, and redraws when the track changes", async () => {
    const ass = scriptFor(WORDS)
    const preview = await show(ass, "preview")

    const burned = join(dir, "burned.mp4")
    await Effect.runPromise(Effect.provide(
      Effect.flatMap(MediaEngine, (engine) => engine.burnCaptions({
        input: grey,
        output: burned,
        captions: { pages: layoutCaptions(WORDS, layoutRulesOf(BOLD_POP)), style: BOLD_POP },
        format: "standard",
        frameRate: 30,
        width: W,
        height: H
      })),
      FfmpegEngineLive
    ))
    const exported = agreement(preview, await readFrame(burned, AT_SECONDS, W, H), BOLD_POP)
    // libass alone, without the export's H.264 and 4:2:0 chroma: the same script over RGB frames.
    const libass = agreement(preview, await libassFrame(ass, "captions"), BOLD_POP)

    expect(exported.caption.other).toBeGreaterThan(5000)
    expect(exported.highlight.other).toBeGreaterThan(500)
    for (const { caption, highlight } of [exported, libass]) {
      expect(caption.common / caption.preview).toBeGreaterThanOrEqual(0.95)
      expect(caption.common / caption.other).toBeGreaterThanOrEqual(0.95)
      // The export's 4:2:0 chroma bleeds the highlight into its black outline.
      expect(ratio(highlight.preview, highlight.other)).toBeLessThanOrEqual(0.15)
    }
    expect(libass.maxDifference).toBeLessThanOrEqual(16)
    expect(libass.over48).toBe(0)
    expect(ratio(libass.highlight.preview, libass.highlight.other)).toBeLessThanOrEqual(0.02)

    // A fixed word must show: the same time, another text.
    const edited = await show(scriptFor(WORDS.map((w) => w.text === "preview" ? { ...w, text: "previews" } : w)), "edited")
    const changed = agreement(preview, edited, BOLD_POP)
    expect(changed.over48).toBeGreaterThan(200)
    expect(changed.highlight.other).toBeGreaterThan(changed.highlight.preview)

    expect(requested.filter((url) => !url.startsWith(`${origin()}/`) && !url.startsWith("blob:"))).toEqual([])
    expect(requested).toEqual(expect.arrayContaining([
      `${origin()}${editorAssetUrls.previewModule}`,
      `${origin()}${editorAssetUrls.workerUrl}`,
      ...fontRequests(editorAssetUrls.defaultFont)
    ]))
    // Only the default family's files so far: the others wait for a script that names them.
    const others = CAPTION_FONT_FAMILIES.filter(({ family }) => family !== editorAssetUrls.defaultFont)
      .flatMap(({ family }) => fontRequests(family))
    expect(requested.filter((url) => others.includes(url) || url === `${origin()}${editorAssetUrls.cjkFallback.url}`)).toEqual([])
  })

  // Each family's files arrive with the first script that names it, before that script is drawn: a
  // preview still in DejaVu Sans would miss most of the export's caption pixels.
  // Caveat's thin strokes land a fraction of a pixel apart on some edges (another FreeType build): up to 38 levels.
  for (const [name, style, tolerance] of [
    ["Montserrat bold", { ...BOLD_POP, fontFamily: "Montserrat", bold: true }, 16],
    ["Caveat", { ...BOLD_POP, fontFamily: "Caveat", bold: false }, 40]
  ] as const) {
    it(`draws ${name} with the export's own font files, fetched when a script first names it`, async () => {
      expect(requested.filter((url) => fontRequests(style.fontFamily).includes(url))).toEqual([])
      const ass = scriptFor(WORDS, style)
      const preview = await show(ass, name)
      expect(requested).toEqual(expect.arrayContaining(fontRequests(style.fontFamily)))
      const libass = agreement(preview, await libassFrame(ass, name), style)
      // The same script in the default family: the family must show.
      const dejavu = agreement(preview, await libassFrame(scriptFor(WORDS, { ...style, fontFamily: editorAssetUrls.defaultFont }), `${name}-dejavu`), style)
      expect(libass.caption.other).toBeGreaterThan(3000)
      expect(libass.caption.common / libass.caption.preview).toBeGreaterThanOrEqual(0.95)
      expect(libass.caption.common / libass.caption.other).toBeGreaterThanOrEqual(0.95)
      expect(libass.maxDifference).toBeLessThanOrEqual(tolerance)
      expect(libass.over48).toBe(0)
      expect(ratio(libass.highlight.preview, libass.highlight.other)).toBeLessThanOrEqual(0.02)
      expect(dejavu.over48).toBeGreaterThan(1000)
    })
  }

  // Every built-in template, mid-animation where it has one (1 s is 0.3 s into "preview"): the same
  // libass, the same fonts, the same moment.
  for (const template of BUILT_IN_TEMPLATES) {
    it(`draws template ${template.id} (${template.name}) as ffmpeg's libass does`, async () => {
      const { style } = template
      const ass = scriptFor(WORDS, style)
      const preview = await show(ass, `template${-template.id}`)
      const libass = nearAgreement(preview, await libassFrame(ass, `template${-template.id}`), style)
      expect(libass.otherCaption).toBeGreaterThan(500)
      // Measured: the other families agree within one pixel's shift but for at most 0.13% of pixels;
      // Playfair Display and Caveat keep up to 2.2% of their edges apart (thin serifs and strokes).
      expect(ratio(libass.previewCaption, libass.otherCaption)).toBeLessThanOrEqual(0.04)
      expect(libass.previewFound / libass.previewCaption).toBeGreaterThanOrEqual(0.98)
      expect(libass.otherFound / libass.otherCaption).toBeGreaterThanOrEqual(0.98)
      expect(libass.over48).toBeLessThanOrEqual(libass.otherCaption * (["Playfair Display", "Caveat"].includes(style.fontFamily) ? 0.025 : 0.003))
    })
  }

  it("draws CJK words with the fallback file the server's fontconfig picks, fetched once a script has some", async () => {
    const fallback = `${origin()}${editorAssetUrls.cjkFallback.url}`
    expect(requested).not.toContain(fallback)
    const style: CaptionStyle = { ...BOLD_POP, fontFamily: "Noto Sans" }
    const ass = scriptFor([{ text: "字幕", start: 0.2, end: 0.7 }, { text: "预览", start: 0.7, end: 1.4 }, { text: "导出", start: 1.4, end: 1.9 }], style)
    const preview = await show(ass, "cjk")
    expect(requested).toContain(fallback)
    const libass = agreement(preview, await libassFrame(ass, "cjk"), style)
    expect(libass.caption.other).toBeGreaterThan(2000)
    expect(libass.caption.common / libass.caption.preview).toBeGreaterThanOrEqual(0.95)
    expect(libass.caption.common / libass.caption.other).toBeGreaterThanOrEqual(0.95)
    expect(libass.maxDifference).toBeLessThanOrEqual(16)
    expect(libass.over48).toBe(0)
  })
})
