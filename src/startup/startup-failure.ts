/**
 * A start-up failure the operator can fix: its message is the one line printed (naming the
 * setting at fault, never a secret), and the process exits 1 without a stack trace.
 */
export class StartupFailure extends Error {}
