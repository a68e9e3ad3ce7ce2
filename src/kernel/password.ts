// Passwords are stored as scrypt hashes that carry their own cost parameters, so the cost can be
// raised later without breaking the hashes already stored.
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { Effect } from "effect"
import { withSpan } from "./spans.ts"

/** N = 2^15, r = 8, p = 1: OWASP's scrypt minimum, about 70 ms and 32 MiB per hash. */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const
const KEY_BYTES = 32
const SALT_BYTES = 16

/** scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is exactly that, which it refuses. */
const maxmemFor = (N: number, r: number, p: number): number => 128 * N * r * p * 2

const derive = (password: string, salt: Buffer, N: number, r: number, p: number): Effect.Effect<Buffer> =>
  Effect.async<Buffer>((resume) => {
    // NFKC so the same password typed on another keyboard or OS hashes the same.
    scrypt(password.normalize("NFKC"), salt, KEY_BYTES, { N, r, p, maxmem: maxmemFor(N, r, p) }, (error, key) => {
      resume(error === null ? Effect.succeed(key) : Effect.die(error))
    })
  })

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export const hashPassword = (password: string): Effect.Effect<string> =>
  Effect.gen(function*() {
    const salt = randomBytes(SALT_BYTES)
    const key = yield* derive(password, salt, COST.N, COST.r, COST.p)
    return ["scrypt", COST.N, COST.r, COST.p, salt.toString("base64url"), key.toString("base64url")].join("$")
  }).pipe(withSpan("hashPassword"))

const PARAMETER = /^[1-9][0-9]{0,9}$/

/** Whether `password` is the one `stored` was made from; a malformed `stored` matches nothing. */
export const verifyPassword = (password: string, stored: string): Effect.Effect<boolean> =>
  Effect.gen(function*() {
    const [scheme, n, r, p, salt, hash, ...rest] = stored.split("$")
    if (scheme !== "scrypt" || rest.length > 0 || salt === undefined || hash === undefined) return false
    if (![n, r, p].every((x) => x !== undefined && PARAMETER.test(x))) return false
    const expected = Buffer.from(hash, "base64url")
    if (expected.length !== KEY_BYTES) return false
    const key = yield* derive(password, Buffer.from(salt, "base64url"), Number(n), Number(r), Number(p))
    return timingSafeEqual(key, expected)
  }).pipe(withSpan("verifyPassword"))
