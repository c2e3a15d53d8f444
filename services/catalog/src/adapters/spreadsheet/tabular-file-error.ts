/** A file the tabular reader refuses: broken, not a spreadsheet, or past one of its limits (the message names it). */
export class TabularFileError extends Error {
  constructor(
    message: string,
    /** 1-based row of the file where the problem is, when there is one. */
    readonly row?: number,
  ) {
    super(message);
  }
}
