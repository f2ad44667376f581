extension JSONValue {
  /// JSON text for a person to read: each member and element on a line of its own, indented by
  /// two spaces, keys sorted; the same value as ``jsonText`` (removing the whitespace between
  /// tokens gives it back byte for byte).
  ///
  /// ```swift
  /// JSONValue.object(["b": .array([1, .null]), "a": "x", "c": .object([:])]).prettyJSONText
  /// // {
  /// //   "a": "x",
  /// //   "b": [
  /// //     1,
  /// //     null
  /// //   ],
  /// //   "c": {}
  /// // }
  /// ```
  public var prettyJSONText: String {
    var text = ""
    writePretty(to: &text, indent: "")
    return text
  }

  private func writePretty(to text: inout String, indent: String) {
    let inner = indent + "  "
    switch self {
    case let .array(array) where !array.isEmpty:
      text += "[\n"
      for (index, element) in array.enumerated() {
        text += inner
        element.writePretty(to: &text, indent: inner)
        text += index == array.count - 1 ? "\n" : ",\n"
      }
      text += indent + "]"
    case let .object(object) where !object.isEmpty:
      text += "{\n"
      // Sorted as jsonText sorts them, so the two texts hold the members in one order.
      let members = object.sorted(by: { $0.key < $1.key })
      for (index, member) in members.enumerated() {
        text += inner
        Self.writeString(member.key, to: &text)
        text += ": "
        member.value.writePretty(to: &text, indent: inner)
        text += index == members.count - 1 ? "\n" : ",\n"
      }
      text += indent + "}"
    default:
      write(to: &text)
    }
  }
}
