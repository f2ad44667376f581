import Foundation

/// A value whose JSON an ``EncodeMemo`` may keep, by its type and ``memoKey``, while the value
/// stays equal: an element of a large state that changes one element at a time (a card of a
/// board, a message of a channel, a line of a feed).
///
/// Equal values must encode alike, as they do when `==` compares every stored property (what
/// the compiler derives) and `encode(to:)` reads nothing but them. Only value types: the memo
/// keeps the value it encoded, and a class instance changed in place would still be `==` the
/// one kept.
///
/// ```swift
/// extension Card: MemoizedEncodable {}                                   // filed by its id
/// extension FeedLine: MemoizedEncodable { var memoKey: Self { self } }   // no id: by itself
/// ```
public protocol MemoizedEncodable: Encodable, Equatable {
  associatedtype MemoKey: Hashable
  /// What the value's JSON is filed under: its id, for a value that has one.
  var memoKey: MemoKey { get }
}

extension MemoizedEncodable where Self: Identifiable {
  public var memoKey: ID { id }
}

/// JSON encoded before, by type and id, each with the value it was encoded from: the next
/// encode of an equal value takes the JSON kept instead of encoding it again
/// (``JSONValue/init(encoding:memo:)``).
///
/// The daemon encodes a changed scope's whole state after every action (to hold it to the line
/// limit, and to diff it for the windows); an edit of one card leaves the others as they were,
/// and their JSON kept here is the very storage the last state's was, which a diff then passes
/// over at once. At most `capacity` values are kept: past that the memo starts afresh.
///
/// ```swift
/// let memo = EncodeMemo()
/// let board = try JSONValue(encoding: state.board, memo: memo)   // every card encoded
/// let next = try JSONValue(encoding: edited.board, memo: memo)   // only the edited card
/// ```
public final class EncodeMemo: Sendable {
  private let table: MemoTable<TypedID<AnyHashable>, Any, JSONValue>

  public init(capacity: Int = 50_000) {
    table = MemoTable(capacity: capacity)
  }

  /// How many values are kept.
  public var count: Int { table.count }

  func json<T: MemoizedEncodable>(for value: T) -> JSONValue? {
    guard let kept = table.kept(TypedID(T.self, AnyHashable(value.memoKey))), let input = kept.input as? T, input == value else {
      return nil
    }
    return kept.output
  }

  func keep<T: MemoizedEncodable>(_ json: JSONValue, for value: T) {
    table.keep(json, madeFrom: value, under: TypedID(T.self, AnyHashable(value.memoKey)))
  }
}
