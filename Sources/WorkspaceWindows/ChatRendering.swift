import ConcordApp
import ConcordJSON
import Foundation
import Workspace

/// A channel as a conversation: time, author, text; mentions and linked cards stand out, and a
/// link shows its card's title.
enum ChatRendering {
  /// - Parameter context: messages an action still pending adds or changes are dimmed and
  ///   marked ◌; mentions of the window's person stand out.
  static func lines(_ channel: ChannelView, _ context: RenderContext<ChannelView>, palette: Palette, now: Date = Date()) -> [String] {
    let width = context.width
    let pending = context.pending(channel.messages, in: \.messages)
    var lines = [" " + palette.dim(TextFit.cut("channels: " + channel.channels.joined(separator: ", "), width - 1)), ""]
    if channel.messages.isEmpty { lines.append(" " + palette.dim("(no messages yet: type a line to say it)")) }
    let day = Calendar.current.startOfDay(for: now)
    for message in channel.messages {
      let input = MessageInput(
        message: message, width: width, titles: message.cards.map { channel.cards[String($0)] },
        known: message.mentions.map(channel.people.contains), you: context.user, pending: pending.contains(message.id),
        colored: palette.enabled, day: day)
      lines += messageLines.output(for: message.id, input: input) {
        Self.lines(of: message, channel: channel, you: context.user, pending: input.pending, width: width, palette: palette, now: now)
      }
    }
    return lines
  }

  /// What a message's lines depend on besides the message: the titles of the cards it links,
  /// which of the people it mentions joined, whose window it is, and the day (a time reads
  /// "17:05" today and "Fri 28 Nov 17:05" after).
  struct MessageInput: Equatable {
    let message: Message
    let width: Int
    let titles: [String?]
    let known: [Bool]
    let you: String?
    let pending: Bool
    let colored: Bool
    let day: Date
  }

  /// The lines of each message as last drawn: a new message redraws one of many.
  static let messageLines = MemoTable<Int, MessageInput, [String]>(capacity: 20_000)

  /// One message: its number, time and author, then its text wrapped beside them.
  static func lines(
    of message: Message, channel: ChannelView, you: String?, pending: Bool, width: Int, palette: Palette, now: Date
  ) -> [String] {
    let head = "\(DateText.time(message.at, now: now)) \(message.author)"
    let prefix = "\(message.id). "
    let margin = pending ? RenderContext<ChannelView>.pendingMark : " "
    guard !message.deleted else { return [margin + palette.dim(prefix + head + ": (deleted)")] }
    // A pending message may link a card the channel has not linked yet: its title comes with the
    // daemon's answer, and until then the card is not called missing.
    let text = linked(message.text, cards: channel.cards, missing: pending ? nil : "no such card")
    let indentCells = DisplayWidth.of(prefix) + DisplayWidth.of(head) + 2
    let wrapped = TextFit.wrap(text + (message.editedAt == nil ? "" : " (edited)"), max(10, width - 2 - indentCells))
    let indent = String(repeating: " ", count: indentCells)
    return wrapped.enumerated().map { index, line in
      if pending { return (index == 0 ? margin : " ") + palette.dim((index == 0 ? prefix + head + ": " : indent) + line) }
      let lead = index == 0 ? palette.dim(prefix) + palette.bold(head) + ": " : indent
      return " " + lead + highlight(line, people: channel.people, you: you, palette: palette)
    }
  }

  /// The text with each `#42` followed by its card's title: `#42 «Fix login»`; a card without
  /// one is followed by `missing`, or by nothing when that is nil.
  static func linked(_ text: String, cards: [String: String], missing: String? = "no such card") -> String {
    text.split(separator: " ", omittingEmptySubsequences: false).map { word in
      guard case let .card(number)? = Message.reference(in: word), let title = cards[String(number)] ?? missing else {
        return String(word)
      }
      return "\(word) «\(title)»"
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
