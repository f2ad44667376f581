import ConcordWire
import Testing

@Suite struct DiffApplyErrorTests {
  let board: JSONValue = [
    "title": "Board",
    "columns": [["id": "todo", "cards": [["id": 1, "t": "a"], ["id": 2, "t": "b"]]]],
    "log": [1, 2, 3],
  ]

  /// The message `operations` fail with on `board`.
  func failure(_ operations: [DiffOperation], on state: JSONValue? = nil) -> String? {
    do {
      _ = try StateDiff(operations: operations).apply(to: state ?? board)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func missingPlacesAreNamed() {
    #expect(failure([.set(path: ["settings", "theme"], value: 1)]) == #"operation 1 of 1 (set ["settings","theme"]): the state has no key "settings""#)
    #expect(failure([.remove(path: ["nope"])]) == #"operation 1 of 1 (remove ["nope"]): the state has no key "nope""#)
    #expect(
      failure([.set(path: ["title"], value: "x"), .remove(path: ["columns", .id("done")])])
        == #"operation 2 of 2 (remove ["columns",{"id":"done"}]): ["columns"] has no element with id "done""#)
    #expect(
      failure([.set(path: ["columns", .id("todo"), "cards", .id(9), "t"], value: "z")])
        == #"operation 1 of 1 (set ["columns",{"id":"todo"},"cards",{"id":9},"t"]): ["columns",{"id":"todo"},"cards"] has no element with id 9"#
    )
    #expect(failure([.set(path: ["log", 3], value: 4)]) == #"operation 1 of 1 (set ["log",3]): ["log"] has no index 3 (it has 3 elements)"#)
    #expect(failure([.remove(path: ["log", -1])]) == #"operation 1 of 1 (remove ["log",-1]): ["log"] has no index -1 (it has 3 elements)"#)
  }

  @Test func theDocumentedMessageHolds() {
    #expect(
      failure([.remove(path: ["cards", .id(7)])], on: ["cards": []])
        == #"operation 1 of 1 (remove ["cards",{"id":7}]): ["cards"] has no element with id 7"#)
  }

  @Test func wrongKindsAreNamed() {
    #expect(failure([.set(path: ["title", "x"], value: 1)]) == #"operation 1 of 1 (set ["title","x"]): ["title"] is a string, not an object"#)
    #expect(failure([.append(path: ["title"], values: [1])]) == #"operation 1 of 1 (append ["title"]): ["title"] is a string, not an array"#)
    #expect(failure([.set(path: [0], value: 1)]) == #"operation 1 of 1 (set [0]): the state is an object, not an array"#)
    #expect(failure([.remove(path: ["x"])], on: .null) == #"operation 1 of 1 (remove ["x"]): the state is null, not an object"#)
    #expect(failure([.truncate(path: ["log", 0], count: 0)]) == #"operation 1 of 1 (truncate ["log",0]): ["log",0] is a number, not an array"#)
  }

  @Test func operationsThatCannotFitAnyStateAreRefused() {
    #expect(failure([.remove(path: [])]) == "operation 1 of 1 (remove the state): the state itself cannot be removed")
    #expect(failure([.truncate(path: ["log"], count: 4)]) == #"operation 1 of 1 (truncate ["log"]): ["log"] has 3 elements, cannot keep 4"#)
    #expect(failure([.truncate(path: ["log"], count: -1)]) == #"operation 1 of 1 (truncate ["log"]): ["log"] has 3 elements, cannot keep -1"#)
    #expect(
      failure([.move(path: ["log", 0], after: nil)])
        == #"operation 1 of 1 (move ["log",0]): a move needs a path that ends in an element id, like ["cards",{"id":7}]"#)
    #expect(
      failure([.move(path: ["columns", .id("todo"), "cards", .id(1)], after: 1)])
        == #"operation 1 of 1 (move ["columns",{"id":"todo"},"cards",{"id":1}]): element 1 cannot be moved after itself"#)
    #expect(
      failure([.move(path: ["columns", .id("todo"), "cards", .id(1)], after: 5)])
        == #"operation 1 of 1 (move ["columns",{"id":"todo"},"cards",{"id":1}]): ["columns",{"id":"todo"},"cards"] has no element with id 5"#)
    #expect(
      failure([.set(path: ["columns", .id("todo"), "cards", .id(3)], value: ["id": 4])])
        == #"operation 1 of 1 (set ["columns",{"id":"todo"},"cards",{"id":3}]): the element set under id 3 is not an object with "id": 3"#)
  }

  @Test func aDiffForAnotherStateFailsInsteadOfCorruptingThisOne() throws {
    let old: JSONValue = ["cards": [["id": 1], ["id": 2]]]
    let new: JSONValue = ["cards": [["id": 2, "x": true]]]
    let diff = StateDiff.between(old, new)
    let drifted: JSONValue = ["cards": [["id": 1]]]
    #expect(throws: DiffError.self) { try diff.apply(to: drifted) }
    #expect(throws: DiffError.self) { try diff.apply(to: .null) }
    // Applying twice: the element it removes is gone the second time.
    #expect(throws: DiffError.self) { try diff.apply(to: diff.apply(to: old)) }
  }

  @Test func anyDiffOnAnyStateReturnsOrThrowsWithoutTrapping() throws {
    // Diffs between unrelated documents, applied to other unrelated documents: every outcome
    // is a state or a DiffError with a message.
    var generator = RandomJSON(seed: 0xD1FF)
    let documents = (0..<60).map { _ in generator.document() }
    var failures = 0
    for (index, old) in documents.enumerated() {
      let diff = StateDiff.between(old, documents[(index + 1) % documents.count])
      for other in documents.prefix(20) {
        do {
          _ = try diff.apply(to: other)
        } catch {
          failures += 1
          #expect(error.message.hasPrefix("operation "))
          #expect("\(error)" == error.message)
        }
      }
    }
    #expect(failures > 0)
  }
}
