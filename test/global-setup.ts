import { existsSync } from "node:fs";
import { REAL_PLANS, SPEC_FILE, realPlansPresent } from "./real-plans.js";

/** Says once per run which tests skip for want of the shared corpus, and how to point them at it. */
export default function setup(): void {
  if (!realPlansPresent) {
    console.log(
      `plangate tests: the real-plan tests are SKIPPED: no corpus at ${REAL_PLANS} (provenance.json missing). ` +
        "Set PLANGATE_REAL_PLANS to the real-plans folder to run them.",
    );
  }
  if (!existsSync(SPEC_FILE)) {
    console.log(`plangate tests: the SPEC.md catalogue test is SKIPPED: no file at ${SPEC_FILE}. Set PLANGATE_SPEC to run it.`);
  }
}
