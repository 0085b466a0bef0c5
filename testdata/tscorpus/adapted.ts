// Snippets adapted from public TypeScript found with the search tool
// (utility modules of public repositories: retry and backoff helpers,
// formatting, object merging, type guards), rewritten to call this
// corpus's tools the way a model would paste a known helper into a program.

// ---- adapted: recursive retry with doubling delay
async function retry<T>(fn: () => Promise<T>, retries = 3, delayMs = 2): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (retries <= 1) {
      throw error;
    }
    await new Promise(res =>
      setTimeout(res, delayMs)
    );
    return retry(fn, retries - 1, delayMs * 2);
  }
}
const o = await retry(() => tools.orders.get({ id: "o-2" }));
return o.status;

// ---- adapted: backoff with a wait helper and a call type
type BackoffCall<T> = () => Promise<T>;
async function wait(duration: number): Promise<void> {
  return new Promise(resolve => setTimeout(resolve, duration));
}
async function backoff<T>(retries: number, call: BackoffCall<T>, delay = 1): Promise<T> {
  let result: T;
  try {
    result = await call();
  } catch (e) {
    if (retries > 1) {
      await wait(delay);
      result = await backoff(retries - 1, call, delay * 2);
    } else {
      throw e;
    }
  }
  return result;
}
let attempts = 0;
const got = await backoff(3, async () => {
  attempts++;
  if (attempts < 3) throw new Error("flaky");
  return tools.weather.get({ city: "London" });
});
return [attempts, got.conditions];

// ---- adapted: retry loop with exponent
async function retryAsync<T>(fn: () => Promise<T>, retries = 3, backoffMs = 1): Promise<T> {
  let attempt = 0;
  while (true) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= retries) throw err;
      await new Promise((res) => setTimeout(res, backoffMs * 2 ** attempt));
      attempt += 1;
    }
  }
}
try {
  await retryAsync(() => tools.customers.get({ id: "c-404" }), 2);
  return "found";
} catch (e) {
  return (e as Error).message;
}

// ---- adapted: retry options with onRetry callback
interface RetryOptions {
  maxAttempts?: number;
  initialDelayMs?: number;
  maxDelayMs?: number;
  onRetry?: (error: unknown, attempt: number) => void;
}
async function retryWithOptions<T>(fn: () => Promise<T>, options?: RetryOptions): Promise<T> {
  const { maxAttempts = 3, initialDelayMs = 1, maxDelayMs = 4, onRetry } = options || {};
  let lastError: unknown;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    try {
      return await fn();
    } catch (error) {
      lastError = error;
      onRetry?.(error, attempt);
      await new Promise((r) => setTimeout(r, Math.min(initialDelayMs * 2 ** (attempt - 1), maxDelayMs)));
    }
  }
  throw lastError;
}
const seen: number[] = [];
const w = await retryWithOptions(() => tools.weather.get({ city: "Narnia" }), { onRetry: (_e, n) => seen.push(n) }).catch((e: Error) => e.message);
return { w, seen };

// ---- adapted: formatBytes helper
const formatBytes = (bytes: number, decimals = 1): string => {
  if (bytes === 0) return "0 B";
  const k = 1024;
  const dm = decimals < 0 ? 0 : decimals;
  const sizes = ["B", "KB", "MB", "GB", "TB"];
  const i = Math.floor(Math.log(bytes) / Math.log(k));
  return `${Number.parseFloat((bytes / Math.pow(k, i)).toFixed(dm))} ${sizes[i]}`;
};
const payload = JSON.stringify(await tools.orders.search({}));
return [formatBytes(payload.length), formatBytes(5 * 1024 * 1024), formatBytes(0)];

// ---- adapted: isDefined and capitalize guards
const capitalize = (str: string): string => str.charAt(0).toUpperCase() + str.slice(1);
const isString = (value: any): value is string => typeof value === "string";
const isDefined = <T>(value: T | null | undefined): value is T => value !== null && value !== undefined;
const issues = await tools.github.listIssues({ repo: "acme/shop", state: "all" });
const assignees = issues.map((i: { assignee: string | null }) => i.assignee).filter(isDefined);
return assignees.filter(isString).map(capitalize);

