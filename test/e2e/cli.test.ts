// The CLI as a user runs it: a separate process talking to the running service.
import { execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ADMIN_TOKEN, startApp, type TestApp } from "../support/app.ts"
import { runCli } from "../support/cli.ts"
import { makeSpokenClip } from "../support/clips.ts"
import { call } from "../support/http-client.ts"

const run = promisify(execFile)

let app: TestApp

beforeAll(async () => {
  app = await startApp({ worker: false })
})

afterAll(async () => {
  await app?.close()
})

const cli = (args: Array<string>, env: Record<string, string> = {}) => runCli(app.baseUrl, args, env)

describe("reelwright CLI", () => {
  it("creates a workspace, issues and revokes tokens, and sets the webhook signing secret", async () => {
    const created = await cli(
      ["workspace:create", "--name", "Acme", "--ownerEmail", "ops@acme.test", "--plan", "creator", "--credits", "500"],
      { ADMIN_TOKEN }
    )
    expect(created.code).toBe(0)
    const workspace = JSON.parse(created.stdout) as { workspaceId: string; token: string }
    expect(Object.keys(workspace).sort()).toEqual(["token", "workspaceId"])
    expect((await call(app.baseUrl, "/v1/videos", { token: workspace.token })).status).toBe(200)

    // Each CLI run is a whole node process: the ones that do not depend on each other run side by side.
    const [issued, secret] = await Promise.all([
      cli(["token:issue", "--workspaceId", workspace.workspaceId, "--label", "ci"], { ADMIN_TOKEN }),
      cli(["webhook-secret:set", "--workspaceId", workspace.workspaceId], { ADMIN_TOKEN })
    ])
    const second = JSON.parse(issued.stdout) as { tokenId: string; token: string }
    expect((await call(app.baseUrl, "/v1/videos", { token: second.token })).status).toBe(200)
    expect(JSON.parse(secret.stdout).secret).toMatch(/^whsec_/)

    const revoked = await cli(["token:revoke", "--tokenId", second.tokenId], { ADMIN_TOKEN })
    expect(revoked.code).toBe(0)
    expect((await call(app.baseUrl, "/v1/videos", { token: second.token })).status).toBe(401)
    expect((await call(app.baseUrl, "/v1/videos", { token: workspace.token })).status).toBe(200)
  })

  it("refuses admin commands without the admin token, and reports bad input before sending it", async () => {
    const [noToken, badEmail, unknown, help] = await Promise.all([
      cli(["workspace:create", "--name", "x", "--ownerEmail", "x@x.test"], { ADMIN_TOKEN: "rwadmin_wrong" }),
      cli(["workspace:create", "--name", "x", "--ownerEmail", "nope"], { ADMIN_TOKEN }),
      cli(["frobnicate"]),
      cli(["edit-captions", "--help"])
    ])
    expect(noToken.code).toBe(1)
    expect(noToken.stderr).toContain("unauthenticated")
    expect(badEmail.code).toBe(1)
    expect(badEmail.stderr).toContain("ownerEmail")
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("workspace:create")
    // A command's --help shows that command's fields and sends nothing (no token needed).
    expect(help.code).toBe(0)
    expect(help.stdout).toContain("edit-captions --id text [--words text] [--lineStarts text] [--templateId text] [--adjustments text] [--hook text] [--platform text] [--emphasis text] [--emoji text] [--trim text] [--cuts text] [--reframe text] [--framing text] [--revision text]")
    expect(help.stdout).not.toContain("workspace:create")
  })

  it("refuses unknown flags and values of the wrong form, takes text as text, and says its version", async () => {
    const { token } = await app.createWorkspace()
    const env = { REELWRIGHT_TOKEN: token }
    const [unknownFlag, notANumber, created, version] = await Promise.all([
      cli(["list", "--limt", "5"], env),
      cli(["list", "--limit", "five"], env),
      // A name that looks like a number stays the text it was typed as.
      cli(["workspace:create", "--name", "1234", "--ownerEmail", "n@acme.test"], { ADMIN_TOKEN }),
      cli(["--version"])
    ])
    expect(unknownFlag.code).toBe(2)
    expect(unknownFlag.stderr).toContain("--limt")
    expect(notANumber.code).toBe(1)
    expect(notANumber.stderr).toContain("--limit")
    expect(created.code).toBe(0)
    const { workspaceId } = JSON.parse(created.stdout) as { workspaceId: string }
    expect(workspaceId).toMatch(/^[0-9a-f-]{36}$/)
    expect(version.code).toBe(0)
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
  })

  it("lists the whisper.cpp models of this machine's MODELS_DIR without a service", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cli-models-"))
    const listed = await cli(["models", "list"], { MODELS_DIR: dir })
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stdout).toContain(`Models in ${dir}`)
    expect(listed.stdout).toContain("whisper-base.en-q5_1")
    await rm(dir, { recursive: true, force: true })
  })

  it("uploads a local file with --file through the multipart form", async () => {
    const { token } = await app.createWorkspace()
    const dir = await mkdtemp(join(tmpdir(), "cli-upload-"))
    const picture = join(dir, "card.png")
    await run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=red:s=64x48", "-frames:v", "1", picture])
    const uploaded = await cli(["upload", "--file", picture], { REELWRIGHT_TOKEN: token })
    expect(uploaded.code, uploaded.stderr).toBe(0)
    expect(JSON.parse(uploaded.stdout)).toMatchObject({ kind: "image", width: 64, height: 48 })
    await rm(dir, { recursive: true, force: true })
  })

  it("starts a caption removal from a local file: --file stands in for --url where the input has defaults", async () => {
    const { token } = await app.createWorkspace({ credits: 100 })
    const dir = await mkdtemp(join(tmpdir(), "cli-removal-"))
    const clip = join(dir, "clip.mp4")
    await run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=blue:s=64x48:d=1", "-c:v", "libx264", clip])
    const started = await cli(["remove-captions", "--file", clip, "--target", "captions"], { REELWRIGHT_TOKEN: token })
    expect(started.code, started.stderr).toBe(0)
    const { id } = JSON.parse(started.stdout) as { id: string }
    const removal = await call(app.baseUrl, `/v1/caption-remover/${id}`, { token })
    expect(removal.body).toMatchObject({ id, status: "processing" })
    // The other flags go with the file, decoded by their field's Schema.
    const refused = await cli(["remove-captions", "--file", clip, "--target", "everything"], { REELWRIGHT_TOKEN: token })
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain("--target")
    await rm(dir, { recursive: true, force: true })
  })

  it("lists videos with an API token", async () => {
    const { token } = await app.createWorkspace()
    const listed = await cli(["list", "--limit", "5"], { REELWRIGHT_TOKEN: token })
    expect(listed.code).toBe(0)
    expect(JSON.parse(listed.stdout)).toEqual({ data: [], nextCursor: null })
  })
})

