// Saves one 540x960 frame of each built-in game to docs/gameplay/<game>.png: `npx tsx scripts/gameplay-frames.ts [seed]`.
import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { gameFrames } from "../adapters/gameplay/game-frames.ts"
import { encodeOpaquePng } from "../adapters/imagery/png-encoder.ts"
import { GAMES } from "../domain/gameplay.ts"

const OUT_DIR = join(import.meta.dirname, "..", "docs", "gameplay")
const WIDTH = 540
const HEIGHT = 960
const FPS = 30
/** Seconds into the footage of the frame saved: a moment with something going on. */
const AT_SECONDS = { runner: 9, racer: 14, blocks: 47.5 } as const
const seed = Number(process.argv[2] ?? 7)

await mkdir(OUT_DIR, { recursive: true })
for (const game of GAMES) {
  const frames = gameFrames(game.id, seed, WIDTH, HEIGHT, FPS)
  let pixels = frames.next()
  for (let i = 0; i < AT_SECONDS[game.id] * FPS; i++) pixels = frames.next()
  const path = join(OUT_DIR, `${game.id}.png`)
  await writeFile(path, await encodeOpaquePng(pixels, WIDTH, HEIGHT))
  console.log(`wrote ${path}`)
}
