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
  // The wire text is built by hand, for speed; windows decode it with Codable, so the two must
  // agree to the byte.
  #expect(diff.jsonText == (try JSONValue(encoding: diff)).jsonText, sourceLocation: sourceLocation)
  return diff
}
