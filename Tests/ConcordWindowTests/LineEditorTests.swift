import ConcordWindow
import PropertyRandom
import Testing

/// The command line edits as a shell's does.
@Suite struct LineEditorTests {
  static func typing(_ text: String, into editor: inout LineEditor) {
    for character in text { editor.handle(.character(character)) }
  }

  @Test func aMistypedWordIsFixedWithTheCursorAndTheLineIsSubmittedWhole() {
    var editor = LineEditor()
    Self.typing("move 1 dxing", into: &editor)
    for _ in 0..<3 { editor.handle(.left) }
    editor.handle(.backspace)
    Self.typing("o", into: &editor)
    #expect(editor.text == "move 1 doing" && editor.cursor == 9)
    #expect(editor.handle(.enter) == .submitted("move 1 doing"))
    #expect(editor.text.isEmpty && editor.history == ["move 1 doing"])
  }

  @Test func wordsAndEndsAreOneKeyAway() {
    var editor = LineEditor()
    Self.typing("assign 2 bob", into: &editor)
    editor.handle(.alt("b"))
    #expect(editor.cursor == 9)
    editor.handle(.alt("b"))
    #expect(editor.cursor == 7)
    editor.handle(.alt("f"))
    #expect(editor.cursor == 8)
    editor.handle(.control("k"))
    #expect(editor.text == "assign 2")
    editor.handle(.control("w"))
    #expect(editor.text == "assign ")
    editor.handle(.control("a"))
    Self.typing("un", into: &editor)
    #expect(editor.text == "unassign " && editor.cursor == 2)
    editor.handle(.control("u"))
    #expect(editor.text == "assign " && editor.cursor == 0)
    editor.handle(.end)
    #expect(editor.cursor == 7)
  }

  @Test func theHistoryIsWalkedWithTheArrowsAndSearchedWithCtrlR() {
    var editor = LineEditor(history: ["add Fix login", "move 1 doing", "label 1 urgent"])
    Self.typing("half typed", into: &editor)
    editor.handle(.up)
    #expect(editor.text == "label 1 urgent")
    editor.handle(.up)
    editor.handle(.up)
    editor.handle(.up)
    #expect(editor.text == "add Fix login")
    editor.handle(.down)
    editor.handle(.down)
    editor.handle(.down)
    #expect(editor.text == "half typed", "the line being typed comes back below the newest")

    editor.handle(.control("u"))
    editor.handle(.control("r"))
    Self.typing("1", into: &editor)
    #expect(editor.search == "1" && editor.text == "label 1 urgent")
    editor.handle(.control("r"))
    #expect(editor.text == "move 1 doing", "Ctrl-R again: an older match")
    editor.handle(.right)
    #expect(editor.search == nil && editor.text == "move 1 doing", "an editing key takes the match")
    editor.handle(.control("r"))
    Self.typing("zzz", into: &editor)
    editor.handle(.escape)
    #expect(editor.search == nil && editor.text == "move 1 doing", "Esc puts the line back")
  }

  @Test func theHistoryKeepsOneOfEachRepeatAndItsLimit() {
    var editor = LineEditor(history: (1...600).map { "line \($0)" })
    #expect(editor.history.count == LineEditor.historyLimit && editor.history.first == "line 101")
    Self.typing("line 600", into: &editor)
    editor.handle(.enter)
    #expect(editor.history.count == LineEditor.historyLimit && editor.history.last == "line 600")
    editor.handle(.enter)
    #expect(editor.history.last == "line 600", "an empty line is not kept")
  }

  /// Against a model: the line as an array of characters and a cursor, each key's rule written
  /// out plainly; characters include emoji, accents and CJK, each one character.
  @Test func randomEditingAgreesWithAPlainModel() {
    let alphabet: [Character] = ["a", "b", " ", "é", "e\u{301}", "日", "👩\u{200D}💻", "🇯🇵", "-"]
    let keys: [Key] = [.left, .right, .home, .end, .backspace, .delete, .control("w"), .control("k"), .control("u"), .alt("b"), .alt("f")]
    for seed in PropertyRandom.seeds(from: 0x11E0_0000, count: 200) {
      var random = PropertyRandom(seed: seed)
      var editor = LineEditor()
      var text: [Character] = []
      var cursor = 0
      for _ in 0..<60 {
        let key: Key = random.chance(50) ? .character(random.pick(alphabet)) : random.pick(keys)
        editor.handle(key)
        func start() -> Int {
          var index = cursor
          while index > 0, text[index - 1] == " " { index -= 1 }
          while index > 0, text[index - 1] != " " { index -= 1 }
          return index
        }
        switch key {
        case let .character(character):
          text.insert(character, at: cursor)
          cursor += 1
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(text.count, cursor + 1)
        case .home: cursor = 0
        case .end: cursor = text.count
        case .backspace where cursor > 0:
          text.remove(at: cursor - 1)
          cursor -= 1
        case .delete where cursor < text.count: text.remove(at: cursor)
        case .control("w"):
          let from = start()
          text.removeSubrange(from..<cursor)
          cursor = from
        case .control("k"): text.removeSubrange(cursor...)
        case .control("u"):
          text.removeSubrange(..<cursor)
          cursor = 0
        case .alt("b"): cursor = start()
        case .alt("f"):
          while cursor < text.count, text[cursor] == " " { cursor += 1 }
          while cursor < text.count, text[cursor] != " " { cursor += 1 }
        default: break
        }
        #expect(editor.characters == text && editor.cursor == cursor, "seed \(seed) after \(key)")
      }
    }
  }
}
