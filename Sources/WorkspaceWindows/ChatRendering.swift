import Workspace
import ConcordApp
import Foundation

/// A channel as a conversation: time, author, text; mentions and linked cards stand out, and a
/// link shows its card's title.
enum ChatRendering {
  /// - Parameter context: messages an action still pending adds or changes are dimmed and
  ///   marked ◌; mentions of the window's person stand out.
  static func lines(_ channel: ChannelView, _ context: RenderContext<ChannelView>, palette: Palette, now: Date = Date()) -> [String] {
    let width = context.width
    let pending = context.pending(channel.messages, in: \.messages)
    var lines = [" " + palette.dim(TextFit.cut("channels: " + channel.channels.joined(separator: ", "), width - 1)), ""]
    if channel.messages.isEmpty { lines.append(" " + palette.dim("(no messages yet: type `say hello`)")) }
    for message in channel.messages {
      let head = "\(DateText.time(message.at, now: now)) \(message.author)"
      let prefix = "\(message.id). "
      let margin = pending.contains(message.id) ? RenderContext<ChannelView>.pendingMark : " "
      guard !message.deleted else {
        lines.append(margin + palette.dim(prefix + head + ": (deleted)"))
        continue
      }
      let text = linked(message.text, cards: channel.cards)
      let wrapped = TextFit.wrap(text + (message.editedAt == nil ? "" : " (edited)"), max(10, width - 2 - DisplayWidth.of(head) - DisplayWidth.of(prefix) - 2))
      for (index, line) in wrapped.enumerated() {
        let indent = String(repeating: " ", count: DisplayWidth.of(prefix) + DisplayWidth.of(head) + 2)
        if pending.contains(message.id) {
          lines.append((index == 0 ? margin : " ") + palette.dim((index == 0 ? prefix + head + ": " : indent) + line))
          continue
        }
        let lead = index == 0 ? palette.dim(prefix) + palette.bold(head) + ": " : indent
        lines.append(" " + lead + highlight(line, people: channel.people, you: context.user, palette: palette))
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

  /// Mentions of `you` in reverse yellow, of other people who joined in magenta, card links in
  /// cyan; the punctuation around a reference (`@bob,` `(#42)`) is left as it is.
  static func highlight(_ line: String, people: [String], you: String?, palette: Palette) -> String {
    line.split(separator: " ", omittingEmptySubsequences: false).map { word in
      let style: ((String) -> String)?
      switch Message.reference(in: word) {
      case let .mention(name)? where name == you: style = palette.mention
      case let .mention(name)? where people.contains(name): style = palette.magenta
      case .card?: style = palette.cyan
      default: style = nil
      }
      guard let style else { return String(word) }
      let core = Message.trimmingPunctuation(word)
      guard let range = word.range(of: core) else { return style(String(word)) }
      return String(word[..<range.lowerBound]) + style(core) + String(word[range.upperBound...])
    }.joined(separator: " ")
  }
}
