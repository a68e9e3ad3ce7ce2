// member:add lets a user approve apps for a workspace.
import { expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { UserStore } from "../../domain/ports/user-store.ts"
import { addMember } from "../../src/ops/users/add-member.ts"
import { createUser } from "../../src/ops/users/create-user.ts"
import { asAdmin, aWorkspace, TestStores } from "../oauth/fixture.ts"

const add = (input: Record<string, unknown>) =>
  asAdmin(addMember.handle(Schema.decodeUnknownSync(Schema.extend(addMember.path, addMember.payload))(input)))

it.effect("adds a user as a member, by default, or as an owner", () =>
  Effect.gen(function*() {
    const { workspaceId } = yield* aWorkspace("owner@example.com")
    const { userId } = yield* asAdmin(createUser.handle({ email: "bea@example.com", password: "a long password" }))
    expect(yield* add({ workspaceId, email: "Bea@example.com" })).toEqual({ userId, workspaceId, role: "member" })
    expect((yield* (yield* UserStore).workspacesOf(userId)).map((m) => [m.workspace.id, m.role])).toEqual([[workspaceId, "member"]])
    expect((yield* add({ workspaceId, email: "bea@example.com", role: "owner" })).role).toBe("owner")
  }).pipe(Effect.provide(TestStores)))

it.effect("refuses an unknown workspace, and an unknown user pointing to user:create", () =>
  Effect.gen(function*() {
    const { workspaceId } = yield* aWorkspace("owner@example.com")
    const noWorkspace = yield* Effect.flip(add({ workspaceId: "nope", email: "owner@example.com" }))
    expect(noWorkspace._tag).toBe("NotFound")
    expect(noWorkspace.message).toContain("workspace")
    const noUser = yield* Effect.flip(add({ workspaceId, email: "ghost@example.com" }))
    expect(noUser._tag).toBe("NotFound")
    expect(noUser.message).toContain("user:create")
  }).pipe(Effect.provide(TestStores)))
