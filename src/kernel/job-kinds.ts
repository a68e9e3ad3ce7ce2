// Names of the background jobs; each has one handler registered in the job runner.
export const GENERATE_CAPTIONS = "caption-video.generate"
export const RENDER_VIDEO = "video.render"
export const GENERATE_VIDEO = "generated-video.generate"
export const DELIVER_WEBHOOK = "webhook.deliver"
export const GRANT_MONTHLY_CREDITS = "plans.grant-monthly"
export const REMOVE_CAPTIONS = "caption-removal.run"
export const EDITOR_PICTURE = "editor.picture"
export const SWEEP_EXPIRED_FILES = "files.sweep-expired"

// Dedupe keys name a video's jobs, so that a job is queued once and a cancel can find it.
export const generationJobKey = (videoId: string): string => `generate:${videoId}`
export const renderJobKey = (workKey: string): string => `render:${workKey}`
export const removalJobKey = (removalId: string): string => `remove:${removalId}`
export const editorPictureJobKey = (videoId: string): string => `editor-picture:${videoId}`
/** Series 1 is the automatic delivery; each redelivery queues a job of its own. */
export const deliveryJobKey = (eventId: string, series: number): string =>
  series === 1 ? `deliver:${eventId}` : `deliver:${eventId}:${series}`
/** One grant job per calendar month (`YYYY-MM`), however many workers queue it. */
export const monthlyGrantJobKey = (month: string): string => `monthly-grant:${month}`
/** One expired-file sweep per period (named by its start, epoch ms), however many workers queue it. */
export const fileSweepJobKey = (periodStart: number): string => `file-sweep:${new Date(periodStart).toISOString()}`
