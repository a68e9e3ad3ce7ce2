// The session cookie's attributes follow the base URL: Secure exactly when the service is on https.
import { Cookies, HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "vitest"
import { clearSession, setSession } from "../../adapters/oauth/session-cookie.ts"

const setCookie = (response: HttpServerResponse.HttpServerResponse) => Cookies.toSetCookieHeaders(response.cookies)[0]!

describe("the rw_session cookie", () => {
  it("is HttpOnly, SameSite=Lax, Path=/, expires with the session, and Secure under https", () => {
    const header = setCookie(setSession(HttpServerResponse.empty(), "https://videos.example.com", "rwss_abc", "2030-01-02T03:04:05.000Z"))
    expect(header).toMatch(/^rw_session=rwss_abc;/)
    expect(header).toContain("HttpOnly")
    expect(header).toContain("SameSite=Lax")
    expect(header).toContain("Path=/")
    expect(header).toContain("Expires=Wed, 02 Jan 2030 03:04:05 GMT")
    expect(header).toContain("Secure")
  })

  it("is not Secure on a plain http base URL (local development), and is cleared with the same attributes", () => {
    expect(setCookie(setSession(HttpServerResponse.empty(), "http://localhost:8080", "rwss_abc", "2030-01-02T03:04:05.000Z")))
      .not.toContain("Secure")
    const cleared = setCookie(clearSession(HttpServerResponse.empty(), "https://videos.example.com"))
    expect(cleared).toMatch(/^rw_session=;/)
    expect(cleared).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/)
    expect(cleared).toContain("Secure")
  })
})