describe("reelwright caption --file --wait", () => {
  let worked: TestApp
  let dir: string

  beforeAll(async () => {
    worked = await startApp()
    dir = await mkdtemp(join(tmpdir(), "cli-caption-"))
  })

  afterAll(async () => {
    await worked?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it("uploads a clip, waits with a progress line, and prints the completed video", async () => {
    const clip = await makeSpokenClip({ text: "The command line waits for this video.", width: 360, height: 640, fps: 30, dir })
    const { token } = await worked.createWorkspace()
    const result = await runCli(worked.baseUrl, ["caption", "--file", clip.path, "--wait"], { REELWRIGHT_TOKEN: token })
    expect(result.code, result.stderr).toBe(0)
    const video = JSON.parse(result.stdout) as { status: string; captions: { words: ReadonlyArray<unknown> } | null }
    expect(video.status).toBe("completed")
    expect(result.stderr).toMatch(/step: /)
  })

  it("makes clips of an uploaded talk, waits with a progress line, and prints the completed record", async () => {
    const clip = await makeSpokenClip({
      text: "Why do short videos work? Because people watch them to the end. Here is the second thing. Keep every clip short and clear.",
      width: 360,
      height: 640,
      fps: 30,
      dir
    })
    const { token } = await worked.createWorkspace({ credits: 100 })
    const result = await runCli(worked.baseUrl, ["clips", "--file", clip.path, "--count", "1", "--minSeconds", "5", "--maxSeconds", "20", "--wait"], {
      REELWRIGHT_TOKEN: token
    })
    expect(result.code, result.stderr).toBe(0)
    const record = JSON.parse(result.stdout) as { status: string; clips: ReadonlyArray<{ videoId: string }> }
    expect(record.status).toBe("completed")
    expect(record.clips).toHaveLength(1)
    expect(result.stderr).toMatch(/step: /)
  })
})
