/**
 * A strict parser of the Prometheus text exposition format 0.0.4 (prometheus.io/docs/instrumenting/
 * exposition_formats, "Text format details"), for tests: every line must be a HELP, a TYPE, a
 * comment, a blank line or a sample; a sample's family must have been typed before it, at most
 * once; a histogram's buckets must carry `le`, be cumulative, and end at `+Inf` equal to `_count`.
 * @throws Error naming the first line that breaks a rule
 */

/** One sample line: its metric name, labels and value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A metric family: its TYPE, HELP and samples. */
export interface MetricFamily {
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help?: string;
  samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"';
// Go's strconv.ParseFloat, which Prometheus uses, takes Inf and NaN in any case (prom-client writes `Nan`).
const VALUE =
  '[+-]?(?:[Ii][Nn][Ff](?:[Ii][Nn][Ii][Tt][Yy])?|[Nn][Aa][Nn]|\\d+(?:\\.\\d*)?(?:[eE][+-]?\\d+)?|\\.\\d+(?:[eE][+-]?\\d+)?)';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*,?)?\\})? (${VALUE})(?: (-?\\d+))?$`);
const HELP = new RegExp(`^# HELP (${NAME}) (.*)$`);
const TYPE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);
const ONE_LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"/g;

function parseValue(text: string): number {
  if (/^[+-]?nan$/i.test(text)) return NaN;
  if (/^[+-]?inf/i.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  return Number(text);
}

function familyOf(name: string, families: Map<string, MetricFamily>): string | undefined {
  if (families.has(name)) return name;
  const base = name.replace(/_(bucket|sum|count)$/, '');
  const family = families.get(base);
  return family && (family.type === 'histogram' || family.type === 'summary') ? base : undefined;
}

/** Parses `text`; @returns the families by name. */
export function parsePrometheusText(text: string): Map<string, MetricFamily> {
  const families = new Map<string, MetricFamily>();
  const lines = text.split('\n');
  if (lines.at(-1) !== '') throw new Error('The exposition must end with a line feed');
  for (const [index, line] of lines.slice(0, -1).entries()) {
    const where = `line ${index + 1} (${JSON.stringify(line)})`;
    const type = TYPE.exec(line);
    const help = HELP.exec(line);
    if (type) {
      if (families.get(type[1]!)?.samples.length || families.get(type[1]!)?.type)
        throw new Error(`${where}: second TYPE, or TYPE after samples`);
      families.set(type[1]!, {
        type: type[2] as MetricFamily['type'],
        help: families.get(type[1]!)?.help,
        samples: [],
      });
    } else if (help) {
      const family = families.get(help[1]!);
      if (family?.help !== undefined) throw new Error(`${where}: second HELP`);
      if (family) family.help = help[2];
      else families.set(help[1]!, { type: undefined as never, help: help[2], samples: [] });
    } else if (line === '' || line.startsWith('#')) {
      continue;
    } else {
      const sample = SAMPLE.exec(line);
      if (!sample) throw new Error(`${where}: not a sample`);
      const name = familyOf(sample[1]!, families);
      if (!name || !families.get(name)!.type) throw new Error(`${where}: sample of an untyped family`);
      const labels: Record<string, string> = {};
      for (const [, key, value] of (sample[2] ?? '').matchAll(ONE_LABEL)) {
        if (key! in labels) throw new Error(`${where}: label ${key} twice`);
        labels[key!] = value!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      }
      families.get(name)!.samples.push({ name: sample[1]!, labels, value: parseValue(sample[3]!) });
    }
  }
  for (const [name, family] of families) {
    if (!family.type) throw new Error(`${name}: HELP without TYPE`);
    if (family.type === 'histogram') checkHistogram(name, family);
  }
  return families;
}

function checkHistogram(name: string, family: MetricFamily): void {
  const series = new Map<string, Sample[]>();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    if (sample.name === `${name}_bucket` && le === undefined) throw new Error(`${name}: bucket without le`);
    series.set(key, [...(series.get(key) ?? []), sample]);
  }
  for (const [key, samples] of series) {
    const buckets = samples.filter((s) => s.name === `${name}_bucket`);
    const count = samples.find((s) => s.name === `${name}_count`);
    if (!count || !samples.some((s) => s.name === `${name}_sum`))
      throw new Error(`${name}${key}: no _sum or _count`);
    buckets.reduce((previous, bucket) => {
      if (bucket.value < previous) throw new Error(`${name}${key}: buckets not cumulative`);
      return bucket.value;
    }, 0);
    const last = buckets.at(-1);
    if (last?.labels.le !== '+Inf' || last.value !== count.value)
      throw new Error(`${name}${key}: the +Inf bucket must come last and equal _count`);
  }
}

/** The value of the sample `name` whose labels include `labels`, or undefined. */
export function sampleValue(
  families: Map<string, MetricFamily>,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const family of families.values())
    for (const sample of family.samples)
      if (sample.name === name && Object.entries(labels).every(([k, v]) => sample.labels[k] === v))
        return sample.value;
  return undefined;
}
