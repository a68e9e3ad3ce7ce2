// The conversation rules: field limits from the schema, rules across fields from conversationProblem.
import { Either, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { CHAT_THEMES, ChatThemeId } from "../../domain/chat-themes.ts"
import {
  ConversationFields,
  conversationProblem,
  initialsOf,
  MAX_MESSAGE_CHARACTERS,
  MAX_MESSAGES,
  MAX_PARTICIPANTS,
  ownerOf
} from "../../domain/conversation.ts"

const Payload = Schema.Struct(ConversationFields)
const decode = Schema.decodeUnknownEither(Payload)

const people = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `p${i}`, name: `Person ${i}` }))
const valid = { participants: people(2), messages: [{ from: "p0", text: "hi" }, { from: "p1", text: "hello" }] }

describe("conversation schema", () => {
  it("takes a valid conversation and defaults the theme to iMessage light", () => {
    const decoded = decode(valid)
    expect(Either.isRight(decoded)).toBe(true)
    if (Either.isRight(decoded)) expect(decoded.right.theme).toBe("imessage-light")
  })

  it("takes 2 to 10 participants", () => {
    expect(Either.isLeft(decode({ ...valid, participants: people(1) }))).toBe(true)
    expect(Either.isRight(decode({ ...valid, participants: people(MAX_PARTICIPANTS) }))).toBe(true)
    expect(Either.isLeft(decode({ ...valid, participants: people(MAX_PARTICIPANTS + 1) }))).toBe(true)
  })

  it("takes 1 to 200 messages of at most 1000 characters", () => {
    expect(Either.isLeft(decode({ ...valid, messages: [] }))).toBe(true)
    const many = Array.from({ length: MAX_MESSAGES + 1 }, () => ({ from: "p0", text: "x" }))
    expect(Either.isLeft(decode({ ...valid, messages: many }))).toBe(true)
    expect(Either.isRight(decode({ ...valid, messages: many.slice(1) }))).toBe(true)
    expect(Either.isRight(decode({ ...valid, messages: [{ from: "p0", text: "x".repeat(MAX_MESSAGE_CHARACTERS) }] }))).toBe(true)
    expect(Either.isLeft(decode({ ...valid, messages: [{ from: "p0", text: "x".repeat(MAX_MESSAGE_CHARACTERS + 1) }] }))).toBe(true)
  })

  it("refuses bad ids, empty names, delays out of range and unknown themes", () => {
    expect(Either.isLeft(decode({ ...valid, participants: [{ id: "a b", name: "A" }, { id: "b", name: "B" }] }))).toBe(true)
    expect(Either.isLeft(decode({ ...valid, participants: [{ id: "a", name: "  " }, { id: "b", name: "B" }] }))).toBe(true)
    expect(Either.isLeft(decode({ ...valid, messages: [{ from: "p0", text: "x", delaySeconds: 31 }] }))).toBe(true)
    expect(Either.isLeft(decode({ ...valid, theme: "telegram" }))).toBe(true)
  })

  it("has a theme for every theme id", () => {
    expect(CHAT_THEMES.map((t) => t.id).sort()).toEqual([...ChatThemeId.literals].sort())
  })
})

describe("conversation rules across fields", () => {
  it("accepts a valid conversation", () => {
    expect(conversationProblem(valid)).toBeNull()
  })

  it("names the message whose sender is unknown", () => {
    const problem = conversationProblem({ ...valid, messages: [...valid.messages, { from: "ghost", text: "boo" }] })
    expect(problem?.field).toBe("messages.2.from")
    expect(problem?.message).toContain("p0, p1")
  })

  it("needs text or a picture in each message", () => {
    expect(conversationProblem({ ...valid, messages: [{ from: "p0", text: "  " }] })?.field).toBe("messages.0.text")
    expect(conversationProblem({ ...valid, messages: [{ from: "p0", imageKey: "f1" }] })).toBeNull()
  })

  it("refuses duplicate ids and two owners", () => {
    expect(conversationProblem({ ...valid, participants: [{ id: "a", name: "A" }, { id: "a", name: "B" }] })?.field)
      .toBe("participants.1.id")
    const twoOwners = [{ id: "p0", name: "A", me: true }, { id: "p1", name: "B", me: true }]
    expect(conversationProblem({ ...valid, participants: twoOwners })?.field).toBe("participants")
  })

  it("the owner is the participant marked me, else the first", () => {
    expect(ownerOf(valid).id).toBe("p0")
    expect(ownerOf({ ...valid, participants: [{ id: "p0", name: "A" }, { id: "p1", name: "B", me: true }] }).id).toBe("p1")
  })

  it("initials are the first letters of the first and last names", () => {
    expect(initialsOf("Ana Lucia ruiz")).toBe("AR")
    expect(initialsOf("maya")).toBe("M")
    expect(initialsOf("Émile Zola")).toBe("ÉZ")
  })
})
