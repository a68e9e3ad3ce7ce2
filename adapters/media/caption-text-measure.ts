// How wide caption text is as libass sets it, measured by Skia (@napi-rs/canvas) in the very font files
// libass reads, at libass's em size (font-em-size.ts): what places an emoji beside its line.
import { createCanvas, GlobalFonts } from "@napi-rs/canvas"
import { readFileSync } from "node:fs"
import type { TextMeasure } from "./ass-subtitles.ts"
import { CAPTION_FONT_FILES } from "./caption-fonts.ts"
import { emPerFontSize } from "./font-em-size.ts"

interface Face {
  /** The name the face is registered under, one per file, so Skia never substitutes another weight. */
  readonly alias: string
  /** Ems per unit of ASS font size. */
  readonly emPerSize: number
}

let faces: ReadonlyMap<string, Face> | undefined

const facesOf = (): ReadonlyMap<string, Face> => {
  if (faces !== undefined) return faces
  const byKey = new Map<string, Face>()
  for (const { family, path, weight } of CAPTION_FONT_FILES) {
    const alias = `Reelwright ${family} ${weight}`
    GlobalFonts.registerFromPath(path, alias)
    byKey.set(`${family}/${weight}`, { alias, emPerSize: emPerFontSize(new DataView(new Uint8Array(readFileSync(path)).buffer)) })
  }
  faces = byKey
  return byKey
}

const context = createCanvas(1, 1).getContext("2d")

/** A family's bold face where the style is bold and the family ships one, else its regular face (libass emboldens that one). */
export const measureCaptionText: TextMeasure = (text, font) => {
  const all = facesOf()
  const face = (font.bold ? all.get(`${font.family}/bold`) : undefined) ?? all.get(`${font.family}/regular`)
  if (face === undefined) return text.length * font.size * 0.5
  context.font = `${font.size * face.emPerSize}px "${face.alias}"`
  return context.measureText(text).width
}
