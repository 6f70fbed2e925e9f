#!/usr/bin/env python3
"""Counts the library's public items the way its API promise is stated: modules, types, traits,
functions, inherent and trait-declared methods, public fields and constants reachable from the
crate root, enum variants not counted.

    cargo +nightly rustdoc --lib -- -Z unstable-options --output-format json
    python3 scripts/public-api.py target/doc/warsweep.json [--list] [--max N] [--examples]

With `--examples`, every public type (struct, enum, trait) and every public item at all must
have documentation, and each type a runnable example (a code block in its documentation).
"""
import json
import sys


def main():
    args = sys.argv[1:]
    path = args[0] if args and not args[0].startswith("--") else "target/doc/warsweep.json"
    listing = "--list" in args
    limit = int(args[args.index("--max") + 1]) if "--max" in args else None
    doc = json.load(open(path))
    index = doc["index"]
    seen, counted = set(), []
    undocumented, no_example = [], []

    def item(i):
        return index.get(str(i)) or index.get(i)

    def visit(i, path):
        if i is None or i in seen:
            return
        it = item(i)
        if it is None or it.get("crate_id", 0) != 0:
            return
        seen.add(i)
        kind, inner = next(iter(it["inner"].items()))
        name = it.get("name") or ""
        here = f"{path}::{name}" if path else name
        docs = it.get("docs") or ""
        if kind != "use" and path and not docs.strip():
            undocumented.append(here)
        if kind in ("struct", "enum", "trait") and "```" not in docs:
            no_example.append(here)
        if kind == "module":
            if path:
                counted.append(("module", here))
            for child in inner["items"]:
                c = item(child)
                if c is not None and c.get("visibility") == "public":
                    visit(child, here)
        elif kind == "use":
            if inner.get("id") is not None:
                target = item(inner["id"])
                if target is not None and "module" in target["inner"] and inner.get("is_glob"):
                    for child in target["inner"]["module"]["items"]:
                        c = item(child)
                        if c is not None and c.get("visibility") == "public":
                            visit(child, path)
                else:
                    visit(inner["id"], path)
        elif kind in ("struct", "enum", "union"):
            counted.append((kind, here))
            if kind == "struct":
                fields = inner["kind"].get("plain", {}).get("fields", []) if isinstance(inner["kind"], dict) else []
                if isinstance(inner["kind"], dict) and "tuple" in inner["kind"]:
                    fields = [f for f in inner["kind"]["tuple"] if f is not None]
                for f in fields:
                    fi = item(f)
                    if fi is not None and fi.get("visibility") == "public":
                        counted.append(("field", f"{here}.{fi.get('name')}"))
            if kind == "enum":
                for v in inner["variants"]:
                    vi = item(v)
                    vk = vi["inner"]["variant"]["kind"]
                    if isinstance(vk, dict) and "struct" in vk:
                        pass  # variant fields are part of the variant, not counted
            for imp in inner["impls"]:
                ii = item(imp)
                if ii is None:
                    continue
                im = ii["inner"]["impl"]
                if im.get("trait") is not None or im.get("is_synthetic") or im.get("blanket_impl"):
                    continue
                for m in im["items"]:
                    mi = item(m)
                    if mi is not None and mi.get("visibility") == "public":
                        mk = next(iter(mi["inner"]))
                        if not (mi.get("docs") or "").strip():
                            undocumented.append(f"{here}::{mi.get('name')}")
                        counted.append(("method" if mk == "function" else mk, f"{here}::{mi.get('name')}"))
        elif kind == "trait":
            counted.append(("trait", here))
            for m in inner["items"]:
                mi = item(m)
                if mi is not None:
                    counted.append(("trait item", f"{here}::{mi.get('name')}"))
        elif kind in ("function", "constant", "static", "type_alias", "macro"):
            counted.append((kind, here))

    visit(doc["root"], "")
    if listing:
        for kind, name in counted:
            print(f"{kind:10} {name}")
    kinds = {}
    for kind, _ in counted:
        kinds[kind] = kinds.get(kind, 0) + 1
    print(f"{len(counted)} public items: " + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())))
    if "--examples" in args:
        for name in undocumented:
            print(f"undocumented: {name}", file=sys.stderr)
        for name in no_example:
            print(f"no example: {name}", file=sys.stderr)
        if undocumented or no_example:
            sys.exit(1)
        types = sum(1 for kind, _ in counted if kind in ("struct", "enum", "trait"))
        print(f"every public item documented, each of the {types} public types with an example")
    if limit is not None and len(counted) > limit:
        print(f"more than {limit} public items", file=sys.stderr)
        sys.exit(1)


main()
