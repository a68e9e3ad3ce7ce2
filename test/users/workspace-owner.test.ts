// A workspace made by the CLI has its owner: a user found or made by email, without a password yet.
import { expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { UserStore } from "../../domain/ports/user-store.ts"
import { aWorkspace, TestStores, userIdOf } from "../oauth/fixture.ts"

it.effect("createWorkspace makes its owner a member with the owner role", () =>
  Effect.gen(function*() {
    const users = yield* UserStore
    const first = yield* aWorkspace("Owner@Example.com", "First")
    const owner = Option.getOrThrow(yield* users.findUserByEmail("owner@example.com"))
    expect(owner.email).toBe("owner@example.com")
    expect(owner.passwordHash).toBeNull()
    // A second workspace of the same person, whatever the case of the email, has the same owner.
    const second = yield* aWorkspace("OWNER@example.com", "Second")
    expect(yield* userIdOf("owner@example.com")).toBe(owner.id)
    const memberships = (yield* users.workspacesOf(owner.id)).map((m) => [m.workspace.id, m.role])
    expect(memberships).toEqual([[first.workspaceId, "owner"], [second.workspaceId, "owner"]])
  }).pipe(Effect.provide(TestStores)))

it.effect("a user with no workspaces has none to pick from", () =>
  Effect.gen(function*() {
    yield* aWorkspace("owner@example.com")
    const users = yield* UserStore
    yield* users.insertUser({ id: "loner", email: "loner@example.com", passwordHash: null, createdAt: "2025-01-01T00:00:00.000Z" })
    expect(yield* users.workspacesOf("loner")).toEqual([])
  }).pipe(Effect.provide(TestStores)))
