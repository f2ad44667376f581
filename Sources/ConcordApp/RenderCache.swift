import Foundation

/// What a renderer made of one element (a card's lines, a message's), kept for the next redraw:
/// a change to a big state usually changes one element of many, and the window redraws it all.
///
/// An entry is found by the element's id and used only while its input (the element and what
/// else its lines depend on) is equal to the one it was made from; comparing is much cheaper
/// than measuring and cutting text again. At most `capacity` entries are kept: past that the
/// cache starts afresh.
///
/// ```swift
/// static let cards = RenderCache<Int, CardInput, [Cell]>(capacity: 20_000)
/// let cells = cards.value(for: card.id, input: CardInput(card: card, width: width)) { render(card, width) }
/// ```
public final class RenderCache<ID: Hashable, Input: Equatable, Output>: @unchecked Sendable {
  // @unchecked: every access to `entries` holds `lock`.
  private let lock = NSLock()
  private var entries: [ID: (input: Input, output: Output)] = [:]
  private let capacity: Int

  public init(capacity: Int) {
    self.capacity = capacity
  }

  /// The output made for `input` under `id`, made now by `make` unless it was made before.
  public func value(for id: ID, input: Input, make: () -> Output) -> Output {
    lock.lock()
    if let entry = entries[id], entry.input == input {
      lock.unlock()
      return entry.output
    }
    lock.unlock()
    let output = make()
    lock.lock()
    if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
    entries[id] = (input, output)
    lock.unlock()
    return output
  }
}
