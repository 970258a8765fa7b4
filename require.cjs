// plangate is an ES module package. A CommonJS `require("plangate")` lands here, so the caller gets a
// message that says what to do instead of ERR_REQUIRE_ESM from deep inside Node.
"use strict";
const err = new Error(
  'plangate is an ES module: load it with `import { validateFile } from "plangate"` (ESM), ' +
    'or from CommonJS with `const plangate = await import("plangate")`. require() is not supported.',
);
err.code = "ERR_REQUIRE_ESM";
throw err;
