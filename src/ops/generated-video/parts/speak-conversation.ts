// A fake-text video's speaking step: every message with text read in its sender's voice, then the
// messages timed from those speeches (typing, pop, speech) and mixed with the send and receive sounds.
import { Effect } from "effect"
import { chatSchedule } from "../../../../domain/chat-schedule.ts"
import type { ChatVisuals, GeneratedProject } from "../../../../domain/generated-project.ts"
import { chatSoundCues } from "../../../../domain/sound-effects.ts"
import type { VideoRecord } from "../../../../domain/video.ts"
import { recordSpokenMix, speakParts } from "./spoken-mix.ts"

export const speakConversation = (video: VideoRecord, project: GeneratedProject, visuals: ChatVisuals, dir: string) =>
  Effect.gen(function*() {
    const { conversation } = visuals
    const said = conversation.messages.flatMap((m, i) => {
      const text = m.text?.trim() ?? ""
      return text === "" ? [] : [{ message: i, text, voiceId: visuals.voices[m.from]! }]
    })
    const spoken = yield* speakParts(video, said, dir)
    const seconds = conversation.messages.map((_, i) => {
      const k = said.findIndex((s) => s.message === i)
      return k === -1 ? 0 : spoken[k]!.durationSeconds
    })
    const schedule = chatSchedule(conversation, seconds)
    return yield* recordSpokenMix(video, { ...project, visuals: { ...visuals, schedule } }, {
      speeches: said.map((s, k) => ({ part: spoken[k]!, atSeconds: schedule.beats[s.message]!.speechAt })),
      cues: chatSoundCues(schedule),
      durationSeconds: schedule.durationSeconds
    }, dir)
  })
