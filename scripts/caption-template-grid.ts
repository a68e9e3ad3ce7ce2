// Draws docs/caption-templates.jpg, the README's grid of the built-in caption templates: each one's
// sample (the preview route's words and background) at a moment of its third word, burned by libass
// with the shipped fonts, as the export does. `npx tsx scripts/caption-template-grid.ts`
import { execFile } from "node:child_process"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { assSubtitles } from "../adapters/media/ass-subtitles.ts"
import { assFilter } from "../adapters/media/caption-fonts.ts"
import { BUILT_IN_TEMPLATES, layoutCaptions, layoutRulesOf } from "../domain/captions.ts"
import { CAPTION_PREVIEW } from "../adapters/http/caption-template-preview-route.ts"

const run = promisify(execFile)
const OUT = join(import.meta.dirname, "..", "docs", "caption-templates.jpg")
const COLUMNS = 6
const { width, height, words, background } = CAPTION_PREVIEW
/** Inside the third word, when most animations have played and the highlight sits on it. */
const AT = words[2]!.start + 0.25

const main = async () => {
  const dir = await mkdtemp(join(tmpdir(), "template-grid-"))
  try {
    const tiles: Array<string> = []
    for (const { id, name, style } of BUILT_IN_TEMPLATES) {
      const ass = join(dir, `${-id}.ass`)
      const tile = join(dir, `${-id}.png`)
      await writeFile(ass, assSubtitles({ pages: layoutCaptions(words, layoutRulesOf(style)), style, width, height, format: "standard" }))
      const label = `${id}  ${name}`.replace(/[':\\]/g, "")
      await run("ffmpeg", [
        "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", `${background}:r=25:d=${AT + 0.1}`,
        "-vf", `${assFilter(ass)},drawtext=font='DejaVu Sans':text='${label}':x=8:y=h-24:fontsize=15:fontcolor=white:box=1:boxcolor=black@0.5:boxborderw=4`,
        "-ss", AT.toFixed(2), "-frames:v", "1", tile
      ])
      tiles.push(tile)
    }
    const rows = Math.ceil(tiles.length / COLUMNS)
    await run("ffmpeg", [
      "-nostdin", "-v", "error", "-y",
      ...tiles.flatMap((tile) => ["-i", tile]),
      "-filter_complex", `${tiles.map((_, i) => `[${i}]`).join("")}xstack=inputs=${tiles.length}:grid=${COLUMNS}x${rows}:fill=black`,
      "-q:v", "4", OUT
    ])
    console.log(`wrote ${OUT}`)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
