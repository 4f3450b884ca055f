import { create } from "@bufbuild/protobuf";
import { type Money, MoneySchema } from "../../gen/google/type/money_pb.js";
import { usd } from "../domain/money.js";

/** nano-USD as google.type.Money. */
export function toMoney(nanos: bigint): Money {
  return create(MoneySchema, usd(nanos));
}
