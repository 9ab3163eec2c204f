// typedoc plugin (typedoc.json "plugin"): a public class or interface whose base is internal (Linkgate and
// MessagingClient extend APIClient, the resources APIResource, MockBackend BackendCore) shows the members it inherits
// as its own, without a hierarchy or an "Inherited from" or "Overrides" naming a type the reference does not document or link.
import { Converter, ReflectionKind } from 'typedoc';

/** A reference typedoc could not resolve to a documented reflection. */
const unlinked = (type) => type?.type === 'reference' && !type.reflection;

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(
    Converter.EVENT_RESOLVE_END,
    (context) => {
      const own = context.project.packageName;
      for (const type of context.project.getReflectionsByKind(ReflectionKind.ClassOrInterface)) {
        const kept = (type.extendedTypes ?? []).filter((t) => !(unlinked(t) && t.package === own));
        type.extendedTypes = kept.length > 0 ? kept : undefined;
        for (const member of type.children ?? []) {
          for (const r of [member, ...(member.signatures ?? []), member.getSignature, member.setSignature]) {
            if (r && unlinked(r.inheritedFrom)) r.inheritedFrom = undefined;
            if (r && unlinked(r.overwrites)) r.overwrites = undefined;
          }
        }
      }
      // Before typedoc's own resolve-end step, which draws each type's hierarchy from its extendedTypes.
    },
    100,
  );
}
