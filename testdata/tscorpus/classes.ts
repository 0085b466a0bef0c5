// Classes with TypeScript members: modifiers, implements, abstract,
// overloads, index signatures, declare fields.

// ---- class with access modifiers
class Counter {
  private count: number = 0;
  public readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
  public inc(by: number = 1): number {
    this.count += by;
    return this.count;
  }
  protected reset(): void {
    this.count = 0;
  }
}
const c = new Counter("orders");
c.inc();
return [c.name, c.inc(5)];

// ---- implements interface
interface Notifier { notify(message: string): string }
class LogNotifier implements Notifier {
  notify(message: string): string {
    console.log(message);
    return `logged: ${message}`;
  }
}
const n: Notifier = new LogNotifier();
return n.notify("refund issued");

// ---- abstract base class
abstract class Report {
  abstract title(): string;
  protected abstract rows: number;
  render(): string {
    return `${this.title()} (${this.rows} rows)`;
  }
}
class SalesReport extends Report {
  protected rows = 3;
  title(): string {
    return "Sales";
  }
}
return new SalesReport().render();

// ---- optional and definite fields
class Draft {
  id!: string;
  note?: string;
  tags: string[] = [];
}
const d = new Draft();
d.id = "d-1";
return [d.id, d.note === undefined, d.tags.length, Object.keys(d).sort()];

// ---- declare field
class Model {
  declare kind: string;
  value = 1;
}
const mdl = new Model();
return ["kind" in mdl, mdl.value];

// ---- static members and generics
class Ids {
  private static next: number = 1;
  static create(prefix: string): string {
    return `${prefix}-${Ids.next++}`;
  }
}
return [Ids.create("a"), Ids.create("b")];

// ---- method overloads
class Formatter {
  format(value: number): string;
  format(value: Date): string;
  format(value: number | Date): string {
    return typeof value === "number" ? value.toFixed(2) : value.toISOString();
  }
}
const fm = new Formatter();
return [fm.format(3.14159), fm.format(new Date(0))];

// ---- index signature in class
class Bag {
  [key: string]: unknown;
  add(k: string, v: unknown): void {
    this[k] = v;
  }
}
const bag = new Bag();
bag.add("x", 1);
return bag.x;

// ---- getters and setters typed
class Temperature {
  private c: number = 0;
  get fahrenheit(): number {
    return this.c * 9 / 5 + 32;
  }
  set celsius(v: number) {
    this.c = v;
  }
}
const t = new Temperature();
t.celsius = (await tools.weather.get({ city: "Paris" })).tempC;
return t.fahrenheit;

// ---- private hash fields with types
class Account {
  #balance: number = 0;
  deposit(amount: number): this {
    this.#balance += amount;
    return this;
  }
  get balance(): number {
    return this.#balance;
  }
}
return new Account().deposit(10).deposit(5).balance;

// ---- class extends generic base
class Store<T> {
  protected items: T[] = [];
  add(x: T) { this.items.push(x); }
}
class OrderStore extends Store<{ id: string; total: number }> {
  total(): number {
    return this.items.reduce((a, o) => a + o.total, 0);
  }
}
const st = new OrderStore();
for (const o of await tools.orders.search({ status: "shipped" })) st.add(o);
return st.total();


// ---- custom error subclass typed fields
class HttpError extends Error {
  status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = "HttpError";
    this.status = status;
  }
}
try {
  throw new HttpError(404, "not found");
} catch (e) {
  const he = e as HttpError;
  return [he.name, he.status, he.message, e instanceof HttpError];
}

// ---- class implementing multiple interfaces
interface Named { name: string }
interface Aged { age: number }
class Person implements Named, Aged {
  constructor(name: string, age: number) {
    this.name = name;
    this.age = age;
  }
  name: string;
  age: number;
}
const per = new Person("Ada", 36);
return `${per.name} ${per.age}`;

// ---- class expression with types
const Point = class {
  x: number;
  y: number;
  constructor(x: number, y: number) {
    this.x = x;
    this.y = y;
  }
  len(): number {
    return Math.hypot(this.x, this.y);
  }
};
return new Point(3, 4).len();

// ---- override modifier
class Base {
  describe(): string { return "base"; }
}
class Derived extends Base {
  override describe(): string { return "derived:" + super.describe(); }
}
return new Derived().describe();

// ---- static block and readonly arrays
class Config {
  static readonly keys: readonly string[] = ["a", "b"];
  static table: Record<string, number> = {};
  static {
    for (const k of Config.keys) Config.table[k] = k.charCodeAt(0);
  }
}
return Config.table;

// ---- accessor with optional method
class Opt {
  maybe?(): string;
  present(): string { return "here"; }
}
const op = new Opt();
return [typeof op.maybe, op.present()];
