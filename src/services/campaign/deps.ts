import type { Refuse } from "../../errors/refusals.js";
import type { Db } from "../../store/open-database.js";

/** What the campaign service's handlers are given by the composition root. */
export interface CampaignServiceDeps {
  db: Db;
  refuse: Refuse;
  now: () => Date;
}
