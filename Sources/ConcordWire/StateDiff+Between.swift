extension StateDiff {
  /// The operations that turn `old` into `new`. `StateDiff.between(a, b).apply(to: a) == b`
  /// for ALL a, b.
  ///
  /// - Objects are diffed key by key: a removed key gives `remove`, an added one `set`, a
  ///   changed one the diff of its two values.
  /// - Arrays whose elements are, on both sides, objects with unique string or number `"id"`s
  ///   are diffed by id: `remove` for the ids that left, the diff of each element that changed,
  ///   `set` for each id that came (appended), then `move`s for the fewest elements that put
  ///   the ids in their new order.
  /// - Other arrays are diffed index by index over their common length, then `append` or
  ///   `truncate`.
  /// - Anything else that changed (a number, or an object that became an array) is `set`.
  ///
  /// ```swift
  /// StateDiff.between(["a": 1, "b": 2], ["a": 1, "c": 3]).operations
  /// // [.remove(path: ["b"]), .set(path: ["c"], value: 3)]
  /// StateDiff.between(["a": 1], ["a": 1]).isEmpty   // true
  /// ```
  public static func between(_ old: JSONValue, _ new: JSONValue) -> StateDiff {
    var operations: [DiffOperation] = []
    var path: [PathComponent] = []
    diff(old, new, path: &path, into: &operations)
    return StateDiff(operations: operations)
  }

  /// Appends the operations that turn `old` into `new`, both found at `path`.
  private static func diff(
    _ old: JSONValue, _ new: JSONValue, path: inout [PathComponent], into operations: inout [DiffOperation]
  ) {
    guard old != new else { return }
    switch (old, new) {
    case let (.object(old), .object(new)):
      // Sorted keys make the diff of two given states always the same operations.
      for key in old.keys.sorted() where new[key] == nil {
        operations.append(.remove(path: path + [.key(key)]))
      }
      for key in new.keys.sorted() {
        path.append(.key(key))
        if let oldValue = old[key] {
          diff(oldValue, new[key]!, path: &path, into: &operations)
        } else {
          operations.append(.set(path: path, value: new[key]!))
        }
        path.removeLast()
      }
    case let (.array(old), .array(new)):
      // Keyed only when both sides have elements: from or to an empty array, one append or
      // truncate says it all.
      if !old.isEmpty, !new.isEmpty, let oldIDs = keyedIDs(old), let newIDs = keyedIDs(new) {
        keyedDiff(old, oldIDs, new, newIDs, path: &path, into: &operations)
      } else {
        indexedDiff(old, new, path: &path, into: &operations)
      }
    default:
      operations.append(.set(path: path, value: new))
    }
  }

  /// The ids of `array`'s elements, when every element has one and no two share one.
  private static func keyedIDs(_ array: [JSONValue]) -> [ElementID]? {
    var ids: [ElementID] = []
    ids.reserveCapacity(array.count)
    var seen = Set<ElementID>(minimumCapacity: array.count)
    for element in array {
      guard let id = ElementID(of: element), seen.insert(id).inserted else { return nil }
      ids.append(id)
    }
    return ids
  }

  private static func indexedDiff(
    _ old: [JSONValue], _ new: [JSONValue], path: inout [PathComponent], into operations: inout [DiffOperation]
  ) {
    for index in 0..<min(old.count, new.count) {
      path.append(.index(index))
      diff(old[index], new[index], path: &path, into: &operations)
      path.removeLast()
    }
    if new.count > old.count {
      operations.append(.append(path: path, values: Array(new[old.count...])))
    } else if new.count < old.count {
      operations.append(.truncate(path: path, count: new.count))
    }
  }

  private static func keyedDiff(
    _ old: [JSONValue], _ oldIDs: [ElementID], _ new: [JSONValue], _ newIDs: [ElementID],
    path: inout [PathComponent], into operations: inout [DiffOperation]
  ) {
    let oldPositions = Dictionary(uniqueKeysWithValues: zip(oldIDs, oldIDs.indices))
    let newIDSet = Set(newIDs)

    for id in oldIDs where !newIDSet.contains(id) {
      operations.append(.remove(path: path + [.id(id)]))
    }
    for (position, id) in newIDs.enumerated() {
      path.append(.id(id))
      if let oldPosition = oldPositions[id] {
        diff(old[oldPosition], new[position], path: &path, into: &operations)
      } else {
        // A `set` by id appends a new element; the moves below put it in its place.
        operations.append(.set(path: path, value: new[position]))
      }
      path.removeLast()
    }

    // The order after the removals and additions: the ids that stayed, in their old order,
    // then the new ones in their new order.
    let current = oldIDs.filter(newIDSet.contains) + newIDs.filter { oldPositions[$0] == nil }
    guard current != newIDs else { return }
    let newPositions = Dictionary(uniqueKeysWithValues: zip(newIDs, newIDs.indices))
    let staying = longestIncreasingRun(current.map { newPositions[$0]! })
    // The ids outside the longest run already in the new order are the fewest to move. Moving
    // them in their new order, each right after its new predecessor, works because that
    // predecessor is either in the run or already moved, so it is already where it belongs.
    for (position, id) in newIDs.enumerated() where !staying.contains(position) {
      let after = position == 0 ? nil : newIDs[position - 1]
      operations.append(.move(path: path + [.id(id)], after: after))
    }
  }

  /// The values of the longest strictly increasing subsequence of `values` (distinct values),
  /// in O(n log n) by patience sorting.
  static func longestIncreasingRun(_ values: [Int]) -> Set<Int> {
    // tails[k]: the index in `values` of the smallest value ending an increasing run of k + 1.
    var tails: [Int] = []
    var previous = [Int](repeating: -1, count: values.count)
    for (index, value) in values.enumerated() {
      var low = 0
      var high = tails.count
      while low < high {
        let middle = (low + high) / 2
        if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
      }
      if low > 0 { previous[index] = tails[low - 1] }
      if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    var run = Set<Int>(minimumCapacity: tails.count)
    var index = tails.last ?? -1
    while index >= 0 {
      run.insert(values[index])
      index = previous[index]
    }
    return run
  }
}
