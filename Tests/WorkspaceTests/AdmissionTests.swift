import Foundation
import PropertyRandom
import Testing

@testable import Workspace
@testable import WorkspaceWindows

/// Every text a person gives Workspace is bounded in bytes as well as in characters: one
/// character a person sees may be any number of code points (a letter under a pile of accents),
/// so a limit in characters alone would let a 40-character label be megabytes.
@Suite struct AdmissionTests {
  /// `e` under `marks` combining acute accents (U+0301, two bytes of UTF-8 each): one character
  /// of 1 + 2 × marks bytes.
  static func piledUp(_ marks: Int) -> String { "e" + String(repeating: "\u{0301}", count: marks) }

  static func board(_ action: BoardAction) -> Workspace.Action { .board(Authored(user: "ann", at: Date(), action)) }
  static func chat(_ action: ChatAction) -> Workspace.Action { .chat(Authored(user: "ann", at: Date(), action)) }

  /// A control character in any text (an escape, a bell, a newline, a C1 control, a bidi
  /// override) would act on the terminal of everyone who sees it: new actions with one are
  /// refused, naming it; a description keeps its newlines and tabs; text without any passes,
  /// whatever its script.
  @Test func textWithControlCharactersIsRefused() {
    for control in ["\u{1B}[31m", "\u{07}", "\n", "\r", "\u{00}", "\u{7F}", "\u{9B}", "\u{85}", "\u{202E}", "\u{2028}"] {
      let text = "red" + control + "text"
      for action in [
        Self.board(.addCard(title: text, column: nil)), Self.board(.editCard(id: 1, title: text, description: nil)),
        Self.board(.label(id: 1, label: text)), Self.chat(.say(channel: "general", text: text)),
        Self.chat(.createChannel(name: text)), Self.board(.addColumn(name: text, limit: nil)),
      ] {
        let refusal = Workspace.admission(action)
        #expect(refusal?.contains("cannot hold control characters (it has <U+") == true, "\(control.debugDescription): \(refusal ?? "taken")")
      }
    }
    #expect(Workspace.admission(Self.board(.editCard(id: 1, title: nil, description: "line one\n\tline two"))) == nil)
    #expect(Workspace.admission(Self.board(.editCard(id: 1, title: nil, description: "bell\u{07}"))) != nil)
    #expect(Workspace.admission(Self.board(.addCard(title: "Ünïcödé 日本語 👩‍💻 café", column: nil))) == nil)
  }

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

  /// Every text of every action, at lengths around its bound, held to the rule as the README
  /// states it: a text of at most N characters is refused when its UTF-8 is more than 16 × N
  /// bytes; descriptions and labels also when they have more than N characters.
  @Test func everyTextIsBoundedInBytesAtItsEdge() {
    typealias Field = (name: String, characters: Int, countsCharacters: Bool, action: (String) -> Workspace.Action)
    let fields: [Field] = [
      ("a title", 200, false, { Self.board(.addCard(title: $0, column: nil)) }),
      ("a card's column", 40, false, { Self.board(.addCard(title: "t", column: $0)) }),
      ("an edited title", 200, false, { Self.board(.editCard(id: 1, title: $0, description: nil)) }),
      ("a description", 10_000, true, { Self.board(.editCard(id: 1, title: nil, description: $0)) }),
      ("a label", 40, true, { Self.board(.label(id: 1, label: $0)) }),
      ("a label taken off", 40, false, { Self.board(.unlabel(id: 1, label: $0)) }),
      ("a new column", 40, false, { Self.board(.addColumn(name: $0, limit: nil)) }),
      ("a renamed column", 40, false, { Self.board(.renameColumn(name: $0, to: "b")) }),
      ("a column's new name", 40, false, { Self.board(.renameColumn(name: "a", to: $0)) }),
      ("a moved column", 40, false, { Self.board(.moveColumn(name: $0, position: 1)) }),
      ("a limited column", 40, false, { Self.board(.limitColumn(name: $0, limit: 2)) }),
      ("a removed column", 40, false, { Self.board(.removeColumn(name: $0)) }),
      ("a card moved to", 40, false, { Self.board(.moveCard(id: 1, column: $0, position: nil)) }),
      ("an assignee", 40, false, { Self.board(.assign(id: 1, user: $0)) }),
      ("someone invited", 40, false, { Self.board(.invite(user: $0)) }),
      ("someone joining", 40, false, { Self.board(.join(user: $0)) }),
      ("a channel said in", 40, false, { Self.chat(.say(channel: $0, text: "hi")) }),
      ("a message", 2_000, false, { Self.chat(.say(channel: "general", text: $0)) }),
      ("an edited message", 2_000, false, { Self.chat(.edit(channel: "general", message: 1, text: $0)) }),
      ("a channel deleted in", 40, false, { Self.chat(.delete(channel: $0, message: 1)) }),
      ("a new channel", 40, false, { Self.chat(.createChannel(name: $0)) }),
    ]
    // One character each, of 1 to 41 bytes.
    let pieces = ["a", "\u{E9}", "e\u{301}", "字", "🇯🇵", "👩‍👩‍👧", Self.piledUp(20)]
    var refused = 0
    var taken = 0
    for seed in PropertyRandom.seeds(from: 0xAD_0000, count: 400) {
      var random = PropertyRandom(seed: seed)
      let field = random.pick(fields)
      let piece = random.pick(pieces)
      let bytesLimit = field.characters * 16
      // Around the byte limit: a piece fewer or more than fills it, or exactly at it.
      let fill = bytesLimit / piece.utf8.count
      var text = String(repeating: piece, count: max(0, fill + random.int(-1...1)))
      if random.chance(30) { text += String(repeating: "a", count: max(0, bytesLimit - text.utf8.count + random.int(0...1))) }
      let overBytes = Array(text.utf8).count > bytesLimit
      let overCharacters = field.countsCharacters && text.count > field.characters
      let refusal = Workspace.admission(field.action(text))
      #expect((refusal != nil) == (overBytes || overCharacters), "seed \(seed), \(field.name): \(text.utf8.count) bytes, \(text.count) characters: \(refusal ?? "taken")")
      if refusal == nil { taken += 1 } else { refused += 1 }
    }
    #expect(refused > 50 && taken > 50, "refused \(refused), taken \(taken)")
  }
}
