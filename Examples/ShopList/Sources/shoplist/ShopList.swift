import Concord

/// A shopping list the whole household shares: items with a name and a quantity, checked off
/// as they are bought, each with a note.
struct ShopList: Codable, Equatable, Sendable {
  var items: [Item] = []
  var nextID = 1

  struct Item: Codable, Equatable, Sendable, Identifiable {
    var id: Int
    var name: String
    var quantity: Int
    var checked = false
    var note = ""
  }

  /// What people do to the list.
  enum ListAction: Codable, Equatable, Sendable {
    case add(name: String, quantity: Int)
    case check(id: Int)
    case uncheck(id: Int)
    case remove(id: Int)
  }

  /// What people do to one item's note.
  enum NoteAction: Codable, Equatable, Sendable {
    case write(text: String)
  }

  enum Action: Codable, Equatable, Sendable {
    case list(ListAction)
    case note(id: Int, NoteAction)
  }

  static let reducer = Reducer<ShopList, Action, Void> { list, action, _ in
    switch action {
    case let .list(.add(name, quantity)):
      guard !name.isEmpty else { return .refuse("an item needs a name") }
      guard quantity > 0 else { return .refuse("the quantity is 1 or more") }
      list.items.append(Item(id: list.nextID, name: name, quantity: quantity))
      list.nextID += 1
    case let .list(.check(id)), let .list(.uncheck(id)):
      guard let index = list.items.firstIndex(where: { $0.id == id }) else { return .refuse("there is no item \(id)") }
      list.items[index].checked = action == .list(.check(id: id))
    case let .list(.remove(id)):
      guard list.items.contains(where: { $0.id == id }) else { return .refuse("there is no item \(id)") }
      list.items.removeAll { $0.id == id }
    case let .note(id, .write(text)):
      guard let index = list.items.firstIndex(where: { $0.id == id }) else { return .refuse("there is no item \(id)") }
      list.items[index].note = text
    }
    return .none
  }
}
