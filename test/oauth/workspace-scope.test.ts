// An OAuth token acts for the one workspace it was approved for: another workspace's video is a 404.
import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { CurrentWorkspace } from "../../src/kernel/current-workspace.ts"
import { authenticateMcp } from "../../src/ops/oauth/authenticate-mcp.ts"
import { getVideo } from "../../src/ops/videos/get-video.ts"
import { aVideo } from "../contract/fixtures.ts"
import { aWorkspace, connectedApp, RESOURCE, TestStores } from "./fixture.ts"

it.effect("a token of workspace A gets A's video and not B's", () =>
  Effect.gen(function*() {
    const a = yield* connectedApp("a@example.com")
    const b = yield* aWorkspace("b@example.com", "B")
    const videos = yield* VideoStore
    const videoOfA = aVideo(a.workspaceId)
    const videoOfB = aVideo(b.workspaceId)
    yield* videos.insert(videoOfA)
    yield* videos.insert(videoOfB)

    const workspace = yield* authenticateMcp(a.tokens.access_token, RESOURCE)
    expect(workspace.id).toBe(a.workspaceId)
    const asA = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provideService(effect, CurrentWorkspace, workspace)
    expect((yield* asA(getVideo.handle({ id: videoOfA.id }))).id).toBe(videoOfA.id)
    const refused = yield* Effect.flip(asA(getVideo.handle({ id: videoOfB.id })))
    expect(refused._tag).toBe("NotFound")
  }).pipe(Effect.provide(TestStores)))
