import type { Command } from "commander";
import { Campaign_State, CampaignSchema } from "../../gen/encore/campaign/v1/campaign_pb.js";
import { ListReviewsResponseSchema } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { resources } from "../domain/resource-names.js";
import { type CliEnvironment, commandContext, listCommand, type PagingOptions, pageRequest } from "./cli-context.js";
import { emit, listLines, messageJson } from "./output.js";

const DECISIONS = ["IN_REVIEW", "VERIFIED", "DECLINED", "REVOKED"] as const;

/** list-reviews, decide-campaign. */
export function addReviewCommands(program: Command, environment: CliEnvironment): void {
  listCommand(program, "list-reviews", "campaigns")
    .description("list campaigns of every account in a state (NEEDS_REVIEW unless --state)")
    .option("--state <state>", "a Campaign.State, e.g. NEEDS_REVIEW, IN_REVIEW, VERIFIED")
    .action(async (options: PagingOptions & { state?: string }, command: Command) => {
      const { client, output } = commandContext(command, environment);
      const filter = options.state ? `state = "${options.state}"` : "";
      const page = await client.listReviews({ filter, ...pageRequest(options) });
      emit(output, messageJson(ListReviewsResponseSchema, page), () =>
        listLines(
          page.campaigns.map(
            (c) => `${c.name}\t${Campaign_State[c.state]}\t${c.displayName}\t${c.verification?.explanation ?? ""}`,
          ),
          `no campaigns in ${options.state?.toUpperCase() ?? "NEEDS_REVIEW"}`,
          page.nextPageToken,
        ),
      );
    });

  program
    .command("decide-campaign")
    .description(`decide a review: ${DECISIONS.join(", ")}`)
    .requiredOption("--name <campaign>", resources.campaign.pattern)
    .requiredOption("--state <state>", DECISIONS.join(" | "))
    .option("--explanation <text>", "shown to the studio")
    .action(async (options: { name: string; state: string; explanation?: string }, command: Command) => {
      const { client, output } = commandContext(command, environment);
      const state = readDecision(options.state);
      const campaign = await client.decideCampaign({
        name: options.name,
        state,
        explanation: options.explanation ?? "",
      });
      emit(output, messageJson(CampaignSchema, campaign), () => [
        `${campaign.name} is now ${Campaign_State[campaign.state]}`,
      ]);
    });
}

function readDecision(text: string): Campaign_State {
  const decision = DECISIONS.find((name) => name === text.toUpperCase());
  if (!decision) throw new Error(`--state must be one of ${DECISIONS.join(", ")}.`);
  return Campaign_State[decision];
}
