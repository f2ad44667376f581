import ConcordApp

extension ShopList {
  /// The app as the daemon hosts it: the whole list as one scope, and one scope per item.
  static let hosted = HostedApp(
    name: "ShopList", version: 1, initialState: ShopList(), reducer: reducer, environment: (),
    scopes: [
      .scope("list", state: \.self, action: Action.list),
      .scope(
        "item", parameter: { Int($0) }, placeholder: "ID",
        state: { list, id in list.items.first { $0.id == id } },
        lift: { list, _, item in list.items = [item] },
        action: { id, action in Action.note(id: id, action) }),
    ])
}
