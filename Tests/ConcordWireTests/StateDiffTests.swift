import ConcordWire
import Testing

@Suite struct StateDiffTests {
  @Test func equalStatesGiveAnEmptyDiff() throws {
    let states: [JSONValue] = [.null, 1, "x", [1, [2]], ["a": ["b": [["id": 1]]]]]
    for state in states {
      let diff = try checkedDiff(state, state)
      #expect(diff.isEmpty)
      #expect(diff.operations == [])
      #expect(diff.encodedSize == 2)  // []
    }
  }

  @Test func theDocumentedExampleHolds() throws {
    let old: JSONValue = ["title": "Board", "cards": [["id": 1, "done": false], ["id": 2, "done": false]]]
    let new: JSONValue = ["title": "Board", "cards": [["id": 2, "done": false], ["id": 1, "done": true]]]
    let diff = try checkedDiff(old, new)
    #expect(
      diff.jsonText
        == #"[{"op":"set","path":["cards",{"id":1},"done"],"value":true},{"after":2,"op":"move","path":["cards",{"id":1}]}]"#
    )
    #expect(StateDiff.between(["a": 1, "b": 2], ["a": 1, "c": 3]).operations == [.remove(path: ["b"]), .set(path: ["c"], value: 3)])
  }

  @Test func objectKeysAreSetAndRemoved() throws {
    let diff = try checkedDiff(["a": 1, "b": 2, "c": 3], ["a": 1, "b": 20, "d": 4])
    #expect(
      diff.operations == [
        .remove(path: ["c"]),
        .set(path: ["b"], value: 20),
        .set(path: ["d"], value: 4),
      ])
  }

  @Test func nestedChangesAreSetAtTheirPath() throws {
    let old: JSONValue = ["settings": ["theme": ["name": "dark", "size": 12]], "users": ["ann", "bob"]]
    let new: JSONValue = ["settings": ["theme": ["name": "light", "size": 12]], "users": ["ann", "bo"]]
    let diff = try checkedDiff(old, new)
    #expect(
      diff.operations == [
        .set(path: ["settings", "theme", "name"], value: "light"),
        .set(path: ["users", 1], value: "bo"),
      ])
    #expect(
      diff.jsonText
        == #"[{"op":"set","path":["settings","theme","name"],"value":"light"},{"op":"set","path":["users",1],"value":"bo"}]"#
    )
  }

  @Test func plainArraysGrowAndShrink() throws {
    let grow = try checkedDiff([1, 2, 3], [1, 5, 3, 4, 5])
    #expect(grow.operations == [.set(path: [1], value: 5), .append(path: [], values: [4, 5])])

    let shrink = try checkedDiff(["list": [1, 2, 3, 4]], ["list": [0, 2]])
    #expect(shrink.operations == [.set(path: ["list", 0], value: 0), .truncate(path: ["list"], count: 2)])

    #expect(try checkedDiff([], [1, 2]).operations == [.append(path: [], values: [1, 2])])
    #expect(try checkedDiff([1, 2], []).operations == [.truncate(path: [], count: 0)])
  }

  @Test func arraysOfArraysAreDiffedByIndex() throws {
    let diff = try checkedDiff([[1, 2], [3]], [[1, 2, 9], [3], []])
    #expect(diff.operations == [.append(path: [0], values: [9]), .append(path: [], values: [[]])])
  }

  @Test func aChangedTypeIsSetWhole() throws {
    #expect(try checkedDiff(["a": ["x": 1]], ["a": [1]]).operations == [.set(path: ["a"], value: [1])])
    #expect(try checkedDiff(["n": 5], ["n": .null]).operations == [.set(path: ["n"], value: .null)])
    #expect(try checkedDiff([1], ["0": 1]).operations == [.set(path: [], value: ["0": 1])])
    #expect(try checkedDiff("text", 1).operations == [.set(path: [], value: 1)])
    #expect(try checkedDiff(true, false).operations == [.set(path: [], value: false)])
    #expect(try checkedDiff(.null, ["a": []]).operations == [.set(path: [], value: ["a": []])])
  }

  @Test func integerAndFractionalNumbersCompareAsNumbers() throws {
    #expect(try checkedDiff(["n": 1], ["n": 1.0]).isEmpty)
    #expect(try checkedDiff(["n": 1], ["n": 1.5]).operations == [.set(path: ["n"], value: 1.5)])
  }

  @Test func theDiffOfTwoStatesIsAlwaysTheSame() {
    var old: [String: JSONValue] = [:]
    var new: [String: JSONValue] = [:]
    for index in 0..<40 {
      old["k\(index)"] = .number(Double(index))
      new["k\(index)"] = .number(Double(index.isMultiple(of: 3) ? index + 100 : index))
    }
    let first = StateDiff.between(.object(old), .object(new))
    for _ in 0..<5 {
      #expect(StateDiff.between(.object(old), .object(new)) == first)
    }
    // In key order, whatever order the dictionaries hold them in.
    let changed = stride(from: 0, to: 40, by: 3).map { "k\($0)" }.sorted()
    #expect(first.operations.map(\.path) == changed.map { [.key($0)] })
  }
}
