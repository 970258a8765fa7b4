const NUMBER = /^\d+$/;

/** The task number a reference names: digits only (around blanks), as a safe integer; undefined otherwise. */
export function taskNumber(reference: string): number | undefined {
  const trimmed = reference.trim();
  return NUMBER.test(trimmed) && Number.isSafeInteger(Number(trimmed)) ? Number(trimmed) : undefined;
}
