import type { Prisma } from "../../gen/prisma/client.js";
import type { Db } from "./open-database.js";

/** The client or a transaction: query modules take either, so callers choose the boundary. */
export type DbClient = Db | Prisma.TransactionClient;
