// What the process-level reliability tests share: an https receiver for webhooks, a deployment on
// Postgres + the S3 test server, and a small spoken clip; all torn down after the file.
import { afterAll, beforeAll } from "vitest"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeSpokenClip, type SpokenClip } from "./clips.ts"
import { type HttpsReceiver, startHttpsReceiver } from "./https-receiver.ts"
import { type Deployment, startDeployment } from "./service-process.ts"

export interface DeploymentFixture {
  readonly deployment: Deployment
  readonly receiver: HttpsReceiver
  readonly clip: SpokenClip
}

/** Registers the suite's set-up and tear-down; read the fields inside tests (they exist after beforeAll). */
export const useDeployment = (clipText: string): DeploymentFixture => {
  const fixture = {} as { deployment: Deployment; receiver: HttpsReceiver; clip: SpokenClip; dir: string }
  beforeAll(async () => {
    fixture.dir = await mkdtemp(join(tmpdir(), "reelwright-reliability-"))
    // Side by side, each kept as it is ready; all are settled before this ends, so that afterAll finds
    // whatever started before a failure.
    const dir = fixture.dir
    const settled = await Promise.allSettled([
      startHttpsReceiver().then((receiver) => (fixture.receiver = receiver)),
      startDeployment({ objectStore: true }).then((deployment) => (fixture.deployment = deployment)),
      makeSpokenClip({ text: clipText, width: 360, height: 640, fps: 30, dir }).then((clip) => (fixture.clip = clip))
    ])
    for (const result of settled) if (result.status === "rejected") throw result.reason
  })
  afterAll(async () => {
    await fixture.deployment?.close()
    await fixture.receiver?.close()
    if (fixture.dir !== undefined) await rm(fixture.dir, { recursive: true, force: true })
  })
  return fixture
}
