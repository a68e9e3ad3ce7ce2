// What every UserStore adapter must do.
import { randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Cause, Effect, Exit, type Layer, Option } from "effect"
import { type Session, type User, UserStore } from "../../domain/ports/user-store.ts"
import { WorkspaceStore } from "../../domain/ports/workspace-store.ts"
import { aUser, aWorkspace } from "./fixtures.ts"

const aSession = (userId: string): Session => ({
  hash: randomUUID().replaceAll("-", ""),
  userId,
  createdAt: "2025-01-02T03:04:05.678Z",
  expiresAt: "2025-01-09T03:04:05.678Z"
})

/** Whether `effect` died (as a violated constraint does) rather than succeeding. */
const dies = <A>(effect: Effect.Effect<A>) =>
  Effect.map(Effect.exit(effect), (exit) => Exit.isFailure(exit) && Cause.isDie(exit.cause))

export const userStoreContract = (name: string, stores: Layer.Layer<UserStore | WorkspaceStore, unknown>): void =>
  layer(stores)(`UserStore (${name})`, (it) => {
    it.effect("stores users and finds them by email in any case", () =>
      Effect.gen(function*() {
        const store = yield* UserStore
        const user = aUser()
        expect(Option.isNone(yield* store.getUser(user.id))).toBe(true)
        yield* store.insertUser(user)
        yield* store.insertUser(aUser())

        expect(Option.getOrThrow(yield* store.getUser(user.id))).toEqual(user)
        expect(Option.getOrThrow(yield* store.findUserByEmail(user.email))).toEqual(user)
        expect(Option.getOrThrow(yield* store.findUserByEmail(user.email.toUpperCase()))).toEqual(user)
        expect(Option.isNone(yield* store.findUserByEmail(`x${user.email}`))).toBe(true)
      }))

    it.effect("refuses an email another user has, or one not in lower case", () =>
      Effect.gen(function*() {
        const store = yield* UserStore
        const user = aUser()
        yield* store.insertUser(user)
        expect(yield* dies(store.insertUser(aUser({ email: user.email })))).toBe(true)
        expect(yield* dies(store.insertUser(aUser({ email: `Bob-${randomUUID()}@example.com` })))).toBe(true)
        const other = aUser()
        yield* store.insertUser(other)
        expect(yield* dies(store.updateUser({ ...other, email: user.email }))).toBe(true)
        expect(Option.getOrThrow(yield* store.findUserByEmail(user.email))).toEqual(user)
      }))

    it.effect("updates a user's email and password hash", () =>
      Effect.gen(function*() {
        const store = yield* UserStore
        const user = aUser()
        yield* store.insertUser(user)
        const changed: User = { ...user, email: `new-${randomUUID()}@example.com`, passwordHash: "scrypt$16384$8$1$c2FsdA$aGFzaA" }
        yield* store.updateUser(changed)

        expect(Option.getOrThrow(yield* store.getUser(user.id))).toEqual(changed)
        expect(Option.getOrThrow(yield* store.findUserByEmail(changed.email))).toEqual(changed)
        expect(Option.isNone(yield* store.findUserByEmail(user.email))).toBe(true)
      }))

    it.effect("lists a user's workspaces by name then id, with the latest role", () =>
      Effect.gen(function*() {
        const store = yield* UserStore
        const workspaces = yield* WorkspaceStore
        const user = aUser()
        const other = aUser()
        yield* store.insertUser(user)
        yield* store.insertUser(other)
        const base = randomUUID()
        // Inserted out of order; "alpha" sorts after "Beta" in code-unit order, and the two "Alpha"s by id.
        const beta = aWorkspace({ id: `${base}-3`, name: "Beta" })
        const lowerAlpha = aWorkspace({ id: `${base}-0`, name: "alpha" })
        const alpha2 = aWorkspace({ id: `${base}-2`, name: "Alpha" })
        const alpha1 = aWorkspace({ id: `${base}-1`, name: "Alpha" })
        const notHers = aWorkspace()
        for (const workspace of [beta, lowerAlpha, alpha2, alpha1, notHers]) yield* workspaces.insert(workspace)

        const join = (userId: string, workspaceId: string, role: "owner" | "member") =>
          store.addMembership({ userId, workspaceId, role, createdAt: "2025-01-02T03:04:05.678Z" })
        yield* join(user.id, beta.id, "member")
        yield* join(user.id, lowerAlpha.id, "owner")
        yield* join(user.id, alpha2.id, "member")
        yield* join(user.id, alpha1.id, "member")
        yield* join(other.id, notHers.id, "owner")
        yield* join(other.id, beta.id, "owner")
        // Joining again changes the role; it adds no second membership.
        yield* join(user.id, alpha2.id, "owner")

        expect(yield* store.workspacesOf(user.id)).toEqual([
          { workspace: alpha1, role: "member" },
          { workspace: alpha2, role: "owner" },
          { workspace: beta, role: "member" },
          { workspace: lowerAlpha, role: "owner" }
        ])
        expect(yield* store.workspacesOf(other.id)).toEqual([
          { workspace: notHers, role: "owner" },
          { workspace: beta, role: "owner" }
        ])
        expect(yield* store.workspacesOf(randomUUID())).toEqual([])
      }))

    it.effect("finds a session with its user as it is now, and deletes it", () =>
      Effect.gen(function*() {
        const store = yield* UserStore
        const user = aUser()
        yield* store.insertUser(user)
        const session = aSession(user.id)
        const other = aSession(user.id)
        yield* store.insertSession(session)
        yield* store.insertSession(other)

        expect(Option.getOrThrow(yield* store.findSession(session.hash))).toEqual({ session, user })
        const changed: User = { ...user, passwordHash: "scrypt$16384$8$1$c2FsdA$aGFzaA" }
        yield* store.updateUser(changed)
        expect(Option.getOrThrow(yield* store.findSession(session.hash))).toEqual({ session, user: changed })
        expect(Option.isNone(yield* store.findSession(randomUUID()))).toBe(true)

        yield* store.deleteSession(session.hash)
        expect(Option.isNone(yield* store.findSession(session.hash))).toBe(true)
        expect(Option.getOrThrow(yield* store.findSession(other.hash))).toEqual({ session: other, user: changed })
        yield* store.deleteSession(session.hash)
      }))
  })
