// Saves a fake-text screenshot of one conversation in each chat theme to docs/fake-text/<theme>.png,
// at phone size: `npx tsx scripts/fake-text-screenshots.ts`.
import { writeFile, mkdir } from "node:fs/promises"
import { join } from "node:path"
import { Effect } from "effect"
import { paintChat } from "../adapters/chat/canvas-chat-painter.ts"
import { CHAT_THEMES } from "../domain/chat-themes.ts"
import { SAMPLE_CONVERSATION } from "./sample-conversation.ts"

const OUT_DIR = join(import.meta.dirname, "..", "docs", "fake-text")


await mkdir(OUT_DIR, { recursive: true })
for (const theme of CHAT_THEMES) {
  const picture = await Effect.runPromise(paintChat({
    conversation: SAMPLE_CONVERSATION,
    theme,
    images: new Map(),
    width: 1080,
    height: 1920,
    state: { visible: SAMPLE_CONVERSATION.messages.length, scroll: null, typing: null }
  }))
  const path = join(OUT_DIR, `${theme.id}.png`)
  await writeFile(path, picture.png)
  console.log(`wrote ${path} (${Math.round(picture.png.length / 1024)} KB)`)
}
