import ConcordWire
import Foundation

/// The words after a command's own, split at spaces; quotes at the start of a word keep its
/// spaces (`add "Fix login" to doing`), and an apostrophe inside a word is just a letter.
public struct CommandWords: Sendable {
  /// Every word, quotes removed: `["Fix login", "to", "doing"]`.
  public let all: [String]
  /// The text after the command's word, as typed: for free text such as a message.
  public let raw: String

  init(_ all: [String], raw: String? = nil) {
    self.all = all
    self.raw = raw ?? all.joined(separator: " ")
  }

  /// Splits `text`; `raw` becomes what follows the first word, as typed.
  init(_ text: String) {
    var words: [String] = []
    var current = ""
    var quote: Character?
    var inWord = false
    var afterFirstWord = text.endIndex
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      let next = text.index(after: index)
      let atWordEnd = next == text.endIndex || text[next].isWhitespace
      if let open = quote {
        if character == open, atWordEnd { quote = nil } else { current.append(character) }
      } else if character == "\"" || character == "'", !inWord {
        quote = character
        inWord = true
      } else if character.isWhitespace {
        if inWord {
          words.append(current)
          if words.count == 1 { afterFirstWord = index }
        }
        current = ""
        inWord = false
      } else {
        current.append(character)
        inWord = true
      }
      index = next
    }
    if inWord { words.append(current) }
    all = words
    raw = String(text[afterFirstWord...].drop { $0.isWhitespace })
  }

  /// The words after the first, with the text after the first word.
  var droppingFirst: CommandWords { CommandWords(Array(all.dropFirst()), raw: raw) }

  /// These words without `filler` at `index` (any case), where people add it for the sentence's
  /// sake: `move 2 to done` is `move 2 done`.
  public func without(_ filler: String, at index: Int) -> CommandWords {
    guard index < all.count, all[index].lowercased() == filler else { return self }
    var kept = all
    kept.remove(at: index)
    return CommandWords(kept, raw: raw)
  }

  /// The word at `index`.
  public func word(_ index: Int, _ what: String = "a word") throws -> String {
    guard index < all.count else { throw CommandError("\(what) is missing") }
    return all[index]
  }

  /// The word at `index` as an integer: any `Int`, since integers reach the daemon exactly;
  /// one past `Int` is too large.
  public func integer(_ index: Int, _ what: String = "a number") throws -> Int {
    let text = try word(index, what)
    guard let value = Int(text) else {
      // One sign, then digits: a whole number, only past `Int`.
      let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : text[...]
      if !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) {
        throw CommandError("\(what) is too large: \(text)")
      }
      throw CommandError("\(what) must be a number, not \"\(text)\"")
    }
    return value
  }

  /// The words from `index` on, joined by spaces.
  public func rest(from index: Int, _ what: String = "text") throws -> String {
    guard index < all.count else { throw CommandError("\(what) is missing") }
    return all[index...].joined(separator: " ")
  }
}
