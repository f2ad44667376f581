import Foundation
import Testing

@testable import Workspace

/// Every text a person gives Workspace is bounded in bytes as well as in characters: one
/// character a person sees may be any number of code points (a letter under a pile of accents),
/// so a limit in characters alone would let a 40-character label be megabytes.
@Suite struct AdmissionTests {
  /// `e` under `marks` combining acute accents (U+0301, two bytes of UTF-8 each): one character
  /// of 1 + 2 × marks bytes.
  static func piledUp(_ marks: Int) -> String { "e" + String(repeating: "\u{0301}", count: marks) }

  static func board(_ action: BoardAction) -> Workspace.Action { .board(Authored(user: "ann", at: Date(), action)) }
  static func chat(_ action: ChatAction) -> Workspace.Action { .chat(Authored(user: "ann", at: Date(), action)) }

  @Test func aFewCharactersOfManyBytesAreRefusedAndOrdinaryTextIsNot() {
    // Ten characters of 201 bytes each: within 40 characters, past 40 × 16 bytes.
    let heavy = String(repeating: Self.piledUp(100), count: 10)
    #expect(heavy.count == 10 && heavy.utf8.count == 2_010)
    let refusal = Workspace.admission(Self.board(.label(id: 1, label: heavy)))
    #expect(refusal?.contains("640 bytes") == true, "\(refusal ?? "nil")")
    #expect(Workspace.admission(Self.board(.addColumn(name: heavy, limit: nil)))?.contains("bytes") == true)
    #expect(Workspace.admission(Self.board(.invite(user: heavy)))?.contains("bytes") == true)
    #expect(Workspace.admission(Self.chat(.createChannel(name: heavy)))?.contains("bytes") == true)

    // What people write passes: 40 ASCII characters, 200 emoji of four bytes, a family emoji.
    #expect(Workspace.admission(Self.board(.label(id: 1, label: String(repeating: "a", count: 40)))) == nil)
    #expect(Workspace.admission(Self.board(.addCard(title: String(repeating: "😀", count: 200), column: nil))) == nil)
    #expect(Workspace.admission(Self.chat(.say(channel: "general", text: String(repeating: "👨‍👩‍👧‍👦", count: 100)))) == nil)

    // A message: 2,000 characters of at most 16 bytes each, 32,000 bytes.
    let longMessage = String(repeating: Self.piledUp(50), count: 400)  // 400 × 101 bytes
    #expect(longMessage.utf8.count == 40_400)
    #expect(Workspace.admission(Self.chat(.say(channel: "general", text: longMessage)))?.contains("32,000 bytes") == true)
    #expect(Workspace.admission(Self.chat(.say(channel: "general", text: String(longMessage.prefix(300))))) == nil)
  }
}
