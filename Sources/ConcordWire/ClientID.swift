/// What a client id may be: 1 to 128 bytes of printable ASCII, no space (`0x21`–`0x7E`).
///
/// A client id is half of the key that makes a retry harmless, `(client, cseq)`, so it must be
/// the same string to everyone who compares it — Swift, SQLite, a C library, an auditor's
/// script. Printable ASCII has one spelling: no NUL to cut it, no control character, no two
/// byte sequences that Unicode calls the same text. The outbox's ids (`c-` and a UUID) are of
/// this form.
///
/// ```swift
/// ClientID.problem(with: "c-4f1e…")     // nil: a client id
/// ClientID.problem(with: "me\u{0}")     // "a client id is 1 to 128 bytes of printable ASCII …"
/// ```
public enum ClientID {
  /// The longest client id, in bytes.
  public static let maximumBytes = 128

  /// Why `id` is not a client id, in words; nil when it is one.
  public static func problem(with id: String) -> String? {
    let bytes = id.utf8
    let printable = bytes.allSatisfy { (0x21...0x7E).contains($0) }
    guard !bytes.isEmpty, bytes.count <= maximumBytes, printable else {
      return "a client id is 1 to \(maximumBytes) bytes of printable ASCII without spaces (0x21-0x7E); this one is \(bytes.count) bytes"
        + (printable || bytes.isEmpty ? "" : " and holds other characters")
    }
    return nil
  }
}
