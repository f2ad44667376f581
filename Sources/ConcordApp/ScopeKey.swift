/// A scope name as a window writes it: `board`, or `card:42`.
package struct ScopeKey: Hashable, Sendable, CustomStringConvertible {
  package let name: String
  package let parameter: String?

  package init(_ text: String) {
    if let colon = text.firstIndex(of: ":") {
      name = String(text[..<colon])
      parameter = String(text[text.index(after: colon)...])
    } else {
      name = text
      parameter = nil
    }
  }

  package var description: String { parameter.map { "\(name):\($0)" } ?? name }
}
