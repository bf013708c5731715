/** A mistake in how lathe was called (a flag, an option of `query()`): one line, exit code 2. */
export class UsageError extends Error {}
