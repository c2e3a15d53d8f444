/**
 * Turns Kubernetes' OpenAPI spec and CRDs into the JSON schemas kubeconform reads from a folder, so manifests
 * are validated with no network (kubeconform otherwise downloads them from GitHub). scripts/build-k8s-tools.sh
 * runs it:
 *
 *   node --import tsx scripts/k8s-schemas.ts --openapi swagger.json [--crd crd.yaml ...] --out DIR
 *
 * One file per kind and API version, named as kubeconform's `{{ .ResourceKind }}{{ .KindSuffix }}.json`
 * template asks (deployment-apps-v1.json, service-v1.json, scaledobject-keda-v1alpha1.json), so one
 * `-schema-location DIR/{{ .ResourceKind }}{{ .KindSuffix }}.json` covers built-in kinds and CRDs alike.
 *
 * The conversion is the one behind kubeconform's default schemas ("standalone-strict": openapi2jsonschema with
 * --kubernetes --expanded --stand-alone --strict) and, for CRDs, kubeconform's scripts/openapi2jsonschema.py:
 *   - IntOrString takes a string or an integer, Quantity a string or a number;
 *   - apiVersion and kind get an enum of the kind's own group/version and name;
 *   - strict: every object schema with `properties` refuses other properties (the root too, for built-in kinds;
 *     CRD roots keep theirs open, as the Python script does unless DENY_ROOT_ADDITIONAL_PROPERTIES);
 *   - stand-alone: every `$ref` is replaced by the definition it names (a definition that refers back to itself,
 *     as CustomResourceDefinition's JSONSchemaProps does, becomes `{}` at the repeat: such kinds are not written);
 *   - fields of objects with no `required` list also accept null (openapi2jsonschema's allow_null_optional_fields).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface Gvk {
  group: string;
  version: string;
  kind: string;
}

const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** kubeconform's file name for a kind: the kind, the group's first label (none for the core group) and the version. */
export function schemaFileName({ group, version, kind }: Gvk): string {
  const suffix = group ? `-${group.split('.')[0]}-${version}` : `-${version}`;
  return `${kind}${suffix}`.toLowerCase() + '.json';
}

/** Strict: an object schema that lists properties allows no others (unless it already says what it allows). */
export function denyAdditionalProperties(data: Json, skipRoot = false): Json {
  if (Array.isArray(data)) {
    for (const item of data) denyAdditionalProperties(item);
  } else if (isObject(data)) {
    if ('properties' in data && !skipRoot && !('additionalProperties' in data)) data.additionalProperties = false;
    for (const value of Object.values(data)) denyAdditionalProperties(value);
  }
  return data;
}

/** `format: int-or-string` becomes "a string or an integer". */
export function replaceIntOrString(data: Json): Json {
  if (Array.isArray(data)) return data.map(replaceIntOrString);
  if (!isObject(data)) return data;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(data)) {
    out[key] =
      isObject(value) && value.format === 'int-or-string'
        ? { oneOf: [{ type: 'string' }, { type: 'integer' }] }
        : replaceIntOrString(value);
  }
  return out;
}

/**
 * openapi2jsonschema's allow_null_optional_fields, kept as it is (kubeconform's schemas are made with it): a
 * `type` becomes [type, "null"] unless the schema two levels up has a `required` list.
 */
