import Workspace
import ConcordApp
import Foundation

/// A channel as a conversation: time, author, text; mentions and linked cards stand out, and a
/// link shows its card's title.
enum ChatRendering {
  static func lines(_ channel: ChannelView, width: Int, palette: Palette, now: Date = Date()) -> [String] {
    var lines = [" " + palette.dim(TextFit.cut("channels: " + channel.channels.joined(separator: ", "), width - 1)), ""]
    if channel.messages.isEmpty { lines.append(" " + palette.dim("(no messages yet: type `say hello`)")) }
    for message in channel.messages {
      let head = "\(DateText.time(message.at, now: now)) \(message.author)"
      let prefix = "\(message.id). "
      guard !message.deleted else {
        lines.append(" " + palette.dim(prefix + head + ": (deleted)"))
        continue
      }
      let text = linked(message.text, cards: channel.cards)
      let wrapped = TextFit.wrap(text + (message.editedAt == nil ? "" : " (edited)"), max(10, width - 2 - DisplayWidth.of(head) - DisplayWidth.of(prefix) - 2))
      for (index, line) in wrapped.enumerated() {
        let lead = index == 0 ? palette.dim(prefix) + palette.bold(head) + ": " : String(repeating: " ", count: DisplayWidth.of(prefix) + DisplayWidth.of(head) + 2)
        lines.append(" " + lead + highlight(line, people: channel.people, palette: palette))
      }
    }
    return lines
  }

  /// The text with each `#42` followed by its card's title: `#42 «Fix login»`.
  static func linked(_ text: String, cards: [String: String]) -> String {
    text.split(separator: " ", omittingEmptySubsequences: false).map { word in
      guard case let .card(number)? = Message.reference(in: word) else { return String(word) }
      return "\(word) «\(cards[String(number)] ?? "no such card")»"
    }.joined(separator: " ")
  }

  /// Mentions of people who joined in magenta, card links in cyan.
  static func highlight(_ line: String, people: [String], palette: Palette) -> String {
    line.split(separator: " ", omittingEmptySubsequences: false).map { word in
      switch Message.reference(in: word) {
      case let .mention(name)? where people.contains(name): palette.magenta(String(word))
      case .card?: palette.cyan(String(word))
      default: String(word)
      }
    }.joined(separator: " ")
  }
}
