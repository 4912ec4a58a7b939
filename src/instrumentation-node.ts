import { InvalidEnvironmentError, parseEnv } from './env'

/** A bad setting stops the server before it serves anything. */
export function checkEnvironment() {
  try {
    parseEnv()
  } catch (error) {
    if (!(error instanceof InvalidEnvironmentError)) throw error
    console.error(`✖ City Dashboard cannot start. ${error.message}`)
    process.exit(1)
  }
}
