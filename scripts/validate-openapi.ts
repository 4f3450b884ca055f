// Validates the OpenAPI document against the OpenAPI 3.1 schema (.ci/run). Exits 1 when invalid.
import { fileURLToPath } from "node:url";
import { Validator } from "@seriousme/openapi-schema-validator";

const path = fileURLToPath(new URL("../openapi/encore.openapi.json", import.meta.url));
const validator = new Validator();
const result = await validator.validate(path);
if (!result.valid) {
  console.error(JSON.stringify(result.errors, null, 2));
  process.exit(1);
}
console.log(`${path}: valid OpenAPI ${validator.version}`);
