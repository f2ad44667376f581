#!/usr/bin/env python3
"""Lists the public declarations of a module that have no documentation comment.

Reads the symbol graphs `swift symbolgraph-extract` (or the compiler's -emit-symbol-graph)
writes for a module: MODULE.symbols.json and MODULE@OTHER.symbols.json (its extensions of other
modules' types). A declaration counts as documented when it carries a comment of its own or one
inherited from the protocol requirement it implements (symbol graphs copy those in). Symbols the
compiler synthesizes (an Equatable `==`, a Codable `init(from:)`) have no place in the source and
are not counted.

usage: doc_coverage.py --graphs DIR MODULE...   (DIR holds the graphs, or one folder a module)
exit status 1 when any declaration is undocumented, naming each as FILE:LINE: KIND NAME.
"""
import json
import pathlib
import sys


def undocumented(graph_dir, module):
    found = []
    folder = graph_dir / module if (graph_dir / module).is_dir() else graph_dir
    files = sorted(folder.glob(f"{module}.symbols.json")) + sorted(folder.glob(f"{module}@*.symbols.json"))
    if not files:
        raise SystemExit(f"doc_coverage: no symbol graph for {module} in {graph_dir}")
    for path in files:
        graph = json.loads(path.read_text())
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                continue
            location = symbol.get("location")
            if location is None:
                continue
            lines = (symbol.get("docComment") or {}).get("lines") or []
            if any(line.get("text", "").strip() for line in lines):
                continue
            uri = location["uri"].removeprefix("file://")
            line = location["position"]["line"] + 1
            kind = symbol["kind"]["identifier"].removeprefix("swift.")
            name = ".".join(symbol["pathComponents"])
            found.append((uri, line, kind, name))
    return sorted(set(found))


def main():
    if len(sys.argv) < 4 or sys.argv[1] != "--graphs":
        print(__doc__.strip(), file=sys.stderr)
        return 2
    graph_dir = pathlib.Path(sys.argv[2])
    root = pathlib.Path.cwd()
    total = 0
    for module in sys.argv[3:]:
        missing = undocumented(graph_dir, module)
        total += len(missing)
        for uri, line, kind, name in missing:
            try:
                uri = str(pathlib.Path(uri).relative_to(root))
            except ValueError:
                pass
            print(f"{uri}:{line}: {kind} {name}")
        print(f"{module}: {len(missing)} undocumented", file=sys.stderr)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
