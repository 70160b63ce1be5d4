// TypeDoc plugin: documents the types the SDK infers from its zod schemas as the named types a reader meets.
//
// The SDK names each input and result `interface X extends z.output<typeof xObject> {}`: the fields, their types and
// their doc comments come from a schema that is not public. Left alone, TypeDoc renders such an interface with:
// - a hierarchy `output<typeof xObject>` (a private schema) above it, and "Inherited from z.output.field" under
//   every field, with the field flagged as inherited (hidden when a reader unticks "Inherited");
// - a bogus default under every field, `successUrl: string = returnUrl`: the schema expression the field was
//   read from, taken for an initializer.
// This plugin drops the zod heritage (the fields then read as the interface's own), and every "default" of a
// property of an interface or a type alias (a type has no initializers: any such value came from a schema).
//
// It also expands unions of named interfaces on the page of their alias: `CreateCheckoutInput` is
// `CheckoutWithRedirectsInput | CheckoutWithoutRedirectsInput`, and its page lists both members with their fields
// (TypeDoc's own `@expandType`, scoped to that page), while everywhere else the members stay links.
//
// The few aliases still written `type X = z.output<typeof schema>` get TypeDoc's `@useDeclaredType`: readers see
// `{ unit: string; value: string }` with the doc comments of the schema's fields, not a private schema's name.
import * as td from "typedoc";

/** `z.input<typeof schema>`, or a union of such (a leading `|` included, as a formatter writes long unions). */
const ZOD_INFERRED = /^(?:\|\s*)?z\.(?:input|output|infer)</;

/** The package whose types name the schemas' inferred shapes. */
const ZOD_PACKAGE = "zod";

/** @param {td.Application} app */
export function load(app) {
  app.converter.on(td.Converter.EVENT_CREATE_DECLARATION, useDeclaredTypeOfZodAliases);
  app.converter.on(td.Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const reflection of context.project.getReflectionsByKind(td.ReflectionKind.Interface)) {
      dropZodHeritage(reflection);
    }
    for (const property of context.project.getReflectionsByKind(td.ReflectionKind.Property)) {
      if (property.defaultValue !== undefined && isInType(property)) property.defaultValue = undefined;
    }
  });
  app.converter.on(td.Converter.EVENT_RESOLVE_END, (context) => {
    for (const alias of context.project.getReflectionsByKind(td.ReflectionKind.TypeAlias)) {
      expandInterfaceMembers(alias);
    }
  });
}

/**
 * `type X = z.output<typeof schema>` would render as that expression; the resolved shape reads better.
 *
 * @param {td.Context} context
 * @param {td.DeclarationReflection} reflection
 */
function useDeclaredTypeOfZodAliases(context, reflection) {
  if (reflection.kind !== td.ReflectionKind.TypeAlias) return;
  const declaration = context.getSymbolFromReflection(reflection)?.declarations?.[0];
  const typeText = declaration && "type" in declaration ? declaration.type?.getText() : undefined;
  if (!typeText || !ZOD_INFERRED.test(typeText)) return;
  reflection.comment ??= new td.Comment();
  reflection.comment.modifierTags.add("@useDeclaredType");
}

/**
 * Drops `extends z.output<…>` from an interface, and with it the "inherited from" links of its fields: what they
 * pointed at is a private schema, never a page. Links to another interface of the project are kept.
 *
 * @param {td.DeclarationReflection} reflection
 */
function dropZodHeritage(reflection) {
  const kept = reflection.extendedTypes?.filter((type) => !isZodReference(type));
  if (!kept || kept.length === reflection.extendedTypes.length) return;
  reflection.extendedTypes = kept.length > 0 ? kept : undefined;
  for (const member of reflection.children ?? []) {
    for (const target of [member, ...member.getAllSignatures()]) {
      // Still unresolved here means: not a reflection of the project (the zod type).
      if (target.inheritedFrom && !target.inheritedFrom.reflection) {
        target.inheritedFrom = undefined;
        target.setFlag(td.ReflectionFlag.Inherited, false);
      }
      if (target.overwrites && !target.overwrites.reflection) target.overwrites = undefined;
    }
  }
}

/** @param {td.SomeType} type */
function isZodReference(type) {
  return type instanceof td.ReferenceType && type.package === ZOD_PACKAGE;
}

/**
 * On the page of an alias whose type is a union (or an array) of interfaces of the project, lists each member's
 * fields under the signature. `@expandType` is not rendered as a tag, and it applies to this page only.
 *
 * @param {td.DeclarationReflection} alias
 */
function expandInterfaceMembers(alias) {
  const names = new Set();
  for (const target of memberTargets(alias.type)) {
    if (target.kindOf(td.ReflectionKind.Interface) && target.children?.length) names.add(target.name);
  }
  if (names.size === 0) return;
  alias.comment ??= new td.Comment();
  for (const name of names) {
    alias.comment.blockTags.push(new td.CommentTag("@expandType", [{ kind: "text", text: name }]));
  }
}

/**
 * The reflections a type alias stands for: its own reference, each member of a union, the element of an array.
 * Type arguments are not followed (`Promise<X>` is not an `X`), nor `readonly X[]` (TypeDoc's theme expands no
 * type operator: the alias links to `X`).
 *
 * @param {td.SomeType | undefined} type
 * @returns {td.Reflection[]}
 */
function memberTargets(type) {
  if (type instanceof td.UnionType) return type.types.flatMap(memberTargets);
  if (type instanceof td.ArrayType) return memberTargets(type.elementType);
  if (type instanceof td.ReferenceType && type.reflection) return [type.reflection];
  return [];
}

/** @param {td.Reflection} reflection */
function isInType(reflection) {
  for (let parent = reflection.parent; parent; parent = parent.parent) {
    if (parent.kindOf(td.ReflectionKind.Interface | td.ReflectionKind.TypeAlias)) return true;
  }
  return false;
}