export function allowNullOptionalFields(data: Json, parent?: Json, grandParent?: Json): Json {
  if (!isObject(data)) return data;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(data)) {
    if (isObject(value)) {
      out[key] = allowNullOptionalFields(value, data, parent);
    } else if (Array.isArray(value)) {
      out[key] = value.map((item) => allowNullOptionalFields(item, value, parent));
    } else if (typeof value === 'string' && key === 'type' && value !== 'null' && !(isObject(grandParent) && 'required' in grandParent)) {
      out[key] = [value, 'null'];
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** Replaces every `#/definitions/...` reference by a copy of the definition; a reference inside itself becomes `{}`. */
export function inlineRefs(data: Json, definitions: JsonObject, stack: string[] = []): Json {
  if (Array.isArray(data)) return data.map((item) => inlineRefs(item, definitions, stack));
  if (!isObject(data)) return data;
  const ref = data.$ref;
  if (typeof ref === 'string') {
    const name = ref.replace(/^#\/definitions\//, '');
    const target = definitions[name];
    if (!isObject(target)) throw new Error(`unresolved $ref ${ref}`);
    if (stack.includes(name)) return {};
    // A $ref's siblings (a description) stay beside what it names.
    const { $ref: _ref, ...rest } = data;
    const inlined = inlineRefs(target, definitions, [...stack, name]) as JsonObject;
    return { ...inlined, ...(inlineRefs(rest, definitions, stack) as JsonObject) };
  }
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(data)) out[key] = inlineRefs(value, definitions, stack);
  return out;
}

function refersToItself(name: string, definitions: JsonObject): boolean {
  const seen = new Set<string>();
  const walk = (data: Json, trail: string[]): boolean => {
    if (Array.isArray(data)) return data.some((item) => walk(item, trail));
    if (!isObject(data)) return false;
    if (typeof data.$ref === 'string') {
      const target = data.$ref.replace(/^#\/definitions\//, '');
      if (trail.includes(target)) return true;
      if (seen.has(target)) return false;
      seen.add(target);
      return walk(definitions[target] ?? null, [...trail, target]);
    }
    return Object.values(data).some((value) => walk(value, trail));
  };
  return walk(definitions[name] ?? null, [name]);
}

/** Every kind of a Kubernetes OpenAPI v2 spec (swagger.json), as file name → schema. */
export function kubernetesSchemas(spec: JsonObject): Map<string, JsonObject> {
  const definitions = structuredClone(spec.definitions);
  if (!isObject(definitions)) throw new Error('the OpenAPI spec has no definitions (is it swagger.json, OpenAPI v2?)');
  definitions['io.k8s.apimachinery.pkg.util.intstr.IntOrString'] = { oneOf: [{ type: 'string' }, { type: 'integer' }] };
  // Kubernetes takes numbers for quantities (cpu: 1), as kubectl does.
  definitions['io.k8s.apimachinery.pkg.api.resource.Quantity'] = { oneOf: [{ type: 'string' }, { type: 'number' }] };
  const kinds: [string, Gvk[]][] = [];
  for (const [name, def] of Object.entries(definitions)) {
    if (!isObject(def) || !Array.isArray(def['x-kubernetes-group-version-kind'])) continue;
    const gvks = def['x-kubernetes-group-version-kind'] as unknown as Gvk[];
    const props = isObject(def.properties) ? def.properties : {};
    for (const { group, version, kind } of gvks) {
      if (isObject(props.apiVersion)) appendEnum(props.apiVersion, group ? `${group}/${version}` : version);
      if (isObject(props.kind)) appendEnum(props.kind, kind);
    }
    kinds.push([name, gvks]);
  }
  denyAdditionalProperties(definitions);

  const out = new Map<string, JsonObject>();
  for (const [name, gvks] of kinds) {
    if (refersToItself(name, definitions)) continue; // CustomResourceDefinition and its list: JSON schema inside a schema
    const schema = inlineRefs(definitions[name]!, definitions) as JsonObject;
    schema.$schema = 'http://json-schema.org/schema#';
    schema.type ??= 'object';
    schema.additionalProperties = false;
    if (isObject(schema.properties)) schema.properties = allowNullOptionalFields(replaceIntOrString(schema.properties));
    for (const gvk of gvks) out.set(schemaFileName(gvk), schema);
  }
  return out;
}

function appendEnum(prop: JsonObject, value: string): void {
  const list = Array.isArray(prop.enum) ? prop.enum : (prop.enum = []);
  if (!list.includes(value)) list.push(value);
}

/** Every served version of the CustomResourceDefinitions in a YAML text, as file name → schema. */
export function crdSchemas(yamlText: string): Map<string, JsonObject> {
  const out = new Map<string, JsonObject>();
  for (const doc of parseAllDocuments(yamlText)) {
    if (doc.errors.length) throw new Error(`bad CRD YAML: ${doc.errors[0]!.message}`);
    const crd = doc.toJS() as Json;
    if (!isObject(crd) || crd.kind !== 'CustomResourceDefinition' || !isObject(crd.spec)) continue;
    const { group, names, versions } = crd.spec;
    if (typeof group !== 'string' || !isObject(names) || typeof names.kind !== 'string' || !Array.isArray(versions)) continue;
    for (const version of versions) {
      if (!isObject(version) || typeof version.name !== 'string' || !isObject(version.schema)) continue;
      const schema = version.schema.openAPIV3Schema;
      if (!isObject(schema)) continue;
      const strict = replaceIntOrString(denyAdditionalProperties(structuredClone(schema), true)) as JsonObject;
      out.set(schemaFileName({ group, version: version.name, kind: names.kind }), strict);
    }
  }
  return out;
}

function main(argv: string[]): void {
  const openapi: string[] = [];
  const crds: string[] = [];
  let outDir = '';
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (!value) throw new Error(`${flag} needs a value`);
    if (flag === '--openapi') openapi.push(value);
    else if (flag === '--crd') crds.push(value);
    else if (flag === '--out') outDir = value;
    else throw new Error(`unknown option ${flag}`);
  }
  if (!outDir || (!openapi.length && !crds.length)) {
    throw new Error('usage: k8s-schemas.ts --openapi swagger.json [--crd crd.yaml ...] --out DIR');
  }
  fs.mkdirSync(outDir, { recursive: true });
  const schemas = new Map<string, JsonObject>();
  for (const file of openapi) for (const [name, s] of kubernetesSchemas(JSON.parse(fs.readFileSync(file, 'utf8')) as JsonObject)) schemas.set(name, s);
  for (const file of crds) for (const [name, s] of crdSchemas(fs.readFileSync(file, 'utf8'))) schemas.set(name, s);
  for (const [name, schema] of schemas) fs.writeFileSync(path.join(outDir, name), JSON.stringify(schema));
  console.log(`${schemas.size} schemas written to ${outDir}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  try {
    main(process.argv.slice(2));
  } catch (err) {
    console.error(`k8s-schemas: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
