import { describe, expect, test } from "vitest";
import { citationOf, fieldOf, place, shape, shapeWords, wordOf } from "./place.js";
import { formatMessage } from "./rule.js";

describe("places and shapes as message data", () => {
  test("a place is worded as the shape rules' messages name it", () => {
    expect(wordOf(place.step(2))).toBe("Step 2");
    expect(wordOf(place.step(2, 1))).toBe("Step 2, nested step 1");
    expect(wordOf(fieldOf(place.step(2), "tool"))).toBe('Step 2: "tool"');
    expect(wordOf(fieldOf(place.step(2, 1), "args"))).toBe('Step 2, nested step 1: "args"');
    expect(wordOf(citationOf(place.step(4), 3))).toBe("Step 4: citation 3");
    expect(wordOf(place.member("version"))).toBe('"version"');
    expect(wordOf(fieldOf(place.document("plan"), "steps"))).toBe('"steps"');
    expect(wordOf(place.document("actionPlan"))).toBe("The `## Action Plan`");
  });

  test("a shape is worded by its id, in data and in a diagnostic's expected", () => {
    expect(wordOf(shape("nonEmptyString"))).toBe("a non-empty string");
    expect(shapeWords(shape("repeatCount"))).toBe("an integer from 1 to 1000");
  });

  test("formatMessage words places and shapes, and plain values as before", () => {
    const data = { what: fieldOf(place.step(1), "tool"), expected: shape("nonEmptyString"), actual: "a number", n: 3 };
    expect(formatMessage("{{what}} must be {{expected}}, not {{actual}} ({{n}}).", data)).toBe('Step 1: "tool" must be a non-empty string, not a number (3).');
  });
});
