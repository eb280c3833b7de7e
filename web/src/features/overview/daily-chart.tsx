import { AxisBottom, AxisLeft } from "@visx/axis";
import { Group } from "@visx/group";
import { PatternLines } from "@visx/pattern";
import { scaleBand, scaleLinear, scaleOrdinal } from "@visx/scale";
import { BarStack } from "@visx/shape";
import { useId, useState } from "react";
import { Button } from "../../components/ui/button";
import { Cell, Row, RowHeader, Table } from "../../components/ui/table";
import type { OverviewDay } from "./queries";

/**
 * Submissions per day as stacked bars (visx: SVG drawn by React, only the scale, shape, axis and
 * pattern pieces, in this lazy route's chunk; docs/performance.md). Spam is stacked above the
 * inbox and told apart by a hatch pattern and the legend's words, not by colour alone. The same
 * numbers are in a table for screen readers, which a button shows to everyone.
 */

const WIDTH = 720;
const HEIGHT = 260;
const MARGIN = { top: 12, right: 8, bottom: 28, left: 36 };
const KEYS = ["inbox", "spam"] as const;
type Key = (typeof KEYS)[number];
const COLUMNS = [{ label: "Day" }, { label: "Inbox" }, { label: "Spam" }];

const shortDate = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", timeZone: "UTC" });
const longDate = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" });
const dayLabel = (date: string, format = shortDate) => format.format(new Date(`${date}T00:00:00Z`));

function Legend({ patternId }: { patternId: string }) {
  return (
    <ul className="mb-2 flex flex-wrap gap-4 text-sm" aria-label="Legend">
      <li className="flex items-center gap-2">
        <svg width="14" height="14" aria-hidden="true">
          <rect width="14" height="14" className="fill-indigo-600 dark:fill-indigo-400" />
        </svg>
        Inbox (solid)
      </li>
      <li className="flex items-center gap-2">
        <svg width="14" height="14" aria-hidden="true">
          <rect width="14" height="14" fill={`url(#${patternId})`} className="stroke-amber-700 dark:stroke-amber-300" />
        </svg>
        Spam (hatched)
      </li>
    </ul>
  );
}

export function DailyChart({ days, caption }: { days: OverviewDay[]; caption: string }) {
  const [tableShown, setTableShown] = useState(false);
  const patternId = `spam-hatch-${useId().replace(/:/g, "")}`;
  const tableId = `${patternId}-table`;
  const innerWidth = WIDTH - MARGIN.left - MARGIN.right;
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const max = Math.max(1, ...days.map((d) => d.inbox + d.spam));
  const x = scaleBand<string>({ domain: days.map((d) => d.date), range: [0, innerWidth], padding: 0.2 });
  const y = scaleLinear<number>({ domain: [0, max], range: [innerHeight, 0], nice: true });
  const fill = scaleOrdinal<Key, string>({ domain: [...KEYS], range: ["", `url(#${patternId})`] });
  const everyWeek = days.filter((_, i) => (days.length - 1 - i) % 7 === 0).map((d) => d.date);
  const inbox = days.reduce((n, d) => n + d.inbox, 0);
  const spam = days.reduce((n, d) => n + d.spam, 0);
  return (
    <figure>
      <Legend patternId={patternId} />
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-auto w-full text-slate-600 dark:text-slate-300"
        role="img"
        aria-label={`${caption}: ${inbox} in the inbox and ${spam} spam. The table below has each day.`}
      >
        <defs>
          <PatternLines
            id={patternId}
            height={6}
            width={6}
            orientation={["diagonal"]}
            className="stroke-amber-700 dark:stroke-amber-300"
            strokeWidth={1.5}
          />
        </defs>
        <Group left={MARGIN.left} top={MARGIN.top}>
          <BarStack<OverviewDay, Key> data={days} keys={[...KEYS]} x={(d) => d.date} xScale={x} yScale={y} color={fill}>
            {(stacks) =>
              stacks.map((stack) =>
                stack.bars
                  .filter((bar) => bar.height > 0)
                  .map((bar) => (
                    <rect
                      key={`${stack.key}-${bar.index}`}
                      x={bar.x}
                      y={bar.y}
                      width={bar.width}
                      height={bar.height}
                      {...(stack.key === "spam"
                        ? { fill: bar.color, className: "stroke-amber-700 dark:stroke-amber-300", strokeWidth: 1 }
                        : { className: "fill-indigo-600 dark:fill-indigo-400" })}
                    />
                  )),
              )
            }
          </BarStack>
          <AxisLeft
            scale={y}
            numTicks={Math.min(5, max)}
            tickFormat={(v) => String(v)}
            stroke="currentColor"
            tickStroke="currentColor"
            tickLabelProps={{ fill: "currentColor", fontSize: 11, textAnchor: "end", dx: -4, dy: 3 }}
          />
          <AxisBottom
            top={innerHeight}
            scale={x}
            tickValues={everyWeek}
            tickFormat={(d) => dayLabel(String(d))}
            stroke="currentColor"
            tickStroke="currentColor"
            tickLabelProps={{ fill: "currentColor", fontSize: 11, textAnchor: "middle" }}
          />
        </Group>
      </svg>
      <figcaption className="mt-2 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600 dark:text-slate-300">
        <span>{caption} (UTC days).</span>
        <Button variant="secondary" aria-expanded={tableShown} aria-controls={tableId} onClick={() => setTableShown(!tableShown)}>
          {tableShown ? "Hide the table" : "Show as a table"}
        </Button>
      </figcaption>
      <div id={tableId} className={tableShown ? "mt-3" : "sr-only"}>
        <Table caption={`${caption}, day by day`} columns={COLUMNS} compact scrolls={false}>
          {[...days].reverse().map((d) => (
            <Row key={d.date}>
              <RowHeader>{dayLabel(d.date, longDate)}</RowHeader>
              <Cell className="tabular-nums">{d.inbox}</Cell>
              <Cell className="tabular-nums">{d.spam}</Cell>
            </Row>
          ))}
        </Table>
      </div>
    </figure>
  );
}
