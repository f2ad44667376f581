import Foundation

/// A value decoded from a JSON object with an `"id"` member, which a ``DecodeMemo`` may keep:
/// a card of a board, a message of a channel.
public protocol MemoizedDecodable: Decodable {}

/// Values decoded before, by type and `"id"`, each with the JSON it was decoded from: the next
/// decode of equal JSON takes the value kept instead of decoding it again
/// (``JSONValue/decode(_:memo:)``).
///
/// The JSON is compared in full, so a kept value is used only for exactly the JSON it came from;
/// JSON that shares its storage with the one kept (as the parts a diff left alone do) compares
/// at once. At most `capacity` values are kept: past that the memo starts afresh.
///
/// ```swift
/// let memo = DecodeMemo()
/// let board = try json.decode(BoardView.self, memo: memo)   // every card decoded
/// let next = try changed.decode(BoardView.self, memo: memo) // only the card that changed
/// ```
public final class DecodeMemo: Sendable {
  private let table: MemoTable<TypedID<JSONValue>, [String: JSONValue], Any>

  public init(capacity: Int = 50_000) {
    table = MemoTable(capacity: capacity)
  }

  func value<T>(of type: T.Type, id: JSONValue, decodedFrom json: [String: JSONValue]) -> T? {
    guard let kept = table.kept(TypedID(type, id)), kept.input == json else { return nil }
    return kept.output as? T
  }

  func keep<T>(_ value: T, id: JSONValue, decodedFrom json: [String: JSONValue]) {
    table.keep(value, madeFrom: json, under: TypedID(T.self, id))
  }
}
