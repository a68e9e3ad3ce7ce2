// UserStore over the in-memory database.
import { Effect, Layer, Option } from "effect"
import { type MemberWorkspace, type User, UserStore } from "../../domain/ports/user-store.ts"
import { byCodeUnits, MemoryDatabase, type Tables, updateRow, withRow } from "./memory-database.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const membershipKey = (userId: string, workspaceId: string): string => JSON.stringify([userId, workspaceId])

/** What PostgreSQL's constraints would refuse in `user`'s row: a mixed-case email, or one another user has. */
const emailProblem = (t: Tables, user: User): string | undefined =>
  user.email !== user.email.toLowerCase()
    ? `email is not lower case: ${user.email}`
    : [...t.users.values()].some((other) => other.id !== user.id && other.email === user.email)
    ? `email already taken: ${user.email}`
    : undefined

export const MemoryUserStoreLive = Layer.effect(
  UserStore,
  Effect.map(MemoryDatabase, (db) => {
    /** Writes `user` with `put` unless its email breaks a rule; then dies, as a violated constraint does. */
    const writeUser = (user: User, put: (t: Tables) => Tables) =>
      db.modify((t) => {
        const problem = emailProblem(t, user)
        return [problem, problem === undefined ? put(t) : t] as const
      }).pipe(Effect.flatMap((problem) => problem === undefined ? Effect.void : Effect.dieMessage(problem)))

    return UserStore.of({
      insertUser: (user) =>
        writeUser(user, (t) => ({ ...t, users: withRow(t.users, user.id, user) })).pipe(
          withSpan("MemoryUserStore.insertUser")
        ),
      updateUser: (user) =>
        writeUser(user, (t) => ({
          ...t,
          users: updateRow(t.users, user.id, (row) => ({ ...row, email: user.email, passwordHash: user.passwordHash }))
        })).pipe(
          withSpan("MemoryUserStore.updateUser")
        ),
      getUser: (id) =>
        db.read((t) => Option.fromNullable(t.users.get(id))).pipe(withSpan("MemoryUserStore.getUser")),
      findUserByEmail: (email) =>
        db.read((t) => {
          const wanted = email.toLowerCase()
          return Option.fromNullable([...t.users.values()].find((user) => user.email === wanted))
        }).pipe(withSpan("MemoryUserStore.findUserByEmail")),
      // A repeated membership takes the new role and keeps when it began.
      addMembership: (membership) =>
        db.write((t) => {
          const key = membershipKey(membership.userId, membership.workspaceId)
          const existing = t.memberships.get(key)
          const row = existing === undefined ? membership : { ...existing, role: membership.role }
          return { ...t, memberships: withRow(t.memberships, key, row) }
        }).pipe(withSpan("MemoryUserStore.addMembership")),
      workspacesOf: (userId) =>
        db.read((t) =>
          [...t.memberships.values()]
            .filter((membership) => membership.userId === userId)
            .flatMap((membership): ReadonlyArray<MemberWorkspace> => {
              const workspace = t.workspaces.get(membership.workspaceId)
              return workspace === undefined ? [] : [{ workspace, role: membership.role }]
            })
            .sort((a, b) =>
              byCodeUnits(a.workspace.name, b.workspace.name) || byCodeUnits(a.workspace.id, b.workspace.id)
            )
        ).pipe(withSpan("MemoryUserStore.workspacesOf")),
      insertSession: (session) =>
        db.write((t) => ({ ...t, sessions: withRow(t.sessions, session.hash, session) })).pipe(
          withSpan("MemoryUserStore.insertSession")
        ),
      findSession: (hash) =>
        db.read((t) =>
          Option.gen(function*() {
            const session = yield* Option.fromNullable(t.sessions.get(hash))
            const user = yield* Option.fromNullable(t.users.get(session.userId))
            return { session, user }
          })
        ).pipe(withSpan("MemoryUserStore.findSession")),
      deleteSession: (hash) =>
        db.write((t) => {
          const sessions = new Map(t.sessions)
          sessions.delete(hash)
          return { ...t, sessions }
        }).pipe(withSpan("MemoryUserStore.deleteSession"))
    })
  })
)
