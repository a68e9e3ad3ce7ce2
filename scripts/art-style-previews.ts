// Renders one preview per art style with the built-in illustrator: `npx tsx scripts/art-style-previews.ts [prompt]`.
import { mkdir } from "node:fs/promises"
import { join } from "node:path"
import { Effect } from "effect"
import { BuiltinIllustratorLive } from "../adapters/imagery/builtin-illustrator.ts"
import { ART_STYLES } from "../domain/art-styles.ts"
import { Illustrator } from "../domain/ports/illustrator.ts"

const OUT_DIR = join(import.meta.dirname, "..", "docs", "art-styles")
const PROMPT = process.argv[2] ?? "a quiet beach at sunset with palm trees"

const program = Effect.gen(function*() {
  const illustrator = yield* Illustrator
  yield* Effect.promise(() => mkdir(OUT_DIR, { recursive: true }))
  for (const style of ART_STYLES) {
    const outputPng = join(OUT_DIR, `${style.id}.png`)
    yield* illustrator.illustrate({ prompt: PROMPT, style, seed: 7, width: 540, height: 960, outputPng })
    yield* Effect.log(`wrote ${outputPng}`)
  }
})

Effect.runPromise(program.pipe(Effect.provide(BuiltinIllustratorLive))).catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
