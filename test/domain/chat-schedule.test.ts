// The timing of a fake-text video: typing before received messages only, each message after the
// previous one's speech, delays added, the length following the speech; and what a frame shows.
import { describe, expect, it } from "vitest"
import {
  APPEAR_SECONDS,
  CHAT_LEAD_IN_SECONDS,
  CHAT_TAIL_SECONDS,
  chatMomentAt,
  chatSchedule,
  MESSAGE_GAP_SECONDS,
  PICTURE_HOLD_SECONDS,
  SEND_PAUSE_SECONDS,
  SPEECH_AFTER_APPEAR_SECONDS,
  typingSeconds
} from "../../domain/chat-schedule.ts"
import { chatPlacement } from "../../domain/chat-placement.ts"
import type { Conversation } from "../../domain/conversation.ts"

const CHAT: Conversation = {
  participants: [{ id: "me", name: "Me", me: true }, { id: "ana", name: "Ana" }],
  messages: [
    { from: "ana", text: "hi" },
    { from: "me", text: "hello there" },
    { from: "ana", imageKey: "cat", delaySeconds: 2 },
    { from: "me", text: "cute" }
  ]
}

describe("chatSchedule", () => {
  it("types before received messages, sends after a pause, and lasts as long as the speech makes it", () => {
    const schedule = chatSchedule(CHAT, [1, 2, 0, 0.5])
    const [a, b, c, d] = schedule.beats
    expect(a).toMatchObject({ typingAt: CHAT_LEAD_IN_SECONDS, sound: "received" })
    expect(a!.appearAt).toBeCloseTo(CHAT_LEAD_IN_SECONDS + typingSeconds(2))
    expect(a!.speechAt).toBeCloseTo(a!.appearAt + SPEECH_AFTER_APPEAR_SECONDS)
    expect(b).toMatchObject({ typingAt: null, sound: "sent" })
    expect(b!.appearAt).toBeCloseTo(a!.speechAt + 1 + MESSAGE_GAP_SECONDS + SEND_PAUSE_SECONDS)
    // The picture's delay comes before its sender starts typing; with no speech it is held.
    expect(c!.typingAt).toBeCloseTo(b!.speechAt + 2 + MESSAGE_GAP_SECONDS + 2)
    expect(d!.appearAt).toBeCloseTo(c!.appearAt + PICTURE_HOLD_SECONDS + SEND_PAUSE_SECONDS)
    expect(schedule.durationSeconds).toBeCloseTo(d!.speechAt + 0.5 + CHAT_TAIL_SECONDS)
  })

  it("grows by exactly the extra speech", () => {
    const short = chatSchedule(CHAT, [1, 2, 0, 0.5])
    const long = chatSchedule(CHAT, [1, 3.5, 0, 0.5])
    expect(long.durationSeconds - short.durationSeconds).toBeCloseTo(1.5)
  })

  it("types longer for longer messages, within bounds", () => {
    expect(typingSeconds(0)).toBe(1)
    expect(typingSeconds(40)).toBeGreaterThan(typingSeconds(10))
    expect(typingSeconds(1000)).toBe(2.2)
  })
})

describe("chatMomentAt", () => {
  const schedule = chatSchedule(CHAT, [1, 2, 0, 0.5])
  const [a, b] = schedule.beats

  it("shows the typing bubble, then the message entering, then settled", () => {
    expect(chatMomentAt(CHAT, schedule, 0.1)).toEqual({ visible: 0, entrance: 1, typing: null, typingPhase: 0 })
    const typing = chatMomentAt(CHAT, schedule, a!.typingAt! + 0.3)
    expect(typing).toMatchObject({ visible: 0, typing: "ana" })
    expect(typing.typingPhase).toBeGreaterThan(0)
    const entering = chatMomentAt(CHAT, schedule, a!.appearAt + APPEAR_SECONDS / 2)
    expect(entering).toMatchObject({ visible: 1, typing: null })
    expect(entering.entrance).toBeCloseTo(0.5)
    expect(chatMomentAt(CHAT, schedule, b!.appearAt - 0.01)).toMatchObject({ visible: 1, entrance: 1, typing: null })
    expect(chatMomentAt(CHAT, schedule, schedule.durationSeconds)).toMatchObject({ visible: 4, entrance: 1 })
  })
})

describe("chatPlacement", () => {
  it("fills a 9:16 frame, splits over a backdrop, and floats a phone-shaped card otherwise", () => {
    expect(chatPlacement(1080, 1920, false, false)).toEqual({ _tag: "Full", box: { x: 0, y: 0, width: 1080, height: 1920 } })
    expect(chatPlacement(1080, 1920, true, true)).toEqual({ _tag: "Split", box: { x: 0, y: 0, width: 1080, height: 960 } })
    const card = chatPlacement(1920, 1080, false, false)
    expect(card._tag).toBe("Card")
    expect(card.box.height).toBe(972)
    expect(card.box.width / card.box.height).toBeCloseTo(9 / 16, 2)
    expect(card.box.x + card.box.width / 2).toBeCloseTo(960, -1)
    for (const n of [card.box.x, card.box.y, card.box.width, card.box.height]) expect(n % 2).toBe(0)
  })
})
