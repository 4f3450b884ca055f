import type { FundingDay } from "@encore-campaigns/client";
import { useEffect, useId, useRef } from "react";
import uPlot from "uplot";
import { formatUsd, nanosOf } from "../money";
import { dateOf, formatDay } from "../time";
import { TableScroll } from "./table-scroll";

// The funding chart: closing balance and daily spend in dollars on the left axis,
// purchases per day as bars on the right. Plotted values are display only (cents as numbers);
// every figure a studio reads exactly is in the table beside it, from the API's Money.

const cents = (money: FundingDay["closingBalance"]) => Number(nanosOf(money) / 10_000_000n) / 100;
const bars = uPlot.paths.bars?.({ size: [0.6, 40] });

export function FundingChart({ days }: { days: FundingDay[] }) {
  const box = useRef<HTMLDivElement>(null);
  const id = useId();
  // Drawn again only when a figure changed, not on every read that found the same days.
  const signature = days
    .map((d) => [d.startTime?.seconds, nanosOf(d.closingBalance), nanosOf(d.spend), d.purchaseCount].join(":"))
    .join("|");
  // biome-ignore lint/correctness/useExhaustiveDependencies: `signature` stands for `days`' figures
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const data: uPlot.AlignedData = [
      days.map((day) => (dateOf(day.startTime)?.getTime() ?? 0) / 1000),
      days.map((day) => cents(day.closingBalance)),
      days.map((day) => cents(day.spend)),
      days.map((day) => Number(day.purchaseCount)),
    ];
    const width = () => Math.max(280, element.clientWidth);
    const chart = new uPlot(
      {
        width: width(),
        height: 260,
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), "Etc/UTC"),
        scales: {
          x: { time: true },
          usd: { auto: true },
          count: { auto: true, range: (_u, _min, max) => [0, Math.max(1, max)] },
        },
        axes: [
          {},
          { scale: "usd", values: (_u, values) => values.map((v) => `$${v}`) },
          {
            scale: "count",
            side: 1,
            grid: { show: false },
            // Whole purchases only.
            incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000],
            values: (_u, values) => values.map((v) => `${v}`),
          },
        ],
        series: [
          { label: "Day (UTC)" },
          {
            label: "Balance",
            scale: "usd",
            stroke: "#1f4f8f",
            width: 2,
            value: (_u, v) => (v == null ? "—" : `$${v.toFixed(2)}`),
          },
          {
            label: "Spend",
            scale: "usd",
            stroke: "#b3541e",
            width: 2,
            dash: [6, 4],
            value: (_u, v) => (v == null ? "—" : `$${v.toFixed(2)}`),
          },
          {
            label: "Purchases",
            scale: "count",
            stroke: "#2e7d32",
            fill: "rgba(46,125,50,0.25)",
            paths: bars,
            points: { show: false },
          },
        ],
      },
      data,
      element,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: width(), height: 260 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [signature]);
  const today = days[days.length - 1];
  return (
    <figure className="chart" aria-labelledby={`${id}-caption`}>
      <div ref={box} className="chart-box" aria-hidden="true" />
      <figcaption id={`${id}-caption`}>
        Balance and daily spend over the last {days.length} days (UTC), with purchases per day.
        {today && (
          <>
            {" "}
            Today: balance {formatUsd(today.closingBalance)}, runway{" "}
            {today.runwayDays === undefined ? "not projected (nothing spent this week)" : `${today.runwayDays} days`}.
          </>
        )}
      </figcaption>
      <details>
        <summary>The figures, day by day</summary>
        <TableScroll label="Funding day by day">
          <table>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col">Balance</th>
                <th scope="col">Spend</th>
                <th scope="col">Purchases</th>
                <th scope="col">Credit bought</th>
                <th scope="col">Runway</th>
              </tr>
            </thead>
            <tbody>
              {[...days].reverse().map((day) => (
                <tr key={formatDay(day.startTime)}>
                  <th scope="row">{formatDay(day.startTime)}</th>
                  <td>{formatUsd(day.closingBalance)}</td>
                  <td>{formatUsd(day.spend)}</td>
                  <td>{day.purchaseCount.toString()}</td>
                  <td>{formatUsd(day.purchasedCredit)}</td>
                  <td>{day.runwayDays === undefined ? "—" : `${day.runwayDays} days`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </details>
    </figure>
  );
}
