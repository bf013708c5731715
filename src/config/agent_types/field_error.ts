/** A field of an agent file that cannot be used as written: the type is not loaded, and the warning names the field. */
export class FieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}
