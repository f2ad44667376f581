import ConcordApp

extension ShopList {
  /// How windows show the list and an item, and the words people type there.
  static let windows: [WindowScope] = [
    .scope(
      "list",
      render: { (list: ShopList, context: RenderContext<ShopList>) in
        let pending = context.pending(list.items, in: \.items)
        guard !list.items.isEmpty else { return ["", "  The list is empty: add milk 2"] }
        return list.items.map { line(for: $0, pending: pending.contains($0.id), width: context.width) }
      },
      commands: [
        WindowCommand<ListAction>("add", usage: "add NAME [QUANTITY]", help: "add an item", example: "add milk 2") { words in
          let quantity = words.all.count > 1 ? Int(words.all.last!) : nil
          let name = words.all.dropLast(quantity == nil ? 0 : 1).joined(separator: " ")
          return .add(name: name, quantity: quantity ?? 1)
        },
        WindowCommand("check", usage: "check ID", help: "mark it bought", example: "check 1") {
          .check(id: try $0.integer(0, "ID"))
        },
        WindowCommand("uncheck", usage: "uncheck ID", help: "not bought after all", example: "uncheck 1") {
          .uncheck(id: try $0.integer(0, "ID"))
        },
        WindowCommand("remove", usage: "remove ID", help: "take it off the list", example: "remove 1") {
          .remove(id: try $0.integer(0, "ID"))
        },
      ]),
    .scope(
      "item",
      render: { (item: Item, context: RenderContext<Item>) in
        ["", line(for: item, pending: context.confirmed != nil, width: context.width), "", "  Type a note for it."]
      },
      otherwise: { text in NoteAction.write(text: text) }),
  ]

  /// One item: `◌ [x] 1. 2 × milk — semi-skimmed`, the mark while it is pending.
  static func line(for item: Item, pending: Bool, width: Int) -> String {
    let mark = pending ? RenderContext<Item>.pendingMark : " "
    let note = item.note.isEmpty ? "" : " — \(item.note)"
    return TextFit.cut("\(mark) \(item.checked ? "[x]" : "[ ]") \(item.id). \(item.quantity) × \(item.name)\(note)", width)
  }
}
