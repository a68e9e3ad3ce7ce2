// Jobs name the workspace they work for, so that a claim can cap how many of a workspace's jobs run at
// once (its plan's maxConcurrentJobs); the index counts a workspace's running jobs. A plan change
// re-dates the expiry of a workspace's files, found through their own index.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE jobs ADD COLUMN workspace_id text`
  // Media jobs waiting or running now carry their video's id: they are their video's workspace's.
  yield* sql`UPDATE jobs SET workspace_id = videos.workspace_id
    FROM videos
    WHERE jobs.lane = 'media' AND jobs.status IN ('queued', 'running') AND videos.id = jobs.payload ->> 'videoId'`
  yield* sql`CREATE INDEX jobs_running_by_workspace ON jobs (workspace_id) WHERE status = 'running'`
  yield* sql`CREATE INDEX files_by_workspace ON files (workspace_id)`
})
