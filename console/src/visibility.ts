import { FundingVisibility } from "@encore-campaigns/client";

// What players may see of the funding (spec 2.3), as a studio chooses it.
export const VISIBILITIES = [
  {
    value: FundingVisibility.EXACT_BALANCE,
    label: "Exact balance",
    description: "Players see the balance and how many days it lasts.",
  },
  {
    value: FundingVisibility.RUNWAY,
    label: "Runway only",
    description: "Players see how many days the funding lasts.",
  },
  {
    value: FundingVisibility.FUNDED_ONLY,
    label: "Funded or not",
    description: "Players see only whether the servers are funded.",
  },
] as const;

export function visibilityLabel(value: FundingVisibility): string {
  return VISIBILITIES.find((v) => v.value === value)?.label ?? "Not chosen";
}
