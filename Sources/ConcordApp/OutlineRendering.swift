import ConcordWire

/// Any state as a person reads it, for a scope whose app gave no renderer: an indented outline,
/// one member or element a line, with what is still pending marked.
///
/// ```text
///   counter: 5
/// ◌ notes:
///     - done: false
///       id: 1
///       text: buy milk
/// ```
///
/// Members are in name order. An element of an array that has an `id` is known by it, so an
/// element added or removed before it does not make it look changed. A line the daemon's
/// state (the context's `confirmed`) does not hold, at the same place, is pending (◌).
public enum OutlineRendering {
  /// The outline of `state`, each line cut to the context's width.
  public static func lines(of state: JSONValue, _ context: RenderContext<JSONValue>) -> [String] {
    let shown = outline(of: state)
    let confirmed = context.confirmed.map { Set(outline(of: $0).map(\.self)) }
    let width = max(4, context.width)
    return shown.map { line in
      let mark = confirmed.map { $0.contains(line) ? "  " : RenderContext<JSONValue>.pendingMark + " " } ?? "  "
      return TextFit.cut(mark + line.text, width)
    }
  }

  /// One line of the outline, and where in the state it stands.
  struct Line: Hashable {
    /// The members and element ids (or places) from the root to it.
    var path: [String]
    var text: String
  }

  static func outline(of state: JSONValue) -> [Line] {
    var lines: [Line] = []
    write(state, path: [], indent: "", label: "", into: &lines)
    return lines
  }

  /// Writes `value` as `label` and its text on one line when it is a scalar or empty, else the
  /// label alone and its members or elements below, indented.
  private static func write(_ value: JSONValue, path: [String], indent: String, label: String, into lines: inout [Line]) {
    switch value {
    case let .object(members) where !members.isEmpty:
      var childIndent = indent
      if !label.isEmpty {
        lines.append(Line(path: path, text: indent + label))
        childIndent += "  "
      }
      for name in members.keys.sorted() {
        write(members[name]!, path: path + [name], indent: childIndent, label: name + ":", into: &lines)
      }
    case let .array(elements) where !elements.isEmpty:
      var childIndent = indent
      if !label.isEmpty {
        lines.append(Line(path: path, text: indent + label))
        childIndent += "  "
      }
      for (index, element) in elements.enumerated() {
        let place = identity(of: element).map { "id=\($0)" } ?? "#\(index)"
        writeElement(element, path: path + [place], indent: childIndent, into: &lines)
      }
    default:
      let text = scalarText(value)
      lines.append(Line(path: path, text: indent + (label.isEmpty ? text : label + " " + text)))
    }
  }

  /// An element of an array: `- ` before its first line, its other lines under the first.
  private static func writeElement(_ element: JSONValue, path: [String], indent: String, into lines: inout [Line]) {
    let first = lines.count
    write(element, path: path, indent: indent + "  ", label: "", into: &lines)
    guard first < lines.count else { return }
    // The element's first line takes the dash in place of its indent.
    let text = lines[first].text
    lines[first].text = indent + "- " + text.dropFirst(indent.count + 2)
  }

  /// An element's `id` member, when it has a scalar one.
  private static func identity(of element: JSONValue) -> String? {
    guard case let .object(members) = element, let id = members["id"] else { return nil }
    switch id {
    case .integer, .string, .number: return id.jsonText
    default: return nil
    }
  }

  /// A scalar as text: a string as it is when it reads unambiguously (no control characters,
  /// not empty, not padded), else as JSON; an empty array or object as `[]` or `{}`.
  static func scalarText(_ value: JSONValue) -> String {
    guard case let .string(text) = value else { return value.jsonText }
    let plain =
      !text.isEmpty && text.first != " " && text.last != " "
      && !text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}" }
    return plain ? text : value.jsonText
  }
}
