// The sign-in, consent and connected-apps pages in a real browser (Debian's Chromium, headless, driven
// by playwright-core): a wrong password, signing in, choosing the second workspace, the redirect to
// the app's loopback server with a code that exchanges for tokens, disconnecting the app, and a page
// that refuses to be framed. Screenshots for the README are refreshed with UPDATE_DOCS_SCREENSHOTS=1.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page } from "playwright-core"
import { createHash, randomBytes } from "node:crypto"
import { mkdir, mkdtemp, rm, stat } from "node:fs/promises"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startApp, type TestApp } from "../support/app.ts"
import { launchChromium, skipWithoutChromium } from "../support/chromium.ts"

const PASSWORD = "a long enough password"
const skip = skipWithoutChromium("the OAuth page tests")

/** The app's side of the redirect: a loopback server that records what the browser brings back. */
const startRedirectTarget = async () => {
  const hits: Array<URL> = []
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1")
    if (url.pathname === "/callback") {
      hits.push(url)
      response.writeHead(200, { "content-type": "text/html" }).end("<h1>Connected. You can close this window.</h1>")
    } else if (url.pathname === "/framer") {
      // A page of another origin that tries to frame ours (clickjacking the consent button).
      const target = url.searchParams.get("target") ?? ""
      response.writeHead(200, { "content-type": "text/html" }).end(`<iframe id="victim" src="${target.replace(/"/g, "&quot;")}"></iframe>`)
    } else {
      response.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return { origin: `http://127.0.0.1:${port}`, hits, close: () => new Promise<void>((r) => server.close(() => r())) }
}

describe.skipIf(skip)("OAuth pages in Chromium", () => {
  let app: TestApp
  let browser: Browser
  let page: Page
  let target: Awaited<ReturnType<typeof startRedirectTarget>>
  let shotsDir: string
  let clientId: string
  const verifier = randomBytes(32).toString("base64url")
  const state = randomBytes(8).toString("hex")
  let accessToken: string

  beforeAll(async () => {
    app = await startApp({ worker: false })
    const a = await app.createWorkspace({ name: "Morning Shorts", ownerEmail: "owner@example.com" })
    const b = await app.createWorkspace({ name: "Product Demos", ownerEmail: "owner@example.com" })
    await app.createUser({
      email: "ada@example.com",
      password: PASSWORD,
      workspaces: [{ workspaceId: a.workspaceId }, { workspaceId: b.workspaceId, role: "owner" }]
    })
    target = await startRedirectTarget()
    const registered = await fetch(`${app.baseUrl}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Clip Assistant", redirect_uris: [`${target.origin}/callback`] })
    })
    expect(registered.status).toBe(201)
    clientId = ((await registered.json()) as { client_id: string }).client_id
    shotsDir = process.env.UPDATE_DOCS_SCREENSHOTS === "1" ? join(process.cwd(), "docs", "oauth") : await mkdtemp(join(tmpdir(), "oauth-shots-"))
    await mkdir(shotsDir, { recursive: true })
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 640, height: 720 } })
  })

  afterAll(async () => {
    await browser?.close()
    await target?.close()
    await app?.close()
    if (shotsDir !== undefined && !shotsDir.startsWith(join(process.cwd(), "docs"))) await rm(shotsDir, { recursive: true, force: true })
  })

  /** A screenshot small enough for the README. */
  const screenshot = async (name: string) => {
    const path = join(shotsDir, `${name}.png`)
    await page.screenshot({ path, type: "png" })
    expect((await stat(path)).size).toBeLessThan(200 * 1024)
  }

  const authorizeUrl = () =>
    `${app.baseUrl}/oauth/authorize?${new URLSearchParams({
      response_type: "code",
      client_id: clientId,
      redirect_uri: `${target.origin}/callback`,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
      state,
      resource: `${app.baseUrl}/mcp`
    })}`

  it("signs in (after a wrong password), shows the consent page, and sends the code to the app", async () => {
    const opened = await page.goto(authorizeUrl())
    expect(opened?.status()).toBe(200)
    expect(await page.locator("h1").textContent()).toBe("Sign in")
    expect(await page.locator("main").textContent()).toContain("Clip Assistant")
    await screenshot("sign-in")

    await page.fill("#email", "ada@example.com")
    await page.fill("#password", "not the password")
    await Promise.all([page.waitForLoadState("load"), page.click("button[type=submit]")])
    await expect.poll(() => page.locator("[role=alert]").textContent()).toBe("The email or the password is wrong.")
    expect(await page.inputValue("#email")).toBe("ada@example.com")

    await page.fill("#password", PASSWORD)
    await Promise.all([page.waitForURL(/\/oauth\/authorize\?/), page.click("button[type=submit]")])
    expect(await page.locator("#client-name").textContent()).toBe("Clip Assistant")
    expect(await page.locator("#redirect-host").textContent()).toBe(new URL(target.origin).host)
    const choices = page.locator("input[name=workspace]")
    expect(await choices.count()).toBe(2)
    expect(await page.locator("label.choice").allTextContents()).toEqual([
      expect.stringContaining("Morning Shorts"),
      expect.stringContaining("Product Demos")
    ])
    await choices.nth(1).check()
    await screenshot("consent")

    await Promise.all([page.waitForURL(`${target.origin}/callback**`), page.click("button[value=approve]")])
    expect(await page.locator("h1").textContent()).toContain("Connected")
    expect(target.hits).toHaveLength(1)
    const callback = target.hits[0]!
    expect(callback.searchParams.get("state")).toBe(state)
    expect(callback.searchParams.get("iss")).toBe(app.baseUrl)
    const code = callback.searchParams.get("code")!
    expect(code).toMatch(/^rwac_/)

    const exchanged = await fetch(`${app.baseUrl}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        client_id: clientId,
        code,
        code_verifier: verifier,
        redirect_uri: `${target.origin}/callback`,
        resource: `${app.baseUrl}/mcp`
      })
    })
    expect(exchanged.status).toBe(200)
    accessToken = ((await exchanged.json()) as { access_token: string }).access_token
    expect(await mcpStatus(accessToken)).toBe(200)
  })

  const mcpStatus = async (token: string) => {
    const response = await fetch(`${app.baseUrl}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })
    })
    await response.text()
    return response.status
  }

  it("lists the grant on the connected-apps page, and disconnecting it stops the token", async () => {
    await page.goto(`${app.baseUrl}/account/connections`)
    const grants = page.locator(".grants li")
    expect(await grants.count()).toBe(1)
    const text = await grants.first().textContent()
    expect(text).toContain("Clip Assistant")
    expect(text).toContain("Product Demos")
    expect(text).toMatch(/since \d{1,2} \w{3} \d{4}/)
    await screenshot("connections")

    await Promise.all([page.waitForLoadState("load"), grants.first().locator("button").click()])
    await expect.poll(() => page.locator("#no-grants").count()).toBe(1)
    expect(await mcpStatus(accessToken)).toBe(401)
  })

  it("cannot be framed by another site", async () => {
    const refusals: Array<string> = []
    page.on("console", (message) => refusals.push(message.text()))
    const response = await page.request.get(authorizeUrl())
    expect(response.headers()["x-frame-options"]).toBe("DENY")
    expect(response.headers()["content-security-policy"]).toContain("frame-ancestors 'none'")

    await page.goto(`${target.origin}/framer?${new URLSearchParams({ target: authorizeUrl() })}`)
    await expect.poll(() => refusals.some((r) => r.includes("frame-ancestors"))).toBe(true)
    const framed = page.frames().find((f) => f !== page.mainFrame())
    expect(framed).toBeDefined()
    expect(framed!.url().startsWith(app.baseUrl)).toBe(false)
  })
})
