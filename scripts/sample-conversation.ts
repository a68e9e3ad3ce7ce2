// The conversation the docs pictures and the screenshot benchmark draw: emoji, a long wrapped
// message, Hebrew, Chinese and Arabic, so each picture shows every text feature at once.
import type { Conversation } from "../domain/conversation.ts"

export const SAMPLE_CONVERSATION: Conversation = {
  participants: [
    { id: "sam", name: "Sam", me: true },
    { id: "maya", name: "Maya Lopez" }
  ],
  messages: [
    { from: "maya", text: "are you still coming tonight? 🎉" },
    { from: "sam", text: "Yes!! leaving in 10 minutes 🚗💨" },
    { from: "maya", text: "ok wait" },
    { from: "maya", text: "did you tell Jordan about the surprise or is it still a secret?? he keeps asking me what we are doing" },
    { from: "sam", text: "Still a secret 🤫 I told him we're going bowling" },
    { from: "maya", text: "😂😂😂 he hates bowling" },
    { from: "sam", text: "exactly, that's the plan 👍🏽" },
    { from: "maya", text: "My grandma says: שלום! and also 你好，明天见 ❤️" },
    { from: "sam", text: "tell her مرحبا from me" }
  ]
}
