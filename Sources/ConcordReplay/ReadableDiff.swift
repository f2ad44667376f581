import ConcordApp
import ConcordWire

/// What changed between two JSON states, one line a change, as a person reads it:
///
/// ```text
/// ~ cards#3.column: "todo" → "done"
/// + cards#7: {"id":7,"title":"Fix login",…}
/// - notes[2]: "bread"
/// ```
///
/// Elements of an array whose every element has an `"id"` are matched by id (`cards#3`), so a
/// card moved in its list is one change, not one per position; other arrays by position.
public enum ReadableDiff {
  /// The changes from `before` to `after`, in the order of the keys and elements; empty when
  /// they are equal.
  ///
  /// - Parameters:
  ///   - before: the earlier state.
  ///   - after: the later state.
  ///   - valueWidth: values longer than this many characters are cut, with `…`.
  public static func lines(from before: JSONValue, to after: JSONValue, valueWidth: Int = 80) -> [String] {
    var lines: [String] = []
    walk(before, after, path: "", into: &lines, width: valueWidth)
    return lines
  }

  static func walk(_ old: JSONValue, _ new: JSONValue, path: String, into lines: inout [String], width: Int) {
    guard old != new else { return }
    switch (old, new) {
    case let (.object(a), .object(b)):
      for key in Set(a.keys).union(b.keys).sorted() {
        let here = path.isEmpty ? key : "\(path).\(key)"
        switch (a[key], b[key]) {
        case let (x?, y?): walk(x, y, path: here, into: &lines, width: width)
        case let (x?, nil): lines.append("- \(here): \(show(x, width))")
        case let (nil, y?): lines.append("+ \(here): \(show(y, width))")
        case (nil, nil): break
        }
      }
    case let (.array(a), .array(b)):
      if let keyedA = keyed(a), let keyedB = keyed(b) {
        let oldByID = Dictionary(keyedA.map { ($0.id, $0.value) }, uniquingKeysWith: { first, _ in first })
        let newIDs = Set(keyedB.map(\.id))
        for element in keyedA where !newIDs.contains(element.id) {
          lines.append("- \(path)#\(element.id): \(show(element.value, width))")
        }
        for element in keyedB {
          if let was = oldByID[element.id] {
            walk(was, element.value, path: "\(path)#\(element.id)", into: &lines, width: width)
          } else {
            lines.append("+ \(path)#\(element.id): \(show(element.value, width))")
          }
        }
      } else {
        for index in 0..<max(a.count, b.count) {
          let here = "\(path)[\(index)]"
          if index >= b.count {
            lines.append("- \(here): \(show(a[index], width))")
          } else if index >= a.count {
            lines.append("+ \(here): \(show(b[index], width))")
          } else {
            walk(a[index], b[index], path: here, into: &lines, width: width)
          }
        }
      }
    default:
      lines.append("~ \(path.isEmpty ? "the state" : path): \(show(old, width)) → \(show(new, width))")
    }
  }

  /// The elements with their ids as text, when every element is an object with a string or
  /// integer `"id"`, each id once (an empty array is keyed too: it has no element that is not).
  static func keyed(_ elements: [JSONValue]) -> [(id: String, value: JSONValue)]? {
    var seen = Set<String>()
    var keyed: [(id: String, value: JSONValue)] = []
    for element in elements {
      guard case let .object(object) = element, let id = object["id"] else { return nil }
      let text: String
      switch id {
      case let .string(string): text = string
      case let .integer(number): text = String(number)
      default: return nil
      }
      guard seen.insert(text).inserted else { return nil }
      keyed.append((text, element))
    }
    return keyed
  }

  static func show(_ value: JSONValue, _ width: Int) -> String {
    let text = value.jsonText
    return text.count <= width ? text : String(text.prefix(max(1, width - 1))) + "…"
  }
}
