// Saves a fake-text screenshot of one conversation in each chat theme to docs/fake-text/<theme>.png,
// at phone size: `npx tsx scripts/fake-text-screenshots.ts`.
import { writeFile, mkdir } from "node:fs/promises"
import { join } from "node:path"
import { Effect } from "effect"
import { paintChat } from "../adapters/chat/canvas-chat-painter.ts"
import { CHAT_THEMES } from "../domain/chat-themes.ts"
import type { Conversation } from "../domain/conversation.ts"

const OUT_DIR = join(import.meta.dirname, "..", "docs", "fake-text")

const conversation: Conversation = {
  participants: [
    { id: "me", name: "Sam", me: true },
    { id: "maya", name: "Maya Lopez" }
  ],
  messages: [
    { from: "maya", text: "are you still coming tonight? 🎉" },
    { from: "me", text: "Yes!! leaving in 10 minutes 🚗💨" },
    { from: "maya", text: "ok wait" },
    { from: "maya", text: "did you tell Jordan about the surprise or is it still a secret?? he keeps asking me what we are doing" },
    { from: "me", text: "Still a secret 🤫 I told him we're going bowling" },
    { from: "maya", text: "😂😂😂 he hates bowling" },
    { from: "me", text: "exactly, that's the plan 👍🏽" },
    { from: "maya", text: "My grandma says: שלום! and also 你好，明天见 ❤️" },
    { from: "me", text: "tell her مرحبا from me" }
  ]
}

await mkdir(OUT_DIR, { recursive: true })
for (const theme of CHAT_THEMES) {
  const picture = await Effect.runPromise(paintChat({
    conversation,
    theme,
    images: new Map(),
    width: 1080,
    height: 1920,
    state: { visible: conversation.messages.length, scroll: null, typing: null }
  }))
  const path = join(OUT_DIR, `${theme.id}.png`)
  await writeFile(path, picture.png)
  console.log(`wrote ${path} (${Math.round(picture.png.length / 1024)} KB)`)
}
