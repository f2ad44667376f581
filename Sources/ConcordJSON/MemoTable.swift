import Foundation

/// What ``DecodeMemo`` and ``EncodeMemo`` keep: one entry for each type and id, at most
/// `capacity` of them, then none (the table starts afresh rather than choosing what to drop:
/// the next encode or decode fills it again with what is in use). Safe to use from any thread.
///
/// ```swift
/// let table = MemoTable<Int, String>(capacity: 2)
/// table.keep("card 7", type: Card.self, id: 7)
/// table.entry(type: Card.self, id: 7)   // "card 7"
/// ```
final class MemoTable<ID: Hashable, Entry>: @unchecked Sendable {
  // @unchecked: every access to `entries` holds `lock`.
  private let lock = NSLock()
  private var entries: [Key: Entry] = [:]
  private let capacity: Int

  private struct Key: Hashable {
    let type: ObjectIdentifier
    let id: ID
  }

  init(capacity: Int) {
    self.capacity = capacity
  }

  var count: Int { lock.withLock { entries.count } }

  func entry(type: Any.Type, id: ID) -> Entry? {
    lock.withLock { entries[Key(type: ObjectIdentifier(type), id: id)] }
  }

  func keep(_ entry: Entry, type: Any.Type, id: ID) {
    lock.withLock {
      let key = Key(type: ObjectIdentifier(type), id: id)
      // Full: afresh, unless the entry only replaces one kept under its key.
      if entries.count >= capacity, entries[key] == nil { entries.removeAll(keepingCapacity: true) }
      entries[key] = entry
    }
  }
}
