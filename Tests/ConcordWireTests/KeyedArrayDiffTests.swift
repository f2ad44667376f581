import ConcordWire
import Testing

@Suite struct KeyedArrayDiffTests {
  /// `count` cards with ids "c0", "c1", … and a little content each, like a board's column.
  func cards(_ count: Int) -> [JSONValue] {
    (0..<count).map { index in
      ["id": .string("c\(index)"), "title": .string("Card number \(index)"), "done": false, "tags": ["a", "b"]]
    }
  }

  func card(_ id: String) -> JSONValue { ["id": .string(id), "title": "New", "done": false, "tags": []] }

  @Test func movingOneOfAThousandCardsIsOneMove() throws {
    var moved = cards(1000)
    let card = moved.remove(at: 500)
    moved.insert(card, at: 11)
    let diff = try checkedDiff(["cards": .array(cards(1000))], ["cards": .array(moved)])
    #expect(diff.operations == [.move(path: ["cards", .id("c500")], after: "c10")])
    #expect(diff.jsonText == #"[{"after":"c10","op":"move","path":["cards",{"id":"c500"}]}]"#)
    #expect(diff.encodedSize < 500)
  }

  @Test func movingACardToTheFrontOrTheEnd() throws {
    var front = cards(1000)
    front.insert(front.remove(at: 700), at: 0)
    let toFront = try checkedDiff(.array(cards(1000)), .array(front))
    #expect(toFront.operations == [.move(path: [.id("c700")], after: nil)])

    var end = cards(1000)
    end.append(end.remove(at: 3))
    let toEnd = try checkedDiff(.array(cards(1000)), .array(end))
    #expect(toEnd.operations == [.move(path: [.id("c3")], after: "c999")])
    #expect(toEnd.encodedSize < 500)
  }

  @Test func insertingInTheMiddleIsASetAndAMove() throws {
    var inserted = cards(1000)
    inserted.insert(card("new"), at: 500)
    let diff = try checkedDiff(["cards": .array(cards(1000))], ["cards": .array(inserted)])
    #expect(
      diff.operations == [
        .set(path: ["cards", .id("new")], value: card("new")),
        .move(path: ["cards", .id("new")], after: "c499"),
      ])
    #expect(diff.encodedSize < 500)
  }

  @Test func appendingNeedsNoMove() throws {
    let diff = try checkedDiff(.array(cards(1000)), .array(cards(1000) + [card("last")]))
    #expect(diff.operations == [.set(path: [.id("last")], value: card("last"))])
  }

  @Test func deletingIsOneRemove() throws {
    var deleted = cards(1000)
    deleted.remove(at: 250)
    let diff = try checkedDiff(["cards": .array(cards(1000))], ["cards": .array(deleted)])
    #expect(diff.operations == [.remove(path: ["cards", .id("c250")])])
    #expect(diff.encodedSize < 500)
  }

  @Test func changingOneFieldOfOneOfAThousandCards() throws {
    var changed = cards(1000)
    changed[700] = ["id": "c700", "title": "Card number 700", "done": true, "tags": ["a", "b"]]
    let diff = try checkedDiff(["cards": .array(cards(1000))], ["cards": .array(changed)])
    #expect(diff.operations == [.set(path: ["cards", .id("c700"), "done"], value: true)])
    #expect(diff.encodedSize < 500)
  }

  @Test func everythingAtOnce() throws {
    // Remove c1, edit c4, insert x before c2, move c0 to the end.
    let old = cards(6)
    var new = old
    new[4] = ["id": "c4", "title": "Edited", "done": true, "tags": ["a", "b"]]
    new.remove(at: 1)
    new.insert(card("x"), at: 1)
    new.append(new.remove(at: 0))
    let diff = try checkedDiff(.array(old), .array(new))
    #expect(
      diff.operations == [
        .remove(path: [.id("c1")]),
        .set(path: [.id("x")], value: card("x")),
        .set(path: [.id("c4"), "done"], value: true),
        .set(path: [.id("c4"), "title"], value: "Edited"),
        .move(path: [.id("x")], after: nil),
        .move(path: [.id("c0")], after: "c5"),
      ])
  }

  @Test func reversingMovesAllButOne() throws {
    let old = cards(10)
    let diff = try checkedDiff(.array(old), .array(old.reversed()))
    #expect(diff.operations.count == 9)
    #expect(diff.operations.allSatisfy { if case .move = $0 { true } else { false } })
  }

  @Test func numericIdsAreKeysToo() throws {
    let old: JSONValue = [["id": 1, "v": "a"], ["id": 2, "v": "b"], ["id": 3, "v": "c"]]
    let new: JSONValue = [["id": 3, "v": "c"], ["id": 1, "v": "A"]]
    let diff = try checkedDiff(old, new)
    #expect(
      diff.operations == [
        .remove(path: [.id(2)]),
        .set(path: [.id(1), "v"], value: "A"),
        .move(path: [.id(1)], after: 3),
      ])
    #expect(diff.jsonText.contains(#"{"id":2}"#))
  }

  @Test func aStringIdAndANumberIdAreDifferentIds() throws {
    let diff = try checkedDiff([["id": 1, "v": 0]], [["id": "1", "v": 0]])
    #expect(diff.operations == [.remove(path: [.id(1)]), .set(path: [.id("1")], value: ["id": "1", "v": 0])])
  }

  @Test func aCardMovesBetweenColumns() throws {
    let old: JSONValue = [
      "columns": [
        ["id": "todo", "title": "To do", "cards": [["id": 1, "t": "a"], ["id": 2, "t": "b"]]],
        ["id": "done", "title": "Done", "cards": [["id": 3, "t": "c"]]],
      ]
    ]
    let new: JSONValue = [
      "columns": [
        ["id": "todo", "title": "To do", "cards": [["id": 1, "t": "a"]]],
        ["id": "done", "title": "Done", "cards": [["id": 2, "t": "b"], ["id": 3, "t": "c"]]],
      ]
    ]
    let diff = try checkedDiff(old, new)
    #expect(
      diff.operations == [
        .remove(path: ["columns", .id("todo"), "cards", .id(2)]),
        .set(path: ["columns", .id("done"), "cards", .id(2)], value: ["id": 2, "t": "b"]),
        // Either card could move; the fewest moves is one, and this is the one it finds.
        .move(path: ["columns", .id("done"), "cards", .id(3)], after: 2),
      ])
  }

  @Test func duplicateOrMissingIdsFallBackToIndexes() throws {
    let duplicate: JSONValue = [["id": 1, "v": 1], ["id": 1, "v": 2]]
    #expect(try checkedDiff(duplicate, [["id": 1, "v": 1], ["id": 1, "v": 3]]).operations == [.set(path: [1, "v"], value: 3)])
    let missing: JSONValue = [["id": 1], ["name": "no id"]]
    #expect(
      try checkedDiff(missing, [["name": "no id"], ["id": 1]]).operations == [
        .remove(path: [0, "id"]), .set(path: [0, "name"], value: "no id"),
        .remove(path: [1, "name"]), .set(path: [1, "id"], value: 1),
      ])
    let boolIDs: JSONValue = [["id": true], ["id": false]]
    #expect(
      try checkedDiff(boolIDs, [["id": false], ["id": true]]).operations == [
        .set(path: [0, "id"], value: false), .set(path: [1, "id"], value: true),
      ])
  }

  @Test func toAndFromEmptyIsOneOperation() throws {
    #expect(try checkedDiff([], .array(cards(3))).operations == [.append(path: [], values: cards(3))])
    #expect(try checkedDiff(.array(cards(3)), []).operations == [.truncate(path: [], count: 0)])
  }
}
