import { hostname } from "node:os"

/** This process among the workers of every machine: a job records it when claimed, so an operator sees who holds it. */
export const WORKER_ID = `${hostname()}:${process.pid}`
