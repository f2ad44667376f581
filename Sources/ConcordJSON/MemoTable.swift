import Synchronization

/// What a memo keeps, for every memo of the codebase (the daemon's encodes, a window's decodes
/// and renderings, an outbox's opened actions): under each key, the input an output was made
/// from and that output; at most `capacity` keys, then none — the table starts afresh rather
/// than choosing what to drop, and the next use fills it again with what is in use. Safe to use
/// from any thread.
///
/// A kept output is used only for an input its user judges the same (``output(for:input:make:)``
/// compares with `==`). Swift's `String ==` is canonical equivalence, so a memo whose inputs hold
/// text keeps one output for an NFC text and its NFD twin: the wire's text is NFC before it is
/// kept (``UnicodeText``), and a memo for text of another source must compare its bytes.
///
/// ```swift
/// let cards = MemoTable<Int, CardInput, [Cell]>(capacity: 20_000)
/// let cells = cards.output(for: card.id, input: CardInput(card: card, width: width)) { render(card, width) }
/// ```
public final class MemoTable<Key: Hashable, Input, Output>: Sendable {
  private struct Entry {
    let input: Input
    let output: Output
  }

  /// The entries by key. @unchecked: they are only ever reached under the table's mutex, and
  /// what they hold are values their makers handed over.
  private struct Entries: @unchecked Sendable {
    var byKey: [Key: Entry] = [:]
  }

  private let entries = Mutex(Entries())
  /// The most keys kept before the table starts afresh.
  public let capacity: Int

  /// - Parameter capacity: the most keys kept before the table starts afresh.
  public init(capacity: Int) {
    self.capacity = capacity
  }

  /// How many keys are kept.
  public var count: Int { entries.withLock { $0.byKey.count } }

  /// What is kept under `key`: the input its output was made from, and the output.
  public func kept(_ key: Key) -> (input: Input, output: Output)? {
    entries.withLock { $0.byKey[key].map { ($0.input, $0.output) } }
  }

  /// Keeps `output`, made from `input`, under `key`, replacing what was kept there. A full
  /// table starts afresh first, unless the key only replaces one it holds.
  public func keep(_ output: Output, madeFrom input: Input, under key: Key) {
    let entry = Entry(input: input, output: output)
    entries.withLock { entries in
      if entries.byKey.count >= capacity, entries.byKey[key] == nil { entries.byKey.removeAll(keepingCapacity: true) }
      entries.byKey[key] = entry
    }
  }

  /// Forgets everything kept.
  public func removeAll() {
    entries.withLock { $0.byKey.removeAll(keepingCapacity: true) }
  }
}

extension MemoTable where Input: Equatable {
  /// The output kept under `key` when it was made from an input `==` to `input`; otherwise the
  /// one `make` makes now, which is kept.
  public func output(for key: Key, input: Input, make: () throws -> Output) rethrows -> Output {
    if let kept = kept(key), kept.input == input { return kept.output }
    let output = try make()
    keep(output, madeFrom: input, under: key)
    return output
  }
}

/// A memo's key for values of many types: the type, and the value's id within it.
struct TypedID<ID: Hashable>: Hashable {
  let type: ObjectIdentifier
  let id: ID

  init(_ type: Any.Type, _ id: ID) {
    self.type = ObjectIdentifier(type)
    self.id = id
  }
}
