// The words of a reader's fact, for tests of the readers (which record facts, not text).
export { readFactText } from "../src/rules/read-text.js";
