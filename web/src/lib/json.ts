/** A JSON record (an object, not an array, not null): the one test the app uses before reading a value's fields. */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
