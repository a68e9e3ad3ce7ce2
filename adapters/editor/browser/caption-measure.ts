// Caption text measured in the page as the export measures it (caption-text-measure.ts): the same font
// files, at libass's em size, so the preview keeps the room beside a line for its emoji where the export
// does. A family's files load on first use; until then its text measures as NaN (no emoji room) and
// `onLoaded` asks for the preview to be drawn again.
import type { TextMeasure } from "../../media/ass-subtitles.ts"
import { emPerFontSize } from "../../media/font-em-size.ts"

interface Face {
  readonly alias: string
  readonly emPerSize: number
}

export const captionMeasure = (fonts: Readonly<Record<string, ReadonlyArray<string>>>, onLoaded: () => void): TextMeasure => {
  const faces = new Map<string, Face | "loading">()
  const context = document.createElement("canvas").getContext("2d")
  const load = async (key: string, url: string) => {
    const bytes = await (await fetch(url)).arrayBuffer()
    const alias = `reelwright-${key.replace(/[^A-Za-z0-9]+/g, "-")}`
    const face = new FontFace(alias, bytes)
    await face.load()
    document.fonts.add(face)
    faces.set(key, { alias, emPerSize: emPerFontSize(new DataView(bytes)) })
    onLoaded()
  }
  return (text, font) => {
    // The files are listed regular first, then bold where the family has it (libass emboldens the regular one otherwise).
    const urls = fonts[font.family] ?? []
    const bold = font.bold && urls.length > 1
    const key = `${font.family}/${bold ? "bold" : "regular"}`
    const face = faces.get(key)
    if (face === undefined) {
      const url = urls[bold ? 1 : 0]
      if (url !== undefined) {
        faces.set(key, "loading")
        void load(key, url).catch(() => faces.delete(key))
      }
      return Number.NaN
    }
    if (face === "loading" || context === null) return Number.NaN
    context.font = `${font.size * face.emPerSize}px "${face.alias}"`
    return context.measureText(text).width
  }
}
