// fuzz-diff: the diff applier and the diff maker.
//
// The input is JSON text. When it is an object with "state" and "diff", the diff is read the way
// a window reads the `diff` of an `update` (JSONDecoder, StateDiff's Codable form) and applied to
// the state: a DiffError is fine, anything else that goes wrong is a finding. Whatever the input
// holds, its first two values (array elements, or object members in key order) are also taken as
// an old and a new state, and `StateDiff.between(old, new)` must turn old into new, as it is and
// after the trip through JSON text a window receives it by.
import ConcordWire
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDiff(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)
  guard let document = try? JSONParser.parse(bytes) else { return 0 }

  if case let .object(members) = document, let state = members["state"], let diffValue = members["diff"] {
    applyReceivedDiff(diffValue, to: state)
  }
  if let (first, second) = firstTwoValues(of: document) {
    checkBetween(first, second)
    checkBetween(second, first)
  }
  checkBetween(document, document)
  return 0
}

/// Reads `diffValue` as a window does and applies it to `state`.
func applyReceivedDiff(_ diffValue: JSONValue, to state: JSONValue) {
  let diff: StateDiff
  do {
    diff = try decoder.decode(StateDiff.self, from: Data(diffValue.jsonText.utf8))
  } catch {
    return  // not a diff: the window reports a protocol error
  }
  // What was read is written back the same, and read back the same.
  checkTextRoundTrip(diff, "a diff read from the wire")

  let new: JSONValue
  do {
    new = try diff.apply(to: state)
  } catch {
    return  // does not fit: the window asks for the whole state
  }
  // The applied diff's effect can be diffed back from the two states.
  checkBetween(state, new)
}

/// `StateDiff.between(old, new)` turns `old` into `new`, also after a trip through its text.
func checkBetween(_ old: JSONValue, _ new: JSONValue) {
  let diff = StateDiff.between(old, new)
  if old == new, !diff.isEmpty { finding("the diff of equal values is not empty: \(diff.jsonText)") }
  let applied: JSONValue
  do {
    applied = try diff.apply(to: old)
  } catch {
    finding("between(old, new) does not apply to old: \(error)\nold: \(old.jsonText)\nnew: \(new.jsonText)\ndiff: \(diff.jsonText)")
  }
  guard applied == new else {
    finding("between(old, new).apply(to: old) != new\nold: \(old.jsonText)\nnew: \(new.jsonText)\ndiff: \(diff.jsonText)\ngot: \(applied.jsonText)")
  }
  // A window receives it as text: it must read back as the same diff (and so give `new` too).
  checkTextRoundTrip(diff, "between(old, new)")
}

/// `diff`'s text decodes, and to `diff` itself.
func checkTextRoundTrip(_ diff: StateDiff, _ what: String) {
  let text = diff.jsonText
  let received: StateDiff
  do {
    received = try decoder.decode(StateDiff.self, from: Data(text.utf8))
  } catch {
    finding("the text of \(what) does not decode: \(error)\n\(text)")
  }
  guard received == diff else { finding("\(what) changes through its text\n\(text)") }
}

/// The first two values an array or object holds (object members in key order).
func firstTwoValues(of document: JSONValue) -> (JSONValue, JSONValue)? {
  switch document {
  case let .array(elements) where elements.count >= 2:
    return (elements[0], elements[1])
  case let .object(members) where members.count >= 2:
    let keys = members.keys.sorted()
    return (members[keys[0]]!, members[keys[1]]!)
  default:
    return nil
  }
}

let decoder = JSONDecoder()

/// A broken property: print why and trap, so libFuzzer keeps the input as a crash.
func finding(_ message: String) -> Never {
  fatalError("fuzz-diff finding: \(message)")
}
