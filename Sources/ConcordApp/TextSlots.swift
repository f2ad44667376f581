import ConcordWire

/// The place a text has in ``TextSlots``, and whether it was put there just now.
public struct TextSlot: Sendable, Equatable {
  /// The slot's number: where its decoded action is kept.
  public let index: Int
  /// True when the text was filed just now: it must be parsed and decoded; false when the same
  /// text was met before and its action can be taken from the memo.
  public let isNew: Bool
}

/// The texts (with the app and version that wrote them) a boot's reading thread has seen
/// lately, each in a numbered slot: a log repeats many texts — a counter's increment, a presence
/// change — and the same text of the same version always decodes to the same action.
///
/// The reading thread hashes each text once, here; the thread that decodes keeps each slot's
/// action by number in a ``LoggedActionMemo`` and hashes nothing. Both see the entries in the same
/// order, so a slot that is not new holds, on the decoding side, the action of its text. Past
/// `capacity` texts the slots start afresh, and a slot number is new again.
///
/// Filing pays only where texts repeat. Each round of `capacity` filings counts how many found
/// their text filed; after a round where fewer than one in 16 did, the next `7 × capacity`
/// entries are not filed (no slot: parsed, and decoded on their own), then filing is tried again.
/// A log where every text is its own costs an eighth of the filing.
public final class TextSlots: @unchecked Sendable {
  // @unchecked: owned by the one thread that reads the log.
  /// The text by spelling, not by Swift's `==`: an action decoded from an NFC text is not the
  /// one its NFD twin (in a log from before texts were put in NFC) decodes to.
  private struct Key: Hashable {
    let app: String
    let appVersion: Int
    let text: SpelledText
  }

  private var slots: [Key: Int] = [:]
  private let capacity: Int
  /// This round's filings, and how many of them found their text filed.
  private var filings = 0
  private var found = 0
  /// Entries still to pass unfiled.
  private var resting = 0

  /// Slots for the latest `capacity` distinct texts.
  ///
  /// - Parameter capacity: how many texts to remember; the oldest are forgotten beyond it.
  public init(capacity: Int = 4_096) { self.capacity = max(1, capacity) }

  /// The slot of `entry`'s text, filed now if it was not there; nil while filing rests.
  public func slot(for entry: LoggedAction) -> TextSlot? {
    if resting > 0 {
      resting -= 1
      return nil
    }
    filings += 1
    if filings == capacity {
      if found * 16 < capacity { resting = 7 * capacity }
      (filings, found) = (0, 0)
    }
    let key = Key(app: entry.app, appVersion: entry.appVersion, text: SpelledText(entry.action))
    if let index = slots[key] {
      found += 1
      return TextSlot(index: index, isNew: false)
    }
    if slots.count >= capacity { slots.removeAll(keepingCapacity: true) }
    let index = slots.count
    slots[key] = index
    return TextSlot(index: index, isNew: true)
  }
}

/// The actions decoded in one replay, by the slot the reading thread gave their text
/// (``TextSlots``): a text decoded before is not decoded again.
public final class LoggedActionMemo<Action> {
  /// Nil for a slot whose text did not decode: it is decoded (and fails) every time.
  private var actions: [Action?] = []

  /// An empty memo, for one replay.
  public init() {}

  /// The action kept in `slot`, or what `decode` makes of it, kept there.
  func action(in slot: TextSlot, decode: () throws(BootError) -> Action) throws(BootError) -> Action {
    if slot.index >= actions.count { actions.append(contentsOf: repeatElement(nil, count: slot.index + 1 - actions.count)) }
    if !slot.isNew, let kept = actions[slot.index] { return kept }
    actions[slot.index] = nil
    let action = try decode()
    actions[slot.index] = action
    return action
  }
}
