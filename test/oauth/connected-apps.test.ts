// The connected-apps page's use cases: a user sees their grants and revokes them; no one else can.
import { expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { authenticateMcp } from "../../src/ops/oauth/authenticate-mcp.ts"
import { connectedApps, disconnectApp } from "../../src/ops/oauth/connected-apps.ts"
import { connectedApp, RESOURCE, TestStores } from "./fixture.ts"

it.effect("lists a user's grants and revokes one for its user only", () =>
  Effect.gen(function*() {
    const mine = yield* connectedApp("owner@example.com")
    const theirs = yield* connectedApp("other@example.com")

    const listed = yield* connectedApps(mine.userId)
    expect(listed.map((view) => [view.client.name, view.workspace.id])).toEqual([["Test app", mine.workspaceId]])

    const theirGrant = (yield* connectedApps(theirs.userId))[0]!.grant.id
    expect((yield* Effect.flip(disconnectApp(mine.userId, theirGrant)))._tag).toBe("NotFound")
    expect((yield* Effect.flip(disconnectApp(mine.userId, "no-such-grant")))._tag).toBe("NotFound")

    yield* disconnectApp(mine.userId, listed[0]!.grant.id)
    expect(yield* connectedApps(mine.userId)).toEqual([])
    expect(Either.isLeft(yield* Effect.either(authenticateMcp(mine.tokens.access_token, RESOURCE)))).toBe(true)
    // The other user's grant still stands.
    expect((yield* connectedApps(theirs.userId)).length).toBe(1)
    expect(Either.isRight(yield* Effect.either(authenticateMcp(theirs.tokens.access_token, RESOURCE)))).toBe(true)
  }).pipe(Effect.provide(TestStores)))
