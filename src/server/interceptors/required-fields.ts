import { type DescField, type DescMessage, getOption, isFieldSet } from "@bufbuild/protobuf";
import type { Interceptor } from "@connectrpc/connect";
import { FieldBehavior, field_behavior } from "../../../gen/google/api/field_behavior_pb.js";
import { invalidArgument } from "../../errors/status.js";

const requiredByMessage = new WeakMap<DescMessage, DescField[]>();

function requiredFields(message: DescMessage): DescField[] {
  let fields = requiredByMessage.get(message);
  if (!fields) {
    fields = message.fields.filter((field) => getOption(field, field_behavior).includes(FieldBehavior.REQUIRED));
    requiredByMessage.set(message, fields);
  }
  return fields;
}

/**
 * Refuses a request whose top-level REQUIRED fields (google.api.field_behavior) are unset,
 * on every protocol, before any handler runs: 400 code 3 (spec 7). Nested resource fields
 * are the handlers' to check, since what is required there differs between create and update.
 */
export const requiredFieldsInterceptor: Interceptor = (next) => (req) => {
  if (!req.stream) {
    for (const field of requiredFields(req.method.input)) {
      if (!isFieldSet(req.message, field)) {
        return Promise.reject(invalidArgument(`Missing required field "${field.jsonName}".`));
      }
    }
  }
  return next(req);
};
