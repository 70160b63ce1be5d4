// TypeDoc plugin: documents the types the SDK infers from its zod schemas by their shape.
//
// `export type Amount = z.output<typeof amountSchema>` would otherwise be rendered as that expression, pointing
// at a schema that is not public. For such aliases this plugin asks TypeDoc to convert the resolved type instead
// (TypeDoc's own `@useDeclaredType`), so readers see `{ unit: string; value: string }` with the doc comments of the
// schema's fields; and it drops the `= …` "default values" TypeDoc would show for properties taken from an object
// literal.
import * as td from "typedoc";

/** `z.input<typeof schema>`, or a union of such (a leading `|` included, as a formatter writes long unions). */
const ZOD_INFERRED = /^(?:\|\s*)?z\.(?:input|output|infer)</;

/** @param {td.Application} app */
export function load(app) {
  app.converter.on(td.Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    if (reflection.kind !== td.ReflectionKind.TypeAlias) return;
    const declaration = context.getSymbolFromReflection(reflection)?.declarations?.[0];
    const typeText = declaration && "type" in declaration ? declaration.type?.getText() : undefined;
    if (!typeText || !ZOD_INFERRED.test(typeText)) return;
    reflection.comment ??= new td.Comment();
    reflection.comment.modifierTags.add("@useDeclaredType");
  });

  app.converter.on(td.Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const property of context.project.getReflectionsByKind(td.ReflectionKind.Property)) {
      if (property.defaultValue !== undefined && isInTypeAlias(property)) property.defaultValue = undefined;
    }
  });
}

/** @param {td.Reflection} reflection */
function isInTypeAlias(reflection) {
  for (let parent = reflection.parent; parent; parent = parent.parent) {
    if (parent.kind === td.ReflectionKind.TypeAlias) return true;
  }
  return false;
}