// ---- adapted: deepMerge with a plain object guard
type PlainObject = Record<string, any>;
function isPlainObject(value: unknown): value is PlainObject {
  return Boolean(value) && typeof value === "object" && !Array.isArray(value);
}
function mergeDeep<T extends PlainObject>(target: T, source?: PlainObject): T {
  if (!isPlainObject(source)) {
    return target;
  }
  const targetRecord = target as PlainObject;
  for (const [key, value] of Object.entries(source)) {
    if (isPlainObject(value)) {
      const existing = targetRecord[key];
      const base = isPlainObject(existing) ? existing : {};
      targetRecord[key] = mergeDeep(base, value);
    } else {
      targetRecord[key] = value;
    }
  }
  return target;
}
const limits = (await tools.kv.get({ key: "limits" })) as PlainObject;
return mergeDeep({ limits: { daily: 1, monthly: 30 }, region: "eu" }, { limits });

// ---- adapted: deepMerge of partial settings
const deepMerge = <T extends object>(base: T, patch: Partial<T>): T => {
  const out: any = Array.isArray(base) ? [...base] : { ...base };
  for (const key in patch) {
    const value: any = patch[key];
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      out[key] = [...value];
    } else if (value && typeof value === "object") {
      out[key] = deepMerge((out[key] ?? {}) as any, value);
    } else {
      out[key] = value;
    }
  }
  return out as T;
};
interface Prefs { ui: { theme: string; density: string }; tags: string[]; page: number }
const merged = deepMerge<Prefs>({ ui: { theme: "light", density: "cozy" }, tags: ["a"], page: 1 }, { ui: { theme: "dark" } as Prefs["ui"], tags: ["b", "c"] });
return merged;

// ---- adapted: hasOwn with an index signature parameter
function hasOwn(obj: { [key: string]: any }, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}
const cust = await tools.customers.get({ id: "c-2" });
return ["email", "phone", "tier"].map((k) => `${k}:${hasOwn(cust, k)}`);

// ---- adapted: static utility class with sleep
class GeneralUtilities {
  public static async sleep(ms: number): Promise<unknown> {
    return new Promise((resolve) => {
      setTimeout(resolve, ms);
    });
  }
  public static stamp(d: Date): string {
    return d.toISOString().slice(0, 10);
  }
}
await GeneralUtilities.sleep(2);
const first = (await tools.orders.search({ limit: 1 }))[0] as { createdAt: string };
return GeneralUtilities.stamp(new Date(first.createdAt));

// ---- adapted: code execution style with an intermediate filter
// In the style of "code execution with MCP": fetch a large result, keep the
// few rows that matter in the sandbox, return only those.
const allOrders: Array<{ id: string; status: string; total: number; customerId: string }> = await tools.orders.search({});
const pending = allOrders.filter((row) => row.status === "open" && row.total > 50);
console.log(`Found ${pending.length} large open orders out of ${allOrders.length}`);
return pending.map(({ id, total }) => ({ id, total }));

// ---- adapted: code execution style loop until a condition
let state = "running";
const { jobId } = await tools.jobs.start({ kind: "sync" });
while (state !== "done") {
  const s: { state: string } = await tools.jobs.status({ jobId });
  state = s.state;
  if (state !== "done") await new Promise((r) => setTimeout(r, 2));
}
console.log("Job finished");
return state;

// ---- adapted: typed tool wrapper interface
interface GetWeatherInput { city: string }
interface GetWeatherResponse { city: string; tempC: number; conditions: string; windKph: number }
async function getWeather(input: GetWeatherInput): Promise<GetWeatherResponse> {
  return tool_call("weather.get", input) as Promise<GetWeatherResponse>;
}
const reports = await Promise.all([{ city: "Paris" }, { city: "Tokyo" }].map(getWeather));
return reports.map((r) => `${r.city}/${r.windKph}`);

// ---- adapted: pagination helper generic
async function collect<T>(fetchPage: (page: number) => Promise<T[]>, pageSize: number): Promise<T[]> {
  const out: T[] = [];
  for (let page = 0; ; page++) {
    const rows = await fetchPage(page);
    out.push(...rows);
    if (rows.length < pageSize) break;
  }
  return out;
}
const everything = await collect(async (page: number) => {
  const rows = await tools.orders.search({});
  return rows.slice(page * 4, page * 4 + 4) as { id: string }[];
}, 4);
return everything.length;

// ---- adapted: summarize comments by label
const open: Array<{ labels: string[]; comments: number }> = await tools.github.listIssues({ repo: "acme/shop", state: "open" });
const byLabel: { [label: string]: number } = {};
for (const issue of open) for (const l of issue.labels) byLabel[l] = (byLabel[l] || 0) + issue.comments;
return Object.entries(byLabel).sort(([, a], [, b]) => b - a);
