/**
 * One figure of a benchmark as a line, `name: value unit   # note` (scripts/bench.ts and
 * scripts/benchBrowser.ts). Values below 0.1 keep two significant digits: one long frame in 600
 * is 0.0017, not "0.00" (a target of 0 must not be met by rounding); 0 prints as 0.
 */
export function line(name: string, value: number, unit: string, note = ''): void {
  const v =
    value === 0
      ? '0'
      : Math.abs(value) >= 100
        ? value.toFixed(0)
        : Math.abs(value) >= 10
          ? value.toFixed(1)
          : Math.abs(value) >= 0.1
            ? value.toFixed(2)
            : value.toPrecision(2);
  process.stdout.write(`${name}: ${v} ${unit}${note ? `   # ${note}` : ''}\n`);
}
