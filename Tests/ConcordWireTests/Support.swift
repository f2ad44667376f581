import ConcordWire
import Foundation
import Testing

/// The diff between `old` and `new`, after checking that it turns `old` into `new` both as it
/// is and after a trip through JSON, as a window receives it.
func checkedDiff(
  _ old: JSONValue, _ new: JSONValue, sourceLocation: SourceLocation = #_sourceLocation
) throws -> StateDiff {
  let diff = StateDiff.between(old, new)
  #expect(try diff.apply(to: old) == new, "\(diff.jsonText)", sourceLocation: sourceLocation)
  let received = try JSONDecoder().decode(StateDiff.self, from: JSONEncoder().encode(diff))
  #expect(received == diff, sourceLocation: sourceLocation)
  #expect(try received.apply(to: old) == new, sourceLocation: sourceLocation)
  #expect(diff.encodedSize == diff.jsonText.utf8.count, sourceLocation: sourceLocation)
  return diff
}

extension StateDiff {
  /// The diff's wire text, for messages and for comparing with an expected encoding.
  var jsonText: String {
    (try? JSONValue(encoding: self).jsonText) ?? "<unencodable diff>"
  }
}
