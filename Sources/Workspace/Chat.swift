import Concord
import Foundation
import IdentifiedCollections

/// Chat: channels of messages, with mentions (`@bob`) and links to cards (`#42`).
public struct Chat: Codable, Equatable, Sendable {
  public var channels: IdentifiedArrayOf<Channel>

  public init(channels: [String] = ["general"]) {
    self.channels = IdentifiedArray(uniqueElements: channels.map { Channel(id: $0) })
  }
}

/// One channel; its id is its name.
public struct Channel: Codable, Equatable, Sendable, Identifiable {
  public var id: String
  public var messages: IdentifiedArrayOf<Message>
  public var nextMessageID: Int

  public init(id: String) {
    self.id = id
    self.messages = []
    self.nextMessageID = 1
  }
}

/// A message. A deleted message keeps its place, without its text.
public struct Message: Codable, Equatable, Sendable, Identifiable {
  public var id: Int
  public var author: String
  public var at: Date
  public var text: String
  public var editedAt: Date?
  public var deleted: Bool
  /// The people named with `@`, in order.
  public var mentions: [String]
  /// The cards linked with `#`, in order.
  public var cards: [Int]

  public init(id: Int, author: String, at: Date, text: String) {
    self.id = id
    self.author = author
    self.at = at
    self.text = text
    self.editedAt = nil
    self.deleted = false
    (self.mentions, self.cards) = Message.references(in: text)
  }

  /// The `@names` and `#numbers` a text refers to.
  public static func references(in text: String) -> (mentions: [String], cards: [Int]) {
    var mentions: [String] = []
    var cards: [Int] = []
    for word in text.split(whereSeparator: { $0.isWhitespace }) {
      switch reference(in: word) {
      case let .mention(name)? where !mentions.contains(name): mentions.append(name)
      case let .card(number)? where !cards.contains(number): cards.append(number)
      default: continue
      }
    }
    return (mentions, cards)
  }

  /// The punctuation around a reference (`@bob,` `(#42)`), taken off scalar by scalar as
  /// Foundation's `trimmingCharacters(in:)` would — without making a character set for every
  /// word of every message.
  static let punctuation: Set<Unicode.Scalar> = [".", ",", ";", ":", "!", "?", "(", ")", "\"", "'"]

  public static func trimmingPunctuation(_ word: Substring) -> String {
    let scalars = word.unicodeScalars
    guard let first = scalars.firstIndex(where: { !punctuation.contains($0) }) else { return "" }
    let last = scalars.lastIndex(where: { !punctuation.contains($0) })!
    return String(String.UnicodeScalarView(scalars[first...last]))
  }

  /// What one word of a message refers to: `@bob`, `#42` (punctuation around it aside).
  public enum Reference: Equatable, Sendable {
    case mention(String)
    case card(Int)
  }

  /// The reference one word makes, if any: the one rule for what a message links to and what a
  /// window shows as a link.
  public static func reference(in word: Substring) -> Reference? {
    let trimmed = trimmingPunctuation(word)
    if trimmed.hasPrefix("@"), trimmed.count > 1 { return .mention(String(trimmed.dropFirst())) }
    if trimmed.hasPrefix("#"), let number = Card.number(trimmed) { return .card(number) }
    return nil
  }
}

/// What people do in chat.
public enum ChatAction: Codable, Equatable, Sendable {
  case say(channel: String, text: String)
  /// Changes the text of one of your own messages.
  case edit(channel: String, message: Int, text: String)
  /// Deletes one of your own messages.
  case delete(channel: String, message: Int)
  case createChannel(name: String)
}

extension Chat {
  public static let messageLimit = 2000

  public static let reducer = Reducer<Chat, Authored<ChatAction>, Void> { chat, authored, _ in
    let (user, at) = (authored.user, authored.at)
    switch authored.action {
    case let .say(channel, text):
      let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
      if let refusal = textRefusal(text) { return .refuse(refusal) }
      guard let id = chat.channels[id: channel]?.nextMessageID else { return .refuse(noChannel(channel)) }
      chat.channels[id: channel]?.messages.append(Message(id: id, author: user, at: at, text: text))
      chat.channels[id: channel]?.nextMessageID += 1

    case let .edit(channel, id, text):
      let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
      if let refusal = textRefusal(text) { return .refuse(refusal) }
      return chat.changeOwnMessage(id, in: channel, by: user, doing: "edit") { message in
        message.text = text
        message.editedAt = at
        (message.mentions, message.cards) = Message.references(in: text)
      }

    case let .delete(channel, id):
      return chat.changeOwnMessage(id, in: channel, by: user, doing: "delete") { message in
        message.text = ""
        message.deleted = true
        message.mentions = []
        message.cards = []
      }

    case let .createChannel(name):
      guard Board.isValidName(name) else { return .refuse("a channel's name is one word: letters, digits, - or _") }
      guard chat.channels[id: name] == nil else { return .refuse("there is already a channel \(name)") }
      chat.channels.append(Channel(id: name))
    }
    return .none
  }

  mutating func changeOwnMessage(
    _ id: Int, in channel: String, by user: String, doing verb: String, _ change: (inout Message) -> Void
  ) -> Effect<Authored<ChatAction>> {
    guard channels[id: channel] != nil else { return .refuse(Self.noChannel(channel)) }
    guard var message = channels[id: channel]?.messages[id: id] else {
      return .refuse("there is no message \(id) in \(channel)")
    }
    guard message.author == user else {
      return .refuse("you can only \(verb) your own messages; message \(id) is \(message.author)'s")
    }
    guard !message.deleted else { return .refuse("message \(id) was deleted") }
    change(&message)
    channels[id: channel]?.messages[id: id] = message
    return .none
  }

  static func textRefusal(_ text: String) -> Refusal? {
    if text.isEmpty { return "the message is empty: say something" }
    if text.count > messageLimit { return "a message is at most \(messageLimit) characters" }
    return nil
  }

  static func noChannel(_ name: String) -> Refusal { "there is no channel \(name)" }
}
