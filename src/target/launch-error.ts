/** The server process could not be started at all (command not found, not executable, bad cwd). */
export class LaunchError extends Error {
  override readonly name = 'LaunchError';

  constructor(
    /** One line for the user, naming the command. */
    message: string,
    /** The command that failed to start. */
    readonly command: string,
    /** errno code from the spawn attempt (ENOENT, EACCES …), when there was one. */
    readonly code?: string,
    /** Last lines the process wrote to stderr, if it got that far. */
    readonly stderrTail = '',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
