// The caption font catalogue against the files that ship: each face is where the adapter says, is the
// family and weight the catalogue names (as fontconfig reads it), and ffmpeg's libass, through the
// export's `ass` filter, draws with it rather than falling back to another font.
import { execFile } from "node:child_process"
import { access, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { assFilter, CAPTION_FONT_FILES, CJK_FALLBACK_FONT } from "../../adapters/media/caption-fonts.ts"
import { CAPTION_FONT_FAMILIES, type CaptionFontWeight } from "../../domain/caption-fonts.ts"

const run = promisify(execFile)

const W = 360
const H = 640
const GREY = 0x80
/** What fc-scan reads from each weight's file: its style name (DejaVu calls its regular "Book") and fontconfig weight. */
const FC_FACE: Readonly<Record<CaptionFontWeight, { readonly styles: ReadonlyArray<string>; readonly weight: string }>> = {
  regular: { styles: ["Regular", "Book"], weight: "80" },
  bold: { styles: ["Bold"], weight: "200" }
}

/** One line of text at the centre of a 360x640 picture, in `family`, white with a black outline. */
const script = (family: string, bold: boolean, text: string) => `[Script Info]
ScriptType: v4.00+
PlayResX: ${W}
PlayResY: ${H}
WrapStyle: 2

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Default,${family},44,&H00FFFFFF,&H00FFFFFF,&H00000000,&H00000000,${bold ? -1 : 0},0,0,0,100,100,0,0,1,2,0,5,10,10,10,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:00.00,0:00:05.00,Default,,0,0,0,,${text}
`

let dir = ""
let burns = 0

/** One frame of a grey picture with `ass` burned by the export's filter, as packed rgb24. */
const burn = async (ass: string): Promise<Buffer> => {
  const path = join(dir, `${burns++}.ass`)
  await writeFile(path, ass)
  const { stdout } = await run("ffmpeg", [
    "-nostdin", "-v", "error", "-f", "lavfi", "-i", `color=c=0x808080:s=${W}x${H}:d=0.1`,
    "-vf", `format=rgb24,${assFilter(path)}`, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"
  ], { encoding: "buffer", maxBuffer: W * H * 3 + 1024 })
  expect(stdout.length).toBe(W * H * 3)
  return stdout
}

/** Pixels whose colour differs between two frames by more than a few levels in some channel. */
const differing = (a: Buffer, b: Buffer) => {
  let n = 0
  for (let i = 0; i < a.length; i += 3) {
    if (Math.max(Math.abs(a[i]! - b[i]!), Math.abs(a[i + 1]! - b[i + 1]!), Math.abs(a[i + 2]! - b[i + 2]!)) > 8) n++
  }
  return n
}

/** Pixels other than the grey background inside a box. */
const inked = (frame: Buffer, box: { readonly x0: number; readonly y0: number; readonly x1: number; readonly y1: number }) => {
  let n = 0
  for (let y = box.y0; y < box.y1; y++) {
    for (let x = box.x0; x < box.x1; x++) {
      const i = (y * W + x) * 3
      if (Math.max(Math.abs(frame[i]! - GREY), Math.abs(frame[i + 1]! - GREY), Math.abs(frame[i + 2]! - GREY)) > 8) n++
    }
  }
  return n
}

describe("caption fonts", () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "caption-fonts-"))
  })
  afterAll(async () => {
    if (dir !== "") await rm(dir, { recursive: true, force: true })
  })

  it("has every shipped face on disk, of the family and weight the catalogue names", async () => {
    expect(CAPTION_FONT_FILES.map(({ family, weight }) => `${family} ${weight}`))
      .toEqual(CAPTION_FONT_FAMILIES.flatMap(({ family, weights }) => weights.map((weight) => `${family} ${weight}`)))
    for (const { family, weight, path } of CAPTION_FONT_FILES) {
      await access(path)
      const { stdout } = await run("fc-scan", ["--format", "%{family[0]}|%{style[0]}|%{weight}", path])
      const [scannedFamily, style, scannedWeight] = stdout.split("|")
      expect([path, scannedFamily, scannedWeight]).toEqual([path, family, FC_FACE[weight].weight])
      expect(FC_FACE[weight].styles).toContain(style)
    }
    const { stdout } = await run("fc-scan", ["--format", "%{family[0]}", CJK_FALLBACK_FONT.path])
    expect(stdout).toBe(CJK_FALLBACK_FONT.family)
  })

  it("burns each family with its own files, not a fallback", async () => {
    const text = "Quick brown fox 123"
    const dejavu = { regular: await burn(script("DejaVu Sans", false, text)), bold: await burn(script("DejaVu Sans", true, text)) }
    expect(differing(dejavu.regular, dejavu.bold)).toBeGreaterThan(300)
    await Promise.all(CAPTION_FONT_FAMILIES.filter(({ family }) => family !== "DejaVu Sans").flatMap(({ family, weights }) =>
      weights.map(async (weight) => {
        const frame = await burn(script(family, weight === "bold", text))
        // Another face moves most of the line's glyph edges: hundreds of pixels, where a fallback moves none.
        expect([family, weight, differing(frame, dejavu[weight]) > 1000]).toEqual([family, weight, true])
      })))
  })

  it("draws CJK words in Noto Sans with the fallback font's glyphs", async () => {
    const word = "你好世界"
    const noto = await burn(script("Noto Sans", false, word))
    const droid = await burn(script(CJK_FALLBACK_FONT.family, false, word))
    // Four 44 px glyphs centred on (180, 320).
    const box = { x0: 80, y0: 280, x1: 280, y1: 360 }
    expect(inked(noto, box)).toBeGreaterThan(1500)
    expect(inked(noto, { x0: 0, y0: 0, x1: W, y1: H })).toBe(inked(noto, box))
    expect(differing(noto, droid)).toBeLessThan(50)
  })
})
