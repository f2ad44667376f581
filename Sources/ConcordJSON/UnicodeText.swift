import Foundation

/// One spelling for each text: Unicode Normalization Form C.
///
/// Swift compares strings by canonical equivalence (`"é"` precomposed equals `"e"` with a
/// combining accent), while SQLite, hashes, keyed caches and every other program compare bytes.
/// A text that crosses from one to the other in two spellings would be one thing to the reducer
/// and two to the log, or a change to one side and none to the other. So every text a peer
/// sends is put in NFC as it is read, before anything compares it: from then on, canonically
/// equivalent texts are the same bytes, and the two ways of comparing agree.
///
/// ```swift
/// "cafe\u{301}".nfc.utf8.count    // 5: "caf\u{E9}"
/// ```
extension String {
  /// This text in Normalization Form C; itself, without copying, when it is ASCII.
  public var nfc: String {
    if utf8.allSatisfy({ $0 < 0x80 }) { return self }
    return precomposedStringWithCanonicalMapping
  }
}

extension String {
  /// The text `bytes` hold, or nil when they are not valid UTF-8.
  ///
  /// ASCII is valid UTF-8 as it is, and nearly every text read (every key) is ASCII: the
  /// standard `String(validating:as:)` runs unspecialised from here, about 900 instructions a
  /// text before it reads a byte (callgrind), so it is asked only about the rest.
  ///
  /// ```swift
  /// [0x63, 0xC3, 0xA9].withUnsafeBufferPointer { String(validatingUTF8Bytes: $0) }   // "cé"
  /// ```
  public init?(validatingUTF8Bytes bytes: UnsafeBufferPointer<UInt8>) {
    if !bytes.contains(where: { $0 >= 0x80 }) {
      self = String(decoding: bytes, as: UTF8.self)
      return
    }
    guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
    self = text
  }
}

extension JSONValue {
  /// The same JSON with every string and object key in Normalization Form C; itself, without
  /// copying, when all its text is ASCII (nearly every action).
  public var nfc: JSONValue { isASCII ? self : normalized }

  private var normalized: JSONValue {
    switch self {
    case .null, .bool, .integer, .number: self
    case let .string(text): .string(text.nfc)
    case let .array(elements): .array(elements.map(\.normalized))
    case let .object(members):
      .object(Dictionary(members.map { ($0.key.nfc, $0.value.normalized) }, uniquingKeysWith: { first, _ in first }))
    }
  }

  private var isASCII: Bool {
    switch self {
    case .null, .bool, .integer, .number: true
    case let .string(text): text.utf8.allSatisfy { $0 < 0x80 }
    case let .array(elements): elements.allSatisfy(\.isASCII)
    case let .object(members): members.allSatisfy { $0.key.utf8.allSatisfy { $0 < 0x80 } && $0.value.isASCII }
    }
  }
}

/// A text compared and hashed by its UTF-8 bytes — its spelling — not by canonical equivalence:
/// the key of a cache whose value depends on the exact text. Keyed by `String`, an NFD text
/// would find what was kept for its NFC twin (a replayed action, with the other spelling in it).
///
/// ```swift
/// SpelledText("caf\u{E9}") == SpelledText("cafe\u{301}")   // false; as Strings, true
/// ```
public struct SpelledText: Hashable, Sendable {
  public let text: String

  public init(_ text: String) { self.text = text }

  /// Byte for byte, at the speed of `memcmp`: a set of a boot's texts compares many that share a
  /// long prefix (`{"counter":{"add":{"amount":`), and a generic walk of two `UTF8View`s cost
  /// about 20 instructions a byte.
  public static func == (a: SpelledText, b: SpelledText) -> Bool {
    let (x, y) = (a.text.utf8, b.text.utf8)
    guard x.count == y.count else { return false }
    let compared = x.withContiguousStorageIfAvailable { x in
      y.withContiguousStorageIfAvailable { y in x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
    }
    return (compared ?? nil) ?? x.elementsEqual(y)
  }

  public func hash(into hasher: inout Hasher) {
    var text = text
    text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}
